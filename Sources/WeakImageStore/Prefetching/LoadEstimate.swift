/// What getting one image ready has cost lately, as the store measured it: the network's
/// latency and throughput for the image's host, and the decoder's time.
///
/// ``ImageStore/loadEstimate(for:)`` returns one for a request; ``PrefetchPlanner`` turns it
/// into how far ahead of a scrolling list to load. Each figure is a running average that follows
/// the last few dozen transfers or decodes, nil until the first one is measured.
public struct LoadEstimate: Sendable, Equatable {
    /// Seconds from a request leaving to its response's headers arriving.
    public var latency: Double?
    /// Body bytes per second of one transfer, once its response arrived.
    public var bytesPerSecond: Double?
    /// Body bytes of one image.
    public var bytesPerImage: Double?
    /// Seconds one decode takes, at the sizes this store decodes (thumbnails included).
    public var decodeSeconds: Double?
    /// Seconds one decode takes per megapixel of the source image.
    public var decodeSecondsPerMegapixel: Double?
    /// Whether the image is downloaded (a `.url` request). A file's or a data provider's read is
    /// part of its decode's time, so ``secondsToImage(unmeasured:)`` counts no transfer for it.
    public var comesOverNetwork: Bool
    /// The transfers and decodes measured so far.
    public var transfers: Int
    public var decodes: Int

    /// Creates an estimate; every figure defaults to unknown.
    public init(
        latency: Double? = nil, bytesPerSecond: Double? = nil, bytesPerImage: Double? = nil,
        decodeSeconds: Double? = nil, decodeSecondsPerMegapixel: Double? = nil, comesOverNetwork: Bool = true,
        transfers: Int = 0, decodes: Int = 0
    ) {
        self.latency = latency
        self.bytesPerSecond = bytesPerSecond
        self.bytesPerImage = bytesPerImage
        self.decodeSeconds = decodeSeconds
        self.decodeSecondsPerMegapixel = decodeSecondsPerMegapixel
        self.comesOverNetwork = comesOverNetwork
        self.transfers = transfers
        self.decodes = decodes
    }

    /// Seconds from asking for an image to having it decoded: the transfer (latency plus the
    /// body at the measured rate; none unless it ``comesOverNetwork``) and the decode, each part
    /// not measured yet taken from `unmeasured`.
    ///
    /// - Parameter unmeasured: What an unknown part is assumed to cost: the transfer's
    ///   `transferSeconds`, the decode's `decodeSeconds`.
    public func secondsToImage(unmeasured: (transferSeconds: Double, decodeSeconds: Double) = (0.4, 0.05))
        -> Double
    {
        let transfer: Double
        if !comesOverNetwork {
            transfer = 0
        } else if let latency, let bytesPerSecond, let bytesPerImage, bytesPerSecond > 0 {
            transfer = latency + bytesPerImage / bytesPerSecond
        } else {
            transfer = unmeasured.transferSeconds
        }
        return transfer + (decodeSeconds ?? unmeasured.decodeSeconds)
    }
}
