import Dispatch
import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// One row of the decode speed comparison: a set of PNG files decoded together per sample.
struct DecodeSpeedInput {
    /// What the files are, as the table shows it: "icons 16-180 px", "real photographs ≤ 1920 px".
    let label: String
    /// The PNG files; one sample decodes each of them once.
    let files: [Data]

    /// Every photograph of `photos` reduced to at most `maxPixelSize` on its longest side and
    /// written as RGB PNG by ``PNGEncoder`` (libpng's default filters and zlib settings): what a
    /// wallpaper or an exported photo is.
    static func realPhotographs(_ photos: RealPhotos, maxPixelSize: Int) -> DecodeSpeedInput {
        let reduced = photos.photos.map { $0.reduced(maxPixelSize: maxPixelSize).bitmap }
        return DecodeSpeedInput(
            label: "real photographs ≤ \(maxPixelSize) px (\(reduced.count))", files: encodedInParallel(reduced))
    }

    /// Two generated photo-like images of `size`: kept beside the real photographs because the
    /// figures of earlier rounds were taken on them, though they flatter our decoder.
    static func generatedPhotos(_ size: BenchmarkProfile.PixelSize) -> DecodeSpeedInput {
        let bitmaps = [11, 12].map { SyntheticImages.photo(width: size.width, height: size.height, seed: $0) }
        return DecodeSpeedInput(label: "generated photo-like \(size)", files: encodedInParallel(bitmaps))
    }

    /// Two generated flat-UI screens of `size`.
    static func flatUI(_ size: BenchmarkProfile.PixelSize) -> DecodeSpeedInput {
        let bitmaps = [11, 12].map { SyntheticImages.flatUI(width: size.width, height: size.height, seed: $0) }
        return DecodeSpeedInput(label: "flat UI \(size)", files: encodedInParallel(bitmaps))
    }

    /// The PNG files of `bitmaps`, in order; the encoder takes a second or two per large image,
    /// so they are written on every core.
    private static func encodedInParallel(_ bitmaps: [Bitmap]) -> [Data] {
        let files = LockedBox([Data?](repeating: nil, count: bitmaps.count))
        DispatchQueue.concurrentPerform(iterations: bitmaps.count) { index in
            let file = PNGEncoder.encode(bitmaps[index])
            files.withLock { $0[index] = file }
        }
        return files.withLock { $0.compactMap { $0 } }
    }
}
