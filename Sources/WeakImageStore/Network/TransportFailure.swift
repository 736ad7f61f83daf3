import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Words for why a transfer failed below HTTP, for ``ImageStoreError/downloadFailed(_:reason:)``:
/// what happened, then the `URLError` code for whoever needs to look it up.
enum TransportFailure {
    /// Whether `error` is URLSession's answer to `URLSessionTask.cancel()`.
    static func isCancellation(_ error: any Error) -> Bool {
        (error as? URLError)?.code == .cancelled
    }

    /// Whether `error` is a timeout, which explains a short body better than its length does.
    static func isTimeout(_ error: any Error) -> Bool {
        (error as? URLError)?.code == .timedOut
    }

    /// A short sentence saying what failed.
    static func reason(for error: any Error) -> String {
        guard let urlError = error as? URLError else { return String(describing: error) }
        let what =
            switch urlError.code {
            case .timedOut: "the request timed out"
            case .cannotConnectToHost: "could not connect to the server (connection refused)"
            case .cannotFindHost, .dnsLookupFailed: "the server's host name could not be resolved"
            case .networkConnectionLost: "the connection was lost"
            case .notConnectedToInternet: "not connected to the internet"
            case .httpTooManyRedirects: "too many redirects"
            case .badServerResponse: "the server's response could not be parsed"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
                "the secure connection failed"
            default: urlError.localizedDescription
            }
        return "\(what) (URLError \(urlError.code.rawValue))"
    }
}
