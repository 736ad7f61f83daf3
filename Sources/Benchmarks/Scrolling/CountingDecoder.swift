import Foundation
import WeakImageStore

/// The library's PNG decoder, counting the decodes that finish and those running now, so a run
/// can wait for loads nobody waits for any more and count every decode, wasted ones included.
struct CountingDecoder: ImageDecoding {
    /// The counts, shared by every copy of the decoder.
    final class Counts: @unchecked Sendable {
        private let lock = NSLock()
        private var running = 0
        private var finished = 0

        fileprivate func start() {
            lock.withLock { running += 1 }
        }

        fileprivate func finish() {
            lock.withLock {
                running -= 1
                finished += 1
            }
        }

        /// Decodes in progress now.
        var runningDecodes: Int { lock.withLock { running } }
        /// Decodes that have returned, successfully or not.
        var finishedDecodes: Int { lock.withLock { finished } }
    }

    let counts = Counts()
    private let decoder = PNGDecoder()

    func decode(_ data: Data, scale: Int) throws -> Bitmap {
        counts.start()
        defer { counts.finish() }
        return try decoder.decode(data, scale: scale)
    }
}
