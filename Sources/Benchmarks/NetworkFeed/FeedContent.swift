import Dispatch
import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// The feed the server serves: per row an avatar (a PNG shared by the author's rows) and a photo
/// (a JPEG of its own URL, or a WebP for the WebP variant), encoded in memory.
struct FeedContent: Sendable {
    /// How the photos are encoded.
    enum PhotoFormat: Sendable {
        /// ``JPEGEncoder`` at quality 85, 4:2:0.
        case jpeg
        /// libwebp's lossy encoder at quality 80, through the benchmark's shim.
        case webp(LibwebpShim)

        var fileExtension: String {
            switch self {
            case .jpeg: "jpg"
            case .webp: "webp"
            }
        }

        func encode(_ bitmap: Bitmap) -> Data {
            switch self {
            case .jpeg: JPEGEncoder.encode(bitmap)
            case .webp(let libwebp):
                libwebp.encode(rgba: bitmap.pixels, width: bitmap.width, height: bitmap.height, quality: 80) ?? Data()
            }
        }
    }

    /// One row: where its two pictures are, as paths on the server.
    struct Row: Sendable {
        let avatarTarget: String
        let photoTarget: String
    }

    let rows: [Row]
    /// The body each target serves.
    let bodies: [String: Data]
    /// The largest photo's decoded bytes (RGBA).
    let largestPhotoBytes: Int
    /// The decoded bytes of a photo at ``NetworkFeedProfile/cellPixelSize``, at most.
    let largestDisplayPhotoBytes: Int

    /// Encodes the feed's pictures in parallel.
    ///
    /// - Throws: ``JPEGEncoderSelfCheck/Failure`` if the JPEG encoder fails its self-check.
    static func generate(_ profile: NetworkFeedProfile, seed: UInt64, photoFormat: PhotoFormat = .jpeg) throws
        -> FeedContent
    {
        try JPEGEncoderSelfCheck.verify()
        let sizes = (0..<profile.distinctPhotoCount).map { profile.photoSizes[$0 % profile.photoSizes.count] }
        let photos = encodeInParallel(count: sizes.count) { index in
            photoFormat.encode(
                SyntheticImages.photo(
                    width: sizes[index].width, height: sizes[index].height, seed: seed + UInt64(index)))
        }
        let avatars = encodeInParallel(count: profile.authorCount) { index in
            PNGEncoder.encode(
                SyntheticImages.avatar(size: profile.avatarSide, seed: seed + 0x1000 + UInt64(index)))
        }
        var random = SeededGenerator(seed: seed)
        var rows: [Row] = []
        var bodies: [String: Data] = [:]
        for author in 0..<profile.authorCount {
            bodies["/avatars/\(author).png"] = avatars[author]
        }
        for row in 0..<profile.rowCount {
            let author = random.int(in: 0...(profile.authorCount - 1))
            let photoTarget = "/photos/\(row).\(photoFormat.fileExtension)"
            bodies[photoTarget] = photos[row % photos.count]
            rows.append(Row(avatarTarget: "/avatars/\(author).png", photoTarget: photoTarget))
        }
        let largest = sizes.map { $0.width * $0.height }.max() ?? 0
        let largestDisplay =
            sizes.map { size in
                let scale = min(1, Double(profile.cellPixelSize) / Double(max(size.width, size.height)))
                return Int((Double(size.width) * scale).rounded(.up)) * Int((Double(size.height) * scale).rounded(.up))
            }.max() ?? 0
        return FeedContent(
            rows: rows, bodies: bodies, largestPhotoBytes: 4 * largest, largestDisplayPhotoBytes: 4 * largestDisplay)
    }

    /// Scripts every target on `server`, each with its latency from `network`: the same target is
    /// as slow in every run.
    func serve(on server: LoopbackHTTPServer, network: FeedNetwork) {
        for (index, target) in bodies.keys.sorted().enumerated() {
            guard let body = bodies[target] else { continue }
            let type = target.hasSuffix(".png") ? "image/png" : target.hasSuffix(".webp") ? "image/webp" : "image/jpeg"
            var response = HTTPScriptedResponse.ok(Array(body), contentType: type)
            // A CDN's answer for a picture that never changes at its URL: a day's freshness, a strong
            // validator, and ranges (a cut transfer can be resumed).
            response.headers.append(("Cache-Control", "public, max-age=86400"))
            response.entityTag = "\"feed-\(index)\""
            response.supportsRanges = true
            response.delayBeforeHeaders = network.latencySeconds(seed: 0xFEED_0000 + UInt64(index))
            server.respond(to: target, with: response)
        }
    }

    /// Distinct targets of the feed.
    var targetCount: Int { bodies.count }

    var photoBytes: [Int] { rows.compactMap { bodies[$0.photoTarget]?.count } }

    private static func encodeInParallel(count: Int, _ encode: @Sendable (Int) -> Data) -> [Data] {
        let slots = (0..<count).map { _ in LockedBox(Data()) }
        DispatchQueue.concurrentPerform(iterations: count) { index in
            slots[index].value = encode(index)
        }
        return slots.map(\.value)
    }
}
