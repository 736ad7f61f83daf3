/// Exact accounting of the pixel memory held by live ``Bitmap`` instances in this process.
///
/// Every `Bitmap` adds its ``Bitmap/cost`` when created and subtracts it when freed, so the
/// figures are exact rather than sampled. The benchmark uses them to chart decoded bytes alive.
public struct BitmapMemory: Sendable, Equatable {
    /// The number of `Bitmap` instances alive.
    public var liveCount: Int
    /// The pixel bytes of all live instances.
    public var liveBytes: Int
    /// The highest ``liveBytes`` seen since the process started or ``resetPeak()`` was called.
    public var peakBytes: Int

    private static let counters = Lock(BitmapMemory(liveCount: 0, liveBytes: 0, peakBytes: 0))

    /// The current figures.
    public static var current: BitmapMemory { counters.withLock { $0 } }

    /// Starts a new peak measurement at the current ``liveBytes``.
    public static func resetPeak() {
        counters.withLock { $0.peakBytes = $0.liveBytes }
    }

    static func recordAllocation(bytes: Int) {
        counters.withLock { memory in
            memory.liveCount += 1
            memory.liveBytes += bytes
            memory.peakBytes = max(memory.peakBytes, memory.liveBytes)
        }
    }

    static func recordDeallocation(bytes: Int) {
        counters.withLock { memory in
            memory.liveCount -= 1
            memory.liveBytes -= bytes
        }
    }
}

extension Bitmap {
    /// The pixel memory held by all live bitmaps in this process.
    public static var memory: BitmapMemory { BitmapMemory.current }
}
