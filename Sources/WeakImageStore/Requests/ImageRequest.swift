import Foundation

/// What to show: an image from one source, at full size or decoded to the size on screen.
///
/// Every lookup of an ``ImageStore`` takes a request, whatever the bytes come from:
///
/// ```swift
/// store.image(for: .named("icon"))                                   // like UIImage(named:)
/// store.image(for: .file("/var/data/avatar.png", maxPixelSize: 120)) // any file, as a thumbnail
/// try await store.fetchImage(for: .provider(PhotoBlob(rowID: 42, modified: stamp)))  // a database blob
/// ```
///
/// A request's identity is its source's identity and its output size: requests reaching the same
/// bytes at the same size share one image instance and one load, however they were written.
///
/// | requests | same image? |
/// |---|---|
/// | `.named("icon")`, `.named("icon@2x.png")`, `.file(<path of icon@2x.png>)`, `.url(<file URL of it>)` | yes, when `icon@2x.png` is the file the name resolves to |
/// | `.provider(a)`, `.provider(b)` | when `a` and `b` have equal `identity` and `version` |
/// | `.url(u1, cacheKey: "k")`, `.url(u2, cacheKey: "k")` | yes: the cache key replaces the URL |
/// | `.named("photo", maxPixelSize: 300)`, `.named("photo")` | no (unless the photo is at most 300 pixels: then both are the full-size image) |
public struct ImageRequest: Hashable, Sendable, CustomStringConvertible {
    /// Where the bytes come from.
    enum Source: Hashable, Sendable {
        /// A name relative to the store's directories.
        case named(String)
        /// A path, absolute or relative to the working directory.
        case file(String)
        /// A network URL (`file:` URLs become ``file(_:)``).
        case url(URLSource)
        /// The app's data provider.
        case provider(ProviderSource)
    }

    let source: Source
    /// The longest side of the result in pixels, or nil for the full-size image.
    ///
    /// The image is decoded straight to that size (the aspect ratio kept, never enlarged), so the
    /// full-size pixels never exist. A size at least the image's longest side gives the
    /// full-size instance itself. See <doc:RequestsAndSources> for the exact output size.
    public let maxPixelSize: Int?

    init(source: Source, maxPixelSize: Int?) {
        precondition(maxPixelSize.map { $0 >= 1 } ?? true, "maxPixelSize must be at least 1")
        self.source = source
        self.maxPixelSize = maxPixelSize
    }

    /// The image for `name` in the store's directories, as `UIImage(named:)` finds it.
    ///
    /// | `name` | files tried in each directory (`scales: [2, 3, 1]`) |
    /// |---|---|
    /// | `"icon"` | `icon@2x.png`, `icon@3x.png`, `icon.png`, then the next extension |
    /// | `"icon.png"` | `icon@2x.png`, `icon@3x.png`, `icon.png` |
    /// | `"icon@3x"` | `icon@3x.png`, then the next extension |
    /// | `"icons/back"` | `icons/back@2x.png`, … inside the directory's `icons` folder |
    ///
    /// A name never resolves to, nor reads, a file outside its directory. Resolutions are
    /// remembered until ``ImageStore/removeAll()``.
    ///
    /// - Parameters:
    ///   - name: A file name relative to the store's directories, with or without extension and
    ///     scale suffix.
    ///   - maxPixelSize: Decode to at most this many pixels on the longest side; at least 1.
    ///     Defaults to nil, the full-size image.
    /// - Returns: The request.
    public static func named(_ name: String, maxPixelSize: Int? = nil) -> ImageRequest {
        ImageRequest(source: .named(name), maxPixelSize: maxPixelSize)
    }

    /// The image in the file at `path`, like `UIImage(contentsOfFile:)` but shared: the same
    /// instance as the name that resolves to this file, while it is alive.
    ///
    /// Any path is allowed: unlike a name, it is not confined to the store's directories, and
    /// `..` and symbolic links in it are followed. Never build a path from untrusted input; use
    /// ``named(_:maxPixelSize:)`` for that. Its scale comes from its name: `icon@2x.png` is 2.
    ///
    /// - Parameters:
    ///   - path: An absolute path, or one relative to the working directory.
    ///   - maxPixelSize: Decode to at most this many pixels on the longest side; at least 1.
    ///     Defaults to nil, the full-size image.
    /// - Returns: The request.
    public static func file(_ path: String, maxPixelSize: Int? = nil) -> ImageRequest {
        ImageRequest(source: .file(path), maxPixelSize: maxPixelSize)
    }

