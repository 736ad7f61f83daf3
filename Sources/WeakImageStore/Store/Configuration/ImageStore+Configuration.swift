import Foundation

extension ImageStore {
    /// Everything a store is made of: where it looks, how it keeps images, its limits, its
    /// network and disk layers and its decoder.
    ///
    /// Create one with the directories (and, for image types without a default, the decoder),
    /// change what differs from the defaults, then create the store:
    ///
    /// ```swift
    /// var configuration = ImageStore<Bitmap>.Configuration(directories: [imagesFolder])
    /// configuration.extensions = ["png", "jpg"]
    /// configuration.maximumConcurrentLoads = 2
    /// let images = ImageStore(configuration)
    /// ```
    ///
    /// A store reads its configuration once, when it is created; ``ImageStore/configuration``
    /// reads it back.
    public struct Configuration: Sendable {
        /// Where names are looked up, in order; the first directory holding a match wins.
        ///
        /// A name never resolves to, nor reads, a file outside its directory, even when a folder
        /// inside is swapped for a symbolic link while the image loads. No default for
        /// ``Bitmap``; the main bundle's resources for the Apple image types.
        public var directories: [URL]

        /// How decoded images are kept. Defaults to ``CachePolicy/default``.
        public var policy: CachePolicy = .default

        /// The scale suffixes to try, in order, for a name without one; 1 is the plain file.
        ///
        /// Defaults to `[2, 3, 1]`; for `UIImage`, the main screen's scale first
        /// (`ImageStore<UIImage>.screenFirstScales`); for `SharedNSImage`, `[2, 1, 3]`.
        public var scales: [Int] = [2, 3, 1]

        /// The file extensions to try, in order, for a name without one (without dot). Defaults
        /// to `["png"]`.
        public var extensions: [String] = ["png"]

        /// Files larger than this many bytes are refused before being read. Defaults to 64 MiB
        /// (``ImageStore/defaultMaximumFileSize``).
        public var maximumFileSize: Int = ImageStore.defaultMaximumFileSize

        /// The most loads the store's loading threads run at once for the asynchronous API; at
        /// least 1. Defaults to the number of active processors.
        ///
        /// Each running load holds one file's bytes and one decoded image that nobody can use
        /// yet, so this bounds the transient memory of a burst of misses to that many full-size
        /// images, however many requests are queued. Synchronous lookups decode on their
        /// caller's thread and are not counted. A load waiting for a download holds no loading
        /// thread.
        ///
        /// One more thread, the visible lane, runs loads at `.high` and above while the others
        /// are all busy and one of them runs a prefetch: a view on screen never waits for a
        /// prefetched photo to finish decoding.
        public var maximumConcurrentLoads: Int = ProcessInfo.processInfo.activeProcessorCount

        /// The most memory the decodes running at once may hold together; at least 1. Defaults
        /// to ``ImageStore/defaultMaximumConcurrentDecodingBytes``.
        ///
        /// Each decode counts its decoder's ``ImageDecoding/decodingPeakBytes(of:maxPixelSize:)``:
        /// a decode that does not fit beside the running ones waits (first come, first served; a
        /// load nobody waits for any more stops waiting), one larger than this runs alone.
        /// Synchronous lookups wait too. Decoders that cannot tell their peak are not counted.
        public var maximumConcurrentDecodingBytes: Int = ImageStore.defaultMaximumConcurrentDecodingBytes

        /// The most bytes of decoded frames all the store's ``ImageAnimation``s keep together;
        /// not negative. Defaults to ``ImageStore/defaultAnimationFrameBudget``.
        ///
        /// An animation whose frames all fit in what is left keeps them, so its later loops decode
        /// nothing; a larger one keeps a window ahead of its playhead. The frame each animation
        /// shows is kept beyond the budget: it exists anyway. 0 keeps nothing but those.
        public var animationFrameBudget: Int = ImageStore.defaultAnimationFrameBudget

        /// Downloads `http` and `https` requests: one transfer per URL, at most its
        /// `maximumConcurrentDownloads` at once. Defaults to a new ``ImageDownloader``; give
        /// several stores one downloader to share its transfers and limits.
        public var downloader: ImageDownloader = ImageDownloader()

        /// Keeps downloaded bytes on disk, so `.url` requests go memory → disk → network, survive
        /// relaunches and are revalidated by HTTP's rules. Defaults to nil: every memory miss of
        /// a URL downloads it again.
        public var diskCache: DiskImageCache?

        /// Turns file bytes into images.
        ///
        /// Defaults to ``BitmapDecoder`` (PNG and JPEG) for ``Bitmap``, `UIImageDecoder` for
        /// `UIImage` and `NSImageDecoder` for `SharedNSImage`; other image types name theirs in
        /// ``init(directories:decoder:)``. Set another with `AnyImageDecoder(myDecoder)`.
        public var decoder: AnyImageDecoder<Image>

        /// A configuration with the defaults, for any image type.
        ///
        /// - Parameters:
        ///   - directories: Where names are looked up, in order (``directories``).
        ///   - decoder: Turns file bytes into images (``decoder``).
        public init(directories: [URL], decoder: some ImageDecoding<Image>) {
            self.directories = directories
            self.decoder = AnyImageDecoder(decoder)
        }
    }
}

extension ImageStore.Configuration where Image == Bitmap {
    /// A configuration of portable ``Bitmap``s decoded by the built-in ``BitmapDecoder``: PNG and
    /// JPEG files, told apart by their leading bytes, every other knob at its default.
    ///
    /// Names without an extension try ``extensions`` in order, `["png"]` by default, as
    /// `UIImage(named:)` does; name JPEGs with their extension (`"photo.jpg"`), or set
    /// `extensions = ["png", "jpg", "jpeg"]` to find them without one.
    ///
    /// - Parameter directories: Where names are looked up, in order (``directories``).
    public init(directories: [URL]) {
        self.init(directories: directories, decoder: BitmapDecoder())
    }
}
