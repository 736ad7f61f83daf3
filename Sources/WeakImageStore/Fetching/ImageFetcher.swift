import Foundation

/// Resolves requests and fetches their bytes: every source the store reads from, behind the two
/// steps the engine knows — a request resolved to an ``ImageLocator``, and the bytes at its
/// ``ByteLocation`` fetched.
///
/// | request | resolved | bytes fetched |
/// |---|---|---|
/// | `.named`, `.file` (and `file:` URLs) | on the file system, remembered by the engine | read beneath the file's root |
/// | `.provider` | at once, from its identity and version | `data()`, one call per identity at a time |
/// | `.url` (http, https) | at once, from its canonical URL or cache key | from the disk cache, else downloaded by the ``ImageDownloader``, never on a loading thread's time (see ``NetworkFetcher``) |
/// | `.url` (any other scheme) | fails with ``ImageStoreError/unsupportedURL(_:reason:)``, no I/O | — |
struct ImageFetcher: Sendable {
    let resolver: ImageResolver
    let fileReader: ImageFileReader
    let network: NetworkFetcher
    let providerReads = ProviderReads()

    init(
        resolver: ImageResolver, fileReader: ImageFileReader, downloader: ImageDownloader,
        diskCache: DiskImageCache?
    ) {
        self.resolver = resolver
        self.fileReader = fileReader
        network = NetworkFetcher(downloader: downloader, diskCache: diskCache)
    }

    /// The resolution of a source that needs no file system, or nil for names and paths, which
    /// must be resolved by ``resolve(_:)`` outside the store's lock.
    static func resolvedWithoutFileSystem(_ source: ImageRequest.Source) -> Result<ImageLocator, ImageStoreError>? {
        switch source {
        case .named, .file: nil
        case .provider(let provider): resolve(provider)
        case .url(let url): resolve(url)
        }
    }

    /// Resolves any request's source; for names and paths this looks at the file system.
    func resolve(_ source: ImageRequest.Source) -> Result<ImageLocator, ImageStoreError> {
        switch source {
        case .named(let name):
            Result(typedCatching: { () throws(ImageStoreError) -> ImageLocator in try resolver.resolve(name: name) })
        case .file(let path):
            Result(typedCatching: { () throws(ImageStoreError) -> ImageLocator in try resolver.resolve(path: path) })
        case .provider(let provider):
            Self.resolve(provider)
        case .url(let url):
            Self.resolve(url)
        }
    }

    private static func resolve(_ provider: ProviderSource) -> Result<ImageLocator, ImageStoreError> {
        .success(ImageLocator(provider.identity, bytes: .provider(provider)))
    }

    private static func resolve(_ url: URLSource) -> Result<ImageLocator, ImageStoreError> {
        guard url.isDownloadable else {
            return .failure(.unsupportedURL(url.url, reason: "only http, https and file URLs can be loaded"))
        }
        return .success(ImageLocator(url.identity, bytes: .download(url)))
    }

    /// Fetches the bytes of a resolved source on the calling thread. Downloads never block a
    /// thread: for a URL this answers a fresh entry of the disk cache or
    /// ``ImageStoreError/notInMemoryOrOnDisk(_:)``.
    func fetch(_ bytes: ByteLocation) -> Result<Data, ImageStoreError> {
        switch bytes {
        case .file(let location):
            Result(typedCatching: { () throws(ImageStoreError) -> Data in try fileReader.read(location) })
        case .provider(let provider):
            providerReads.read(provider, limit: fileReader.maximumFileSize)
        case .download(let url):
            network.bytesWithoutNetwork(url)
        }
    }

    /// Tells the source that the decoder rejected its bytes: bytes from the network are neither
    /// kept on disk nor downloaded again before the back-off ends. Files and providers are read
    /// afresh on every miss and keep nothing.
    func rejected(_ bytes: ByteLocation, error: ImageStoreError) {
        if case .download(let url) = bytes { network.rejectUndecodable(url, error: error) }
    }
}
