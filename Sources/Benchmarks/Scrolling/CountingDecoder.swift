import Foundation
import WeakImageStore

/// A decoder that counts the decodes that finish and those running now, so a run can wait for
/// loads nobody waits for any more and count every decode, wasted ones included.
///
/// It forwards everything to the decoder it wraps, thumbnails and header reads included, so the
/// store sees that decoder's abilities unchanged.
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
    private let decoder: any ImageDecoding<Bitmap>

    /// Counts the decodes of `decoder`, by default the one `ImageStore<Bitmap>` uses by default
    /// (`BitmapDecoder`: PNG and JPEG).
    init(wrapping decoder: any ImageDecoding<Bitmap> = BitmapDecoder()) {
        self.decoder = decoder
    }

    func decode(_ data: Data, scale: Int) throws -> Bitmap {
        counts.start()
        defer { counts.finish() }
        return try decoder.decode(data, scale: scale)
    }

    func pixelSize(of data: Data) -> (width: Int, height: Int)? {
        decoder.pixelSize(of: data)
    }

    func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws -> Bitmap {
        counts.start()
        defer { counts.finish() }
        return try decoder.decode(data, scale: scale, maxPixelSize: maxPixelSize)
    }
}
