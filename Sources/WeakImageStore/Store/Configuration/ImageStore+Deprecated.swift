import Foundation

extension ImageStore {
    /// Creates a store that finds images in `directories`.
    ///
    /// Deprecated: build an ``ImageStore/Configuration`` and call ``ImageStore/init(_:)``; each
    /// parameter here is the configuration's property of the same name.
    ///
    /// ```swift
    /// // Before
    /// let store = ImageStore(directories: [folder], policy: .weak, decoder: MyDecoder())
    /// // After
    /// var configuration = ImageStore<MyImage>.Configuration(directories: [folder], decoder: MyDecoder())
    /// configuration.policy = .weak
    /// let store = ImageStore(configuration)
    /// ```
    ///
    /// - Parameters:
    ///   - directories: ``Configuration/directories``.
    ///   - policy: ``Configuration/policy``. Defaults to ``CachePolicy/default``.
    ///   - scales: ``Configuration/scales``. Defaults to `[2, 3, 1]`.
    ///   - extensions: ``Configuration/extensions``. Defaults to `["png"]`.
    ///   - maximumFileSize: ``Configuration/maximumFileSize``. Defaults to 64 MiB.
    ///   - maximumConcurrentLoads: ``Configuration/maximumConcurrentLoads``. Defaults to the
    ///     number of active processors.
    ///   - downloader: ``Configuration/downloader``. Defaults to a new ``ImageDownloader``.
    ///   - diskCache: ``Configuration/diskCache``. Defaults to none.
    ///   - decoder: ``Configuration/decoder``.
    ///   - maximumConcurrentDecodingBytes: ``Configuration/maximumConcurrentDecodingBytes``.
    ///     Defaults to ``defaultMaximumConcurrentDecodingBytes``.
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
        decoder: some ImageDecoding<Image>,
        maximumConcurrentDecodingBytes: Int = ImageStore.defaultMaximumConcurrentDecodingBytes
    ) {
        var configuration = Configuration(directories: directories, decoder: decoder)
        configuration.policy = policy
        configuration.scales = scales
        configuration.extensions = extensions
        configuration.maximumFileSize = maximumFileSize
        configuration.maximumConcurrentLoads = maximumConcurrentLoads
        configuration.downloader = downloader
        configuration.diskCache = diskCache
        configuration.maximumConcurrentDecodingBytes = maximumConcurrentDecodingBytes
        self.init(configuration)
    }
}
