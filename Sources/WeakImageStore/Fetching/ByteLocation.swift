import Foundation

/// Where an image's bytes are fetched from. The engine never looks inside: it hands the value to
/// ``ImageFetcher/fetch(_:)`` (or, for a download, to the downloader without holding a loading
/// thread) and, when the decoder rejects the bytes, asks it to name the failure.
enum ByteLocation: Sendable {
    /// A file, read beneath its root.
    case file(FileLocation)
    /// The app's data provider.
    case provider(ProviderSource)
    /// An http or https URL, downloaded by the store's ``ImageDownloader``.
    case download(URLSource)

    /// The URL to download, for a source whose bytes come from the network; nil otherwise.
    var download: URLSource? {
        if case .download(let url) = self { return url }
        return nil
    }

    /// The error for bytes from here that the decoder rejected.
    func decodingFailure(reason: String) -> ImageStoreError {
        switch self {
        case .file(let location): .decodingFailed(path: location.path, reason: reason)
        case .provider(let provider): .undecodable(provider.request, reason: reason)
        case .download(let url): .undecodable(url.request, reason: reason)
        }
    }
}
