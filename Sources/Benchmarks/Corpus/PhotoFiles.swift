import Dispatch
import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// Writes sets of large synthetic photos for the UI workloads: a few distinct contents encoded
/// in parallel, the other files hard links to them (each its own image to the store), so
/// building a set of hundreds stays fast.
enum PhotoFiles {
    /// The file format the photos are written in.
    enum Format {
        /// PNG by ``PNGEncoder``: what apps ship icons and UI art as.
        case png
        /// Baseline JPEG by ``JPEGEncoder`` at quality 85, 4:2:0: what photos are.
        case jpeg

        var fileExtension: String {
            switch self {
            case .png: "png"
            case .jpeg: "jpg"
            }
        }

        func encode(_ bitmap: Bitmap) -> Data {
            switch self {
            case .png: PNGEncoder.encode(bitmap)
            case .jpeg: JPEGEncoder.encode(bitmap)
            }
        }
    }

    /// The name of photo `index` in `folder`, numbered with three digits at least:
    /// `gallery/photo-007`.
    static func name(in folder: String, _ index: Int) -> String {
        let digits = String(index)
        return "\(folder)/photo-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// Writes `count` photos of `size` under `root`, named `name(index)` plus the format's
    /// extension.
    ///
    /// - Parameters:
    ///   - distinct: How many different contents; file `index` has the content of
    ///     `index % distinct`.
    ///   - seed: Where the contents' seeds start.
    /// - Throws: ``JPEGEncoderSelfCheck/Failure`` if JPEG is asked for and the encoder fails its
    ///   self-check; a file-system error if a photo cannot be written.
    static func write(
        count: Int, distinct: Int, size: BenchmarkProfile.PixelSize, seed: UInt64, format: Format, under root: URL,
        name: (Int) -> String
    ) throws {
        if format == .jpeg { try JPEGEncoderSelfCheck.verify() }
        let distinct = max(1, min(distinct, count))
        let urls = (0..<count).map { root.appendingPathComponent("\(name($0)).\(format.fileExtension)") }
        let written = Written()
        DispatchQueue.concurrentPerform(iterations: distinct) { index in
            let bitmap = SyntheticImages.photo(width: size.width, height: size.height, seed: seed + UInt64(index))
            do {
                try FileManager.default.createDirectory(
                    at: urls[index].deletingLastPathComponent(), withIntermediateDirectories: true)
                try format.encode(bitmap).write(to: urls[index])
            } catch {
                written.record(error)
            }
        }
        if let error = written.firstError { throw error }
        for index in distinct..<count {
            try Corpus.link(urls[index % distinct], to: urls[index])
        }
    }

    /// The first error of the parallel writes.
    private final class Written: @unchecked Sendable {
        private let lock = NSLock()
        private var error: (any Error)?

        func record(_ newError: any Error) {
            lock.withLock { error = error ?? newError }
        }

        var firstError: (any Error)? { lock.withLock { error } }
    }
}
