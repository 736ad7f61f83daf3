import Foundation

/// A drop-in replacement for `UIImage(named:)` that shares one decoded instance per image while
/// anyone uses it and keeps only small images alive between uses.
///
/// ```swift
/// let store = ImageStore<Bitmap>(.init(directories: [Bundle.main.resourceURL!]))  // BitmapDecoder
/// let icon = store.image(named: "icon")   // icon@2x.png, else icon@3x.png, else icon.png
/// ```
///
/// - Lookups are keyed by the file they resolve to, so `"icon"`, `"icon.png"`, `"icon@2x"` and the
///   path of `icon@2x.png` return the same instance.
/// - Concurrent misses for one image decode it once; the other callers wait and share the result.
/// - Every method is safe to call from any thread. One lock guards the state; file access,
///   decoding and freeing images all happen outside it.
///
/// How images are kept is the ``CachePolicy``; the default keeps images weakly (shared while in
/// use) plus a small strong LRU for icons.
public final class ImageStore<Image: StorableImage>: Sendable {
    let engine: StoreEngine
    /// Loads ``ImageAnimation``s: the same fetcher, its own weak-only memory.
    let animations: StoreEngine
    /// The bytes of frames all of this store's animations keep.
    let frameBudget: FrameBudget

    /// The default for `maximumFileSize`: 64 MiB.
    public static var defaultMaximumFileSize: Int { 64 * 1024 * 1024 }

    /// The default for `maximumConcurrentDecodingBytes`: an eighth of the memory this process may
    /// use (``ProcessMemoryLimit/current``), and at least 384 MiB.
    ///
    /// Half the share ``ProcessMemoryLimit/recommendedFraction`` gives the images that exist
    /// goes to the transient memory of the decodes making new ones: 512 MiB on a 4 GiB phone,
    /// where two large decodes run at once and a third waits. The floor is the built-in
    /// decoders' `maximumDecodingBytes`, so one decode at their limit never waits for nothing.
    public static var defaultMaximumConcurrentDecodingBytes: Int {
        max(402_653_184, ProcessMemoryLimit.current.bytes / 8)
    }

    /// What this store was created with.
    /// The default ``Configuration/animationFrameBudget``: 64 MiB, the frames of a 300-frame
    /// 240 × 240 sticker, or a window of a dozen frames of a 1080p animation.
    public static var defaultAnimationFrameBudget: Int { 64 * 1024 * 1024 }

    public let configuration: Configuration

    /// Creates a store from `configuration`.
    ///
    /// ```swift
    /// var configuration = ImageStore<Bitmap>.Configuration(directories: [imagesFolder])
    /// configuration.policy = .weak
    /// let images = ImageStore(configuration)
    /// ```
    ///
    /// - Parameter configuration: Where the store looks, how it keeps images, its limits, its
    ///   network and disk layers and its decoder; see ``Configuration`` for each default.
    ///   `maximumConcurrentLoads` and `maximumConcurrentDecodingBytes` must be at least 1.
    public init(_ configuration: Configuration) {
        precondition(
            configuration.maximumConcurrentDecodingBytes >= 1, "maximumConcurrentDecodingBytes must be at least 1")
        self.configuration = configuration
        let decoder = configuration.decoder
        let fetcher = ImageFetcher(
            resolver: ImageResolver(
                directories: configuration.directories, scales: configuration.scales,
                extensions: configuration.extensions),
            fileReader: ImageFileReader(maximumFileSize: configuration.maximumFileSize),
            downloader: configuration.downloader,
            diskCache: configuration.diskCache)
        let engine = StoreEngine(
            policy: configuration.policy,
            maximumConcurrentLoads: configuration.maximumConcurrentLoads,
            fetcher: fetcher,
            decode: { data, options in
                let decoded = try decoder.decode(data, options: options)
                return (CachedImage(decoded.image), decoded.isDamaged)
            },
            readHeader: { data in decoder.header(of: data) },
            peakBytes: { data, options in decoder.decodingPeakBytes(of: data, options: options) },
            maximumConcurrentDecodingBytes: configuration.maximumConcurrentDecodingBytes
        )
        self.engine = engine
        frameBudget = FrameBudget(limit: configuration.animationFrameBudget)
        animations = Self.makeAnimationEngine(
            configuration: configuration, fetcher: fetcher, budget: frameBudget,
            queue: FrameDecodeQueue(maximumConcurrentDecodes: configuration.maximumConcurrentLoads),
            countLive: { [weak engine] image in engine?.countLive(image) })
    }

