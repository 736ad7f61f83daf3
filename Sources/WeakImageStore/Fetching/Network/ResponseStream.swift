import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One task's response as it arrives: refused on its redirects, status or declared length before
/// any body is read; counted against the size limit as it grows; written to a ``BodyFile``; and
/// checked against its declared length at the end. Nothing partial comes out of it.
///
/// | event | refused with |
/// |---|---|
/// | an 11th redirect | ``ImageStoreError/downloadFailed(_:reason:)`` |
/// | a redirect from https to http | ``ImageStoreError/downloadFailed(_:reason:)`` |
/// | a status other than 2xx | ``ImageStoreError/httpStatus(_:code:)`` |
/// | `Content-Length` over the limit | ``ImageStoreError/responseTooLarge(_:limit:)`` |
/// | body bytes past the limit | ``ImageStoreError/responseTooLarge(_:limit:)`` |
/// | the connection ends before `Content-Length` bytes | ``ImageStoreError/responseTruncated(_:expected:received:)`` |
///
/// A refusal is remembered here and the delegate cancels the task (on Linux the response
/// disposition `.cancel` is ignored), so the error that ends the task is this one, not the
/// cancellation.
struct ResponseStream: Sendable {
    /// Redirects followed before the transfer fails; URLSession's own limits differ by platform.
    static let maximumRedirects = 10

    /// The URL the caller asked for: every error names it, whatever redirects followed.
    let url: URL
    /// The most body bytes accepted.
    let limit: Int
    /// Body bytes received, counted whether or not they were kept.
    private(set) var received = 0
    /// Why the response was refused, if it was.
    private(set) var failure: ImageStoreError?
    private var redirects = 0
    /// The length the body must reach: `Content-Length`, unless a content coding makes it the
    /// length of other bytes than the ones delivered.
    private var declaredLength: Int?
    private var file: BodyFile?

    init(url: URL, limit: Int) {
        self.url = url
        self.limit = limit
    }

    /// Decides on a redirect from `source` (the URL that answered with it) to `destination`.
    ///
    /// - Returns: Whether to follow it.
    mutating func allowsRedirect(from source: URL?, to destination: URL?) -> Bool {
        guard failure == nil else { return false }
        redirects += 1
        if redirects > Self.maximumRedirects {
            failure = .downloadFailed(url, reason: "more than \(Self.maximumRedirects) redirects")
        } else if source?.scheme?.lowercased() == "https", destination?.scheme?.lowercased() == "http" {
            let target = destination?.absoluteString ?? "an http URL"
            failure = .downloadFailed(url, reason: "refused a redirect from https to http (\(target))")
        }
        return failure == nil
    }

    /// Checks the final response and opens the body's file in `directory`.
    ///
    /// - Returns: Whether to read the body.
    mutating func accepts(_ response: URLResponse, bodyDirectory directory: URL) -> Bool {
        guard failure == nil else { return false }
        guard let response = response as? HTTPURLResponse else {
            failure = .downloadFailed(url, reason: "the response is not an HTTP response")
            return false
        }
        guard (200..<300).contains(response.statusCode) else {
            failure = .httpStatus(url, code: response.statusCode)
            return false
        }
        let length = response.expectedContentLength
        if length > Int64(limit) {
            failure = .responseTooLarge(url, limit: limit)
            return false
        }
        let coding = response.value(forHTTPHeaderField: "Content-Encoding")?.lowercased() ?? "identity"
        declaredLength = length >= 0 && coding == "identity" ? Int(length) : nil
        discardBody()  // A second final response replaces the first.
        received = 0
        do {
            file = try BodyFile.create(in: directory)
        } catch {
            failure = .downloadFailed(url, reason: error.description)
            return false
        }
        return true
    }

    /// Appends a piece of the body, unless it would take the body past the limit.
    ///
    /// - Returns: Whether to go on reading.
    mutating func append(_ data: Data) -> Bool {
        received += data.count
        guard failure == nil, let file else { return false }
        guard received <= limit else {
            failure = .responseTooLarge(url, limit: limit)
            return false
        }
        do {
            try file.append(data)
        } catch {
            failure = .downloadFailed(url, reason: error.description)
            return false
        }
        return true
    }

    /// The outcome once the task completed with `error`: the whole body, or why not. The file is
    /// closed and deleted either way; the stream is spent.
    ///
    /// A refusal recorded earlier wins over the cancellation that carried it out; a cancellation
    /// nobody asked for here is ``ImageStoreError/cancelled``.
    mutating func finish(transportError error: (any Error)?) -> Result<Data, ImageStoreError> {
        let file = self.file
        self.file = nil
        file?.finishWriting()
        defer { file?.delete() }
        if let failure { return .failure(failure) }
        let short = declaredLength.map { received < $0 } ?? false
        if let error {
            if TransportFailure.isCancellation(error) { return .failure(.cancelled) }
            if short, !TransportFailure.isTimeout(error), let declaredLength {
                return .failure(.responseTruncated(url, expected: declaredLength, received: received))
            }
            return .failure(.downloadFailed(url, reason: TransportFailure.reason(for: error)))
        }
        if short, let declaredLength {
            return .failure(.responseTruncated(url, expected: declaredLength, received: received))
        }
        guard let file else {
            return .failure(.downloadFailed(url, reason: "the transfer ended without a response"))
        }
        do {
            return .success(try file.contents(length: received))
        } catch {
            return .failure(.downloadFailed(url, reason: error.description))
        }
    }

    /// Closes and deletes the body's file, if one is open.
    mutating func discardBody() {
        guard let file else { return }
        self.file = nil
        file.finishWriting()
        file.delete()
    }
}
