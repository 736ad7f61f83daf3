import Foundation

extension ImageStore where Image == Bitmap {
    /// Creates a store of portable ``Bitmap``s decoded by the built-in ``BitmapDecoder``: PNG and
    /// JPEG files, told apart by their leading bytes.
    ///
    /// Deprecated: build an ``ImageStore/Configuration`` and call ``ImageStore/init(_:)``:
    ///
    /// ```swift
    /// // Before
    /// let images = ImageStore(directories: [folder], extensions: ["png", "jpg"])
    /// // After
    /// var configuration = ImageStore<Bitmap>.Configuration(directories: [folder])
    /// configuration.extensions = ["png", "jpg"]
    /// let images = ImageStore(configuration)
    /// ```
    ///
    /// - Parameters:
    ///   - directories: ``ImageStore/Configuration/directories``.
    ///   - policy: ``ImageStore/Configuration/policy``. Defaults to ``CachePolicy/default``.
    ///   - scales: ``ImageStore/Configuration/scales``. Defaults to `[2, 3, 1]`.
    ///   - extensions: ``ImageStore/Configuration/extensions``. Defaults to `["png"]`.
    ///   - maximumFileSize: ``ImageStore/Configuration/maximumFileSize``. Defaults to 64 MiB.
    ///   - maximumConcurrentLoads: ``ImageStore/Configuration/maximumConcurrentLoads``. Defaults to
    ///     the number of active processors.
    ///   - downloader: ``ImageStore/Configuration/downloader``. Defaults to a new ``ImageDownloader``.
    ///   - diskCache: ``ImageStore/Configuration/diskCache``. Defaults to none.
    ///   - pngDecoder: The PNG decoder, with its size limits. Defaults to `PNGDecoder()` (64 Mi pixels).
    ///   - jpegDecoder: The JPEG decoder, with its size limits. Defaults to `JPEGDecoder()` (64 Mi pixels).
    ///   - maximumConcurrentDecodingBytes: ``ImageStore/Configuration/maximumConcurrentDecodingBytes``.
    ///     Defaults to ``ImageStore/defaultMaximumConcurrentDecodingBytes``.
    @available(*, deprecated, message: "Use ImageStore(_:) with an ImageStore.Configuration")
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
            maximumConcurrentDecodingBytes: maximumConcurrentDecodingBytes)
    }
}