    public func image(named name: String) -> Image? {
        try? loadImage(named: name)
    }

    /// The image for `name`, or the reason there is none.
    ///
    /// | `name` | files tried in each directory (`scales: [2, 3, 1]`) |
    /// |---|---|
    /// | `"icon"` | `icon@2x.png`, `icon@3x.png`, `icon.png`, then the next extension |
    /// | `"icon.png"` | `icon@2x.png`, `icon@3x.png`, `icon.png` |
    /// | `"icon@3x"` | `icon@3x.png`, then the next extension |
    /// | `"icons/back"` | `icons/back@2x.png`, … inside the directory's `icons` folder |
    ///
    /// Resolutions, including "not found", are remembered until ``removeAll()``, so repeated
    /// lookups do not touch the file system.
    ///
    /// - Parameter name: A file name relative to the store's directories.
    /// - Returns: The shared image.
    /// - Throws: An ``ImageStoreError``: `invalidName` for empty, absolute, `..`, `.`, NUL-carrying
    ///   or over-long names and for files resolving outside their directory; `notFound`;
    ///   `unreadable`; `fileTooLarge`; `decodingFailed`.
    /// - Complexity: A hit costs one hash lookup of the name and one of the file.
    public func loadImage(named name: String) throws(ImageStoreError) -> Image {
        cast(try engine.load(named: name))
    }

    /// The image in the file at `path`, like `UIImage(contentsOfFile:)` but shared: the same
    /// instance as the name that resolves to this file, while it is alive.
    ///
    /// Any path is allowed: unlike a name, it is not confined to the store's directories, and
    /// `..` and symbolic links in it are followed. Never pass a path built from untrusted input;
    /// use ``image(named:)`` for that. The file is then read along its resolved path without
    /// following a symbolic link that appeared since, so a load a name shares stays confined.
    ///
    /// - Parameter path: An absolute path, or one relative to the working directory. Its scale
    ///   comes from its name: `icon@2x.png` is scale 2.
    /// - Returns: The shared image, or nil if there is none or it cannot be read.
    public func image(contentsOfFile path: String) -> Image? {
        image(for: .file(path))
    }

    /// The image in the file at `path`, or the reason there is none.
    ///
    /// Any path is allowed, outside the store's directories too; see ``image(contentsOfFile:)``.
    ///
    /// - Parameter path: An absolute path, or one relative to the working directory.
    /// - Returns: The shared image.
    /// - Throws: An ``ImageStoreError``, as ``loadImage(named:)`` does.
    public func loadImage(contentsOfFile path: String) throws(ImageStoreError) -> Image {
        try loadImage(for: .file(path))
    }

    /// Gives memory back.
    ///
    /// | level | effect |
    /// |---|---|
    /// | `.warning` | the LRU is trimmed to half its limits, dead weak entries are pruned, and `.retainCountSweep` sweeps |
    /// | `.critical` | every strong reference the store holds is dropped |
    ///
    /// At either level every ``ImageAnimation`` drops the frames it keeps, all but the one on
    /// screen. Images someone still holds stay findable under the weak policies: nothing on screen
    /// is decoded twice.
    ///
    /// - Parameter level: How urgent the request is.
    public func handleMemoryPressure(_ level: MemoryPressureLevel) {
        engine.handleMemoryPressure(level)
        animations.handleMemoryPressure(level)
        frameBudget.dropFramesOffScreen()
    }

    /// Drops every strong reference and forgets every resolution (call it after adding or
    /// removing files). Images still held elsewhere stay shared under the weak policies.
    ///
    /// Queued asynchronous loads are cancelled: their waiters get ``ImageStoreError/cancelled``.
    /// Loads already running finish and deliver their images as usual.
    public func removeAll() {
        engine.removeAll()
        animations.removeAll()
    }

    /// The store's counters and the current size of its layers, its animations' frames included.
    public var statistics: ImageStoreStatistics {
        var statistics = engine.statistics
        frameBudget.addStatistics(to: &statistics)
        return statistics
    }

    /// Every image in the engine was decoded by this store's decoder, so it is an `Image`.
    /// Consuming: the image moves out of the wrapper instead of being retained once more and the
    /// wrapper released (half a memory-only hit's time: BENCHMARKS.md).
    func cast(_ image: consuming CachedImage) -> Image {
        unsafeDowncast(image.object, to: Image.self)
    }
}