    /// The image at `url`: a picture downloaded over `http` or `https`, or a local file.
    ///
    /// A `file:` URL is the request ``file(_:maxPixelSize:)`` of its path (and `cacheKey` is not
    /// used: the file's real path is its identity). An `http` or `https` URL is known by its
    /// canonical form — scheme and host lowercased, default port and fragment dropped, query
    /// kept — or by `cacheKey` when given, and downloaded by the store's ``ImageDownloader``: one
    /// transfer per URL whoever asks, stopped at the socket when nobody waits for it any more,
    /// nothing partial ever decoded. Other schemes fail with
    /// ``ImageStoreError/unsupportedURL(_:reason:)`` without any I/O.
    ///
    /// Synchronous lookups (``ImageStore/image(for:)``, ``ImageStore/loadImage(for:)``) of a
    /// network picture never wait on the network: they answer from memory or throw
    /// ``ImageStoreError/notInMemoryOrOnDisk(_:)`` at once. Use ``ImageStore/fetchImage(for:priority:)``
    /// or ``ImageStore/prefetch(_:priority:)`` to download.
    ///
    /// - Parameters:
    ///   - url: Where the image is.
    ///   - cacheKey: Replaces the URL in the image's identity, for URLs that change while the
    ///     picture does not (expiring tokens in the query). Defaults to nil.
    ///   - maxPixelSize: Decode to at most this many pixels on the longest side; at least 1.
    ///     Defaults to nil, the full-size image.
    /// - Returns: The request.
    public static func url(_ url: URL, cacheKey: String? = nil, maxPixelSize: Int? = nil) -> ImageRequest {
        let absolute = url.absoluteString
        // An http(s) URL is no file URL: `isFileURL` lowercases the scheme, a copy on every hit.
        if !CanonicalURL.hasHTTPScheme(absolute), url.isFileURL {
            return ImageRequest(source: .file(url.path), maxPixelSize: maxPixelSize)
        }
        return ImageRequest(
            source: .url(URLSource(url, absoluteString: absolute, cacheKey: cacheKey)), maxPixelSize: maxPixelSize)
    }

    /// The image in the bytes `provider` supplies: a database blob, an archive member, a
    /// generated file.
    ///
    /// Providers with equal ``ImageDataProvider/identity`` and ``ImageDataProvider/version``
    /// share one image and one call of ``ImageDataProvider/data()``. Both are read once, here.
    ///
    /// - Parameters:
    ///   - provider: Supplies the bytes when the image is not in memory.
    ///   - maxPixelSize: Decode to at most this many pixels on the longest side; at least 1.
    ///     Defaults to nil, the full-size image.
    /// - Returns: The request.
    public static func provider(_ provider: some ImageDataProvider, maxPixelSize: Int? = nil) -> ImageRequest {
        ImageRequest(source: .provider(ProviderSource(provider)), maxPixelSize: maxPixelSize)
    }

    /// The same source at another size.
    ///
    /// - Parameter maxPixelSize: The longest side of the result, at least 1; nil for full size.
    /// - Returns: The request for that size.
    public func withMaxPixelSize(_ maxPixelSize: Int?) -> ImageRequest {
        ImageRequest(source: source, maxPixelSize: maxPixelSize)
    }

    /// The name of a ``named(_:maxPixelSize:)`` request; nil for other sources.
    var name: String? {
        if case .named(let name) = source { return name }
        return nil
    }

    /// The request as a person reads it: `named "icon" at 300 px`, `file /var/data/a.png`,
    /// `url https://example.com/a.jpg`, `provider "photos/42" version "7"`.
    public var description: String {
        let source =
            switch source {
            case .named(let name): "named \(name.debugDescription)"
            case .file(let path): "file \(path)"
            case .url(let url): "url \(CanonicalURL.withoutUserInfo(url.url))\(Self.describeCacheKey(of: url.identity))"
            case .provider(let provider): provider.description
            }
        guard let maxPixelSize else { return source }
        return "\(source) at \(maxPixelSize) px"
    }

    private static func describeCacheKey(of identity: SourceIdentity) -> String {
        identity.kind == .cacheKey ? " (cache key \(identity.value.debugDescription))" : ""
    }
}
