import Foundation

/// Why an ``ImageStore`` could not return an image.
public enum ImageStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name or path is not acceptable: empty or with NUL bytes or too long; for a name also
    /// absolute, with `.` or `..` components, or resolving (through symbolic links) outside its
    /// directory. (A path may lead anywhere.)
    case invalidName(String, reason: String)
    /// No regular file in any directory matches the name (or nothing is at the path). For a name,
    /// `search` says which files were tried where, which directories do not exist, and which
    /// files came close (another letter case, another extension).
    case notFound(name: String, search: NameSearch? = nil)
    /// The file exists but could not be opened or read, or is not a regular file, or a symbolic
    /// link took the place of a folder on its path (or of the file) since it was resolved.
    case unreadable(path: String, reason: String)
    /// The file is larger than the store's `maximumFileSize`; it was not read.
    case fileTooLarge(path: String, size: Int, limit: Int)
    /// The decoder rejected the file; `reason` is the decoder error's description.
    case decodingFailed(path: String, reason: String)
    /// A data provider's ``ImageDataProvider/data()`` threw; `reason` is the error's description.
    /// The request is the provider's full-size request.
    case providerFailed(ImageRequest, reason: String)
    /// A data provider returned more than the store's `maximumFileSize` bytes.
    case dataTooLarge(ImageRequest, size: Int, limit: Int)
    /// The decoder rejected bytes that are not a file's (a provider's), or there were none;
    /// `reason` is the decoder error's description. (A file's are ``decodingFailed(path:reason:)``.)
    case undecodable(ImageRequest, reason: String)
    /// The store cannot fetch this URL: its scheme is not one it loads. Nothing was fetched.
    case unsupportedURL(URL, reason: String)
    /// The server answered a download with a status other than 2xx; the body was not decoded.
    case httpStatus(URL, code: Int)
    /// A download failed below HTTP: the connection was refused or lost, it timed out, a redirect
    /// was refused (more than 10, or from https to http). `reason` says which.
    case downloadFailed(URL, reason: String)
    /// A response declared, or grew to, more than the downloader's `maximumResponseSize` bytes;
    /// nothing past the limit was read and nothing was kept.
    case responseTooLarge(URL, limit: Int)
    /// A response ended before the length its `Content-Length` declared; nothing was kept.
    case responseTruncated(URL, expected: Int, received: Int)
    /// A synchronous lookup of a network image that is neither in memory nor on disk: synchronous
    /// lookups never wait on the network. Load it with an asynchronous lookup or a prefetch.
    case notInMemoryOrOnDisk(URL)
    /// An asynchronous lookup stopped waiting: its task was cancelled, its prefetch was
    /// cancelled, or ``ImageStore/removeAll()`` cancelled its queued load.
    case cancelled
    /// A ``DiskImageCache`` could not be opened: its folder could not be created, or its index
    /// could not be opened or locked at all. `reason` names the file and the system error.
    case diskCacheUnavailable(URL, reason: String)

    /// A sentence saying what failed, for logs and error messages; URLs appear without their
    /// user name and password.
    public var description: String {
        switch self {
        case .invalidName(let name, let reason):
            "invalid image name \(name.debugDescription): \(reason)"
        case .notFound(let name, let search?):
            "no image named \(name.debugDescription) in the store's directories: \(search)"
        case .notFound(let name, nil):
            "no file at \(name.debugDescription)"
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .fileTooLarge(let path, let size, let limit):
            "\(path) is \(size) bytes, over the limit of \(limit) bytes"
        case .decodingFailed(let path, let reason):
            "cannot decode \(path): \(reason)"
        case .providerFailed(let request, let reason):
            "the data provider of \(request) failed: \(reason)"
        case .dataTooLarge(let request, let size, let limit):
            "\(request) supplied \(size) bytes, over the limit of \(limit) bytes"
        case .undecodable(let request, let reason):
            "cannot decode \(request): \(reason)"
        case .unsupportedURL(let url, let reason):
            "cannot load \(CanonicalURL.withoutUserInfo(url)): \(reason)"
        case .httpStatus(let url, let code):
            "\(CanonicalURL.withoutUserInfo(url)) answered HTTP \(code)"
        case .downloadFailed(let url, let reason):
            "cannot download \(CanonicalURL.withoutUserInfo(url)): \(reason)"
        case .responseTooLarge(let url, let limit):
            "\(CanonicalURL.withoutUserInfo(url)) is larger than the limit of \(limit) bytes"
        case .responseTruncated(let url, let expected, let received):
            "\(CanonicalURL.withoutUserInfo(url)) ended after \(received) of \(expected) bytes"
        case .notInMemoryOrOnDisk(let url):
            "\(CanonicalURL.withoutUserInfo(url)) is not in memory or on disk; synchronous lookups never download"
        case .cancelled:
            "the image load was cancelled"
        case .diskCacheUnavailable(let directory, let reason):
            "cannot open the disk cache in \(directory.path): \(reason)"
        }
    }
}
