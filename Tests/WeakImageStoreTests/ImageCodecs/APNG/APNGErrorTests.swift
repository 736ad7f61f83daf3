import XCTest

@testable import ImageCodecs

/// Broken and hostile APNGs: each refused with one exact error, before anything large is
/// allocated.
final class APNGErrorTests: XCTestCase {
    /// The byte offsets of the chunks of `type`, in file order.
    private func offsets(of type: String, in data: Data) -> [Int] {
        let bytes = [UInt8](data)
        var offsets: [Int] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type { offsets.append(offset) }
            offset += 12 + length
        }
        return offsets
    }

    /// A PNG file of `chunks` (type and data), each with its CRC-32.
    private func file(_ chunks: [(String, [UInt8])]) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        for (type, body) in chunks {
            let checksummed = Array(type.utf8) + body
            data.append(contentsOf: bigEndian(UInt32(body.count)) + checksummed)
            data.append(contentsOf: bigEndian(checksummed.withUnsafeBytes { CRC32.checksum($0) }))
        }
        return data
    }

    private func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    private func header(width: UInt32, height: UInt32) -> (String, [UInt8]) {
        ("IHDR", bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0])
    }

    private func frameControl(_ sequence: UInt32, width: UInt32, height: UInt32) -> (String, [UInt8]) {
        (
            "fcTL",
            bigEndian(sequence) + bigEndian(width) + bigEndian(height) + bigEndian(0) + bigEndian(0) + [
                0, 1, 0, 10, 0, 0,
            ]
        )
    }

    private func error(_ file: String, decoder: PNGDecoder = PNGDecoder()) throws -> PNGError? {
        let data = try APNGSuite.data(file)
        do {
            _ = try decoder.frameCursor(for: data, options: DecodeOptions())
            return nil
        } catch {
            return error
        }
    }

    func test_sequenceErrors_nameTheChunk_theNumbers_andTheFrame() throws {
        // Given: fcTL and fdAT numbered 0, 1, 2… with one change each
        let cases: [(file: String, chunk: String, index: Int, found: UInt32, expected: UInt32, frame: Int)] = [
            ("sequence-swapped.png", "fcTL", 2, 4, 3, 2),
            ("sequence-gap.png", "fdAT", 1, 5, 4, 2),
            ("sequence-duplicate.png", "fdAT", 1, 3, 4, 2),
            ("sequence-not-zero.png", "fcTL", 0, 1, 0, 0),
        ]
        for item in cases {
            let offset = offsets(of: item.chunk, in: try APNGSuite.data(item.file))[item.index]
            // When / Then
            XCTAssertEqual(
                try error(item.file),
                .animationSequence(
                    chunk: item.chunk, offset: offset, found: item.found, expected: item.expected, frame: item.frame),
                item.file)
        }
        XCTAssertEqual(
            PNGError.animationSequence(chunk: "fdAT", offset: 99, found: 7, expected: 5, frame: 3).description,
            "fdAT sequence number 7 where 5 was expected, frame 3 (chunk at byte 99)")
    }

    func test_structuralErrors_areExact() throws {
        XCTAssertEqual(try error("missing-fdat.png"), .missingFrameData(frame: 1))
        XCTAssertEqual(
            try error("frame-outside-canvas.png"),
            .invalidFrameRegion(frame: 2, x: 8, y: 3, width: 6, height: 4, canvasWidth: 13, canvasHeight: 11))
        XCTAssertEqual(
            try error("fctl-zero-size.png"),
            .invalidFrameRegion(frame: 2, x: 2, y: 2, width: 0, height: 4, canvasWidth: 13, canvasHeight: 11))
        XCTAssertEqual(
            try error("first-frame-offset.png"),
            .invalidFrameRegion(frame: 0, x: 1, y: 0, width: 12, height: 11, canvasWidth: 13, canvasHeight: 11))
        XCTAssertEqual(try error("dispose-op-3.png"), .invalidFrameOperation(frame: 2, disposeOp: 3, blendOp: 0))
        let moved = offsets(of: "fdAT", in: try APNGSuite.data("fdat-before-idat.png"))[0]
        XCTAssertEqual(try error("fdat-before-idat.png"), .misplacedAnimationChunk(chunk: "fdAT", offset: moved))
        XCTAssertEqual(try error("frames-declared-0.png"), .invalidFrameCount(declared: 0))
        // A bad fdAT CRC-32 is found while the frame's data is inflated, as IDAT's in a still.
        var cursor = try XCTUnwrap(
            PNGDecoder().frameCursor(for: APNGSuite.data("fdat-bad-crc.png"), options: DecodeOptions()))
        XCTAssertFalse(try cursor.nextFrame().isDamaged)
        XCTAssertThrowsError(try cursor.nextFrame()) {
            guard case .png(.checksumMismatch(chunk: "fdAT", _, _)) = $0 as? BitmapDecoderError else {
                return XCTFail("a bad fdAT CRC-32 is an error: \($0)")
            }
        }
    }

    func test_frameCountMismatch_playsTheFramesFound_whenLenient() throws {
        for (file, declared, found) in [("frames-declared-more.png", 6, 4), ("frames-declared-fewer.png", 3, 4)] {
            // Given
            let data = try APNGSuite.data(file)
            // When
            var cursor = try XCTUnwrap(PNGDecoder().frameCursor(for: data, options: DecodeOptions()))
            // Then: the frames found, at most the declared ones; the last reported damaged
            XCTAssertEqual(cursor.info.frameCount, min(declared, found), file)
            var damage: [Bool] = []
            while !cursor.isFinished { damage.append(try cursor.nextFrame().isDamaged) }
            XCTAssertEqual(damage, Array(repeating: false, count: min(declared, found) - 1) + [true], file)
            XCTAssertThrowsError(try PNGDecoder().frameCursor(for: data, options: DecodeOptions(strictness: .strict))) {
                XCTAssertEqual($0 as? PNGError, .frameCountMismatch(declared: declared, found: found), file)
            }
        }
    }

    func test_tenThousandFramesDeclared_areRefused_beforeAllocating() throws {
        // Given: an acTL declaring 10 000 frames over 4 real ones
        XCTAssertEqual(try error("frames-declared-10000.png"), .tooManyFrames(declared: 10_000, limit: 4096))
        // When: the limit allows them
        var decoder = PNGDecoder()
        decoder.maximumFrameCount = 10_000
        let cursor = try decoder.frameCursor(for: APNGSuite.data("frames-declared-10000.png"), options: DecodeOptions())
        // Then: it was the limit that refused them
        XCTAssertEqual(cursor?.info.frameCount, 4)
    }

    func test_hugeCanvas_isRefusedByThePixelLimits() throws {
        // Given: an APNG whose IHDR says 100 000 × 100 000
        let data = file([
            header(width: 100_000, height: 100_000), ("acTL", bigEndian(1) + bigEndian(0)),
            frameControl(0, width: 100_000, height: 100_000), ("IDAT", [0x78, 0x9C, 0x03, 0x00]), ("IEND", []),
        ])
        // When / Then
        XCTAssertThrowsError(try PNGDecoder().frameCursor(for: data, options: DecodeOptions())) {
            XCTAssertEqual(
                $0 as? PNGError, .imageTooLarge(width: 100_000, height: 100_000, limit: .dimension(32_768)))
        }
        var small = PNGDecoder()
        small.maximumDecodingBytes = 1_000
        XCTAssertThrowsError(try small.frameCursor(for: APNGSuite.data("rgba8.png"), options: DecodeOptions())) {
            guard case .decodeTooLarge(_, limit: 1_000) = $0 as? PNGError else { return XCTFail("\($0)") }
        }
    }

    func test_frameData_tooSmallForItsFrame_isNotInflated() throws {
        // Given: a 2048 × 2048 frame whose data is 8 bytes: deflate cannot expand that far
        let data = file([
            header(width: 2048, height: 2048), ("acTL", bigEndian(1) + bigEndian(0)),
            frameControl(0, width: 2048, height: 2048), ("IDAT", [0x78, 0x9C, 0, 0, 0, 0, 0, 0]), ("IEND", []),
        ])
        var cursor = try XCTUnwrap(PNGDecoder().frameCursor(for: data, options: DecodeOptions()))
        // When / Then
        XCTAssertThrowsError(try cursor.nextFrame()) {
            XCTAssertEqual(
                $0 as? BitmapDecoderError,
                .png(.frameData(frame: 0, .tooLittleData(expected: 2048 * (2048 * 4 + 1), actual: 0))))
        }
        XCTAssertEqual(cursor.nextFrameIndex, 0, "a failed frame leaves the cursor where it was")
    }

    func test_criticalChunksAfterTheImageData_failAsInAStillDecode() throws {
        // Given: an unknown critical chunk, a second IHDR, a second PLTE before IEND
        let palette = try APNGSuite.data("palette8.png")
        let plte = try XCTUnwrap(offsets(of: "PLTE", in: palette).first)
        let plteLength = palette[plte..<plte + 4].reduce(0) { $0 << 8 | Int($1) }
        let cases: [(base: String, chunk: Data, expected: PNGError)] = [
            ("rgba8.png", file([("ZZZZ", [1, 2])]).dropFirst(8), .unknownCriticalChunk("ZZZZ")),
            (
                "rgba8.png", file([header(width: 13, height: 11)]).dropFirst(8),
                .chunkOrder(chunk: "IHDR", after: "IHDR")
            ),
            ("palette8.png", palette[plte..<plte + 12 + plteLength], .chunkOrder(chunk: "PLTE", after: "PLTE")),
        ]
        for item in cases {
            var data = try APNGSuite.data(item.base)
            data.insert(contentsOf: item.chunk, at: data.count - 12)
            // When / Then: the animation fails as the still decode does
            XCTAssertThrowsError(try PNGDecoder().decode(data, scale: 1)) {
                XCTAssertEqual($0 as? PNGError, item.expected)
            }
            XCTAssertThrowsError(try PNGDecoder().frameCursor(for: data, options: DecodeOptions())) {
                XCTAssertEqual($0 as? PNGError, item.expected)
            }
        }
    }
}
