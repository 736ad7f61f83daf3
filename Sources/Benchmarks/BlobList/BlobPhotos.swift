import Dispatch
import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// The blob list's photos: synthetic photos encoded in memory as JPEG (quality 85, 4:2:0, like the
/// other workloads' photos), for the table to store.
enum BlobPhotos {
    /// Encodes `count` distinct photos of `size` in parallel.
    ///
    /// - Throws: ``JPEGEncoderSelfCheck/Failure`` if the JPEG encoder fails its self-check.
    static func encode(count: Int, size: BenchmarkProfile.PixelSize, seed: UInt64) throws -> [Data] {
        try JPEGEncoderSelfCheck.verify()
        let encoded = Encoded(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let bitmap = SyntheticImages.photo(width: size.width, height: size.height, seed: seed + UInt64(index))
            encoded.store(JPEGEncoder.encode(bitmap), at: index)
        }
        return encoded.photos
    }

    /// The parallel encodes' results.
    private final class Encoded: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Data]

        init(count: Int) {
            slots = Array(repeating: Data(), count: count)
        }

        func store(_ photo: Data, at index: Int) {
            lock.withLock { slots[index] = photo }
        }

        var photos: [Data] { lock.withLock { slots } }
    }
}
