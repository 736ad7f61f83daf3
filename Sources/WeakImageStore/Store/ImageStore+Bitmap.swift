import Foundation

extension ImageStore where Image == Bitmap {
    /// Creates a store of portable ``Bitmap``s decoded by the built-in ``BitmapDecoder``: PNG and
    /// JPEG files, told apart by their leading bytes.
    ///
    /// Names without an extension try `extensions` in order, `["png"]` by default, as
    /// `UIImage(named:)` does; name JPEGs with their extension (`"photo.jpg"`), or pass
    /// `extensions: ["png", "jpg", "jpeg"]` to find them without one.
    ///
    /// ```swift
    /// let images = ImageStore(directories: [URL(fileURLWithPath: "/srv/app/images")])
    /// ```
    ///
    /// - Parameters:
    ///   - directories: Where names are looked up, in order; the first directory holding a match
    ///     wins. A name never resolves to a file outside its directory.
    ///   - policy: How decoded images are kept. Defaults to ``CachePolicy/default``.
    ///   - scales: The scale suffixes to try, in order; 1 is the plain file. Defaults to `[2, 3, 1]`.
    ///   - extensions: The file extensions to try, in order. Defaults to `["png"]`.
    ///   - maximumFileSize: Files larger than this many bytes are refused before being read.
    ///     Defaults to 64 MiB.
    ///   - maximumConcurrentLoads: The most loads the loading threads run at once; see
    ///     ``ImageStore/init(directories:policy:scales:extensions:maximumFileSize:maximumConcurrentLoads:downloader:diskCache:decoder:maximumConcurrentDecodingBytes:)``.
    ///     Defaults to the number of active processors.
    ///   - downloader: Downloads `http` and `https` requests. Defaults to a new ``ImageDownloader``.
    ///   - diskCache: Keeps downloaded bytes on disk. Defaults to none.
    ///   - pngDecoder: The PNG decoder, with its size limits. Defaults to `PNGDecoder()` (64 Mi pixels).
    ///   - jpegDecoder: The JPEG decoder, with its size limits. Defaults to `JPEGDecoder()` (64 Mi pixels).
    ///   - maximumConcurrentDecodingBytes: The most memory the decodes running at once may hold
    ///     together; see the initializer above. Defaults to
    ///     ``ImageStore/defaultMaximumConcurrentDecodingBytes``.
    public convenience init(
        directories: [URL],
        policy: CachePolicy = .default,
        scales: [Int] = [2, 3, 1],
        extensions: [String] = ["png"],
        maximumFileSize: Int = ImageStore.defaultMaximumFileSize,
        maximumConcurrentLoads: Int = ProcessInfo.processInfo.activeProcessorCount,
        downloader: ImageDownloader = ImageDownloader(),
        diskCache: DiskImageCache? = nil,
        pngDecoder: PNGDecoder = PNGDecoder(),
        jpegDecoder: JPEGDecoder = JPEGDecoder(),
        maximumConcurrentDecodingBytes: Int = ImageStore.defaultMaximumConcurrentDecodingBytes
    ) {
        self.init(
            directories: directories, policy: policy, scales: scales, extensions: extensions,
            maximumFileSize: maximumFileSize, maximumConcurrentLoads: maximumConcurrentLoads, downloader: downloader,
            diskCache: diskCache, decoder: BitmapDecoder(pngDecoder: pngDecoder, jpegDecoder: jpegDecoder),
            maximumConcurrentDecodingBytes: maximumConcurrentDecodingBytes
        )
    }
}
