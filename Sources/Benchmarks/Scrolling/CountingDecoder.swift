import Foundation
import WeakImageStore

/// A decoder that counts and times the decodes that finish, those the store stopped part-way
/// and those running now, so a run can wait for loads nobody waits for any more and count every
/// decode, wasted ones included.
///
/// A decode's time is its thread's CPU time: the work it did, not the time it waited for a
/// processor on a busy machine or stood paused while a view's decode went first.
///
/// It forwards everything to the decoder it wraps, thumbnails and header reads included, so the
/// store sees that decoder's abilities unchanged.
struct CountingDecoder: ImageDecoding {
    /// The counts, shared by every copy of the decoder.
    final class Counts: @unchecked Sendable {
        /// Files at least this large set the rate a stopped decode's work is measured at:
        /// smaller ones (icons) are dominated by fixed costs.
        static let rateFileBytes = 64 * 1024

        private let lock = NSLock()
        private var running = 0
        private var finished = 0
        /// Finished decodes of files of at least ``rateFileBytes``: their time and file bytes.
        private var largeNanoseconds: UInt64 = 0
        private var largeBytes = 0
        private var stopped = 0
        /// Per stopped decode: its CPU time and its file's bytes.
        private var stops: [(nanoseconds: UInt64, bytes: Int)] = []

        fileprivate func start() {
            lock.withLock { running += 1 }
        }

        fileprivate func end(after nanoseconds: UInt64, fileBytes: Int, stopped wasStopped: Bool) {
            lock.withLock {
                running -= 1
                if wasStopped {
                    stops.append((nanoseconds, fileBytes))
                } else {
                    finished += 1
                    if fileBytes >= Self.rateFileBytes {
                        largeNanoseconds += nanoseconds
                        largeBytes += fileBytes
                    }
                }
            }
        }

        /// Decodes in progress now.
        var runningDecodes: Int { lock.withLock { running } }
        /// Decodes that ran to the end, successfully or not.
        var finishedDecodes: Int { lock.withLock { finished } }
        /// Decodes the store stopped part-way because nobody waited for them any more.
        var stoppedDecodes: Int { lock.withLock { stops.count } }
        /// The work the stopped decodes did, in whole decodes: each one's CPU time over the CPU
        /// time a finished decode takes for a file of its size, at the average rate (nanoseconds per
        /// file byte) of the finished decodes of files of at least ``rateFileBytes``; each
        /// counted as a whole decode when no such decode finished.
        var stoppedDecodeEquivalent: Double {
            lock.withLock {
                guard largeBytes > 0, largeNanoseconds > 0 else { return Double(stops.count) }
                let nanosecondsPerByte = Double(largeNanoseconds) / Double(largeBytes)
                return stops.reduce(0) { total, stop in
                    total + min(1, Double(stop.nanoseconds) / (nanosecondsPerByte * Double(max(1, stop.bytes))))
                }
            }
        }
    }

    let counts = Counts()
    private let decoder: any ImageDecoding<Bitmap>

    /// Counts the decodes of `decoder`, by default the one `ImageStore<Bitmap>` uses by default
    /// (`BitmapDecoder`: PNG and JPEG).
    init(wrapping decoder: any ImageDecoding<Bitmap> = BitmapDecoder()) {
        self.decoder = decoder
    }

    func header(of data: Data) -> ImageHeader? {
        decoder.header(of: data)
    }

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<Bitmap> {
        counts.start()
        let start = CPUClock.thread()
        do {
            let result = try decoder.decode(data, options: options)
            counts.end(after: CPUClock.thread() - start, fileBytes: data.count, stopped: false)
            return result
        } catch {
            counts.end(after: CPUClock.thread() - start, fileBytes: data.count, stopped: Self.isStop(error))
            throw error
        }
    }

    /// Whether `error` is the store stopping the decode, not a failure.
    private static func isStop(_ error: any Error) -> Bool {
        switch error as? BitmapDecoderError {
        case .png(.cancelled), .jpeg(.cancelled), .webp(.cancelled): true
        default: false
        }
    }
}
