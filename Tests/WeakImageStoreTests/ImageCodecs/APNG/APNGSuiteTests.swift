import XCTest

@testable import ImageCodecs

/// Every file of the APNG suite against its apngdis reference (browsers' rules where they differ).
final class APNGSuiteTests: XCTestCase {
    func test_everySuiteFile_matchesItsReference() throws {
        try checkSuite(decoder: PNGDecoder())
    }

    func test_everySuiteFile_matchesItsReference_withEveryFrameStreamed() throws {
        var decoder = PNGDecoder()
        decoder.wholeInflationLimit = 0
        try checkSuite(decoder: decoder)
    }

    private func checkSuite(decoder: PNGDecoder) throws {
        // Given
        let entries = try APNGSuite.entries()
        XCTAssertGreaterThanOrEqual(entries.count, 50, "the whole suite is listed")
        var checked = 0
        for entry in entries {
            let data = try APNGSuite.data(entry.file)
            // When
            let cursor: AnimationFrameCursor?
            do {
                cursor = try decoder.frameCursor(for: data, options: DecodeOptions())
            } catch {
                // Then: an error file fails with its case, anything else is a failure
                XCTAssertEqual(entry.status, "error", "\(entry.file): \(error)")
                XCTAssertEqual(APNGSuite.caseName(error), entry.detail, entry.file)
                checked += 1
                continue
            }
            guard var cursor else {
                XCTFail("\(entry.file): not recognised as an APNG")
                continue
            }
            if entry.status == "error" {
                // Then: a defect in a frame's data surfaces when the frame is decoded
                XCTAssertThrowsError(try APNGSuite.frames(&cursor), entry.file) { error in
                    guard case .png(let png) = error as? BitmapDecoderError else { return XCTFail("\(error)") }
                    XCTAssertEqual(APNGSuite.caseName(png), entry.detail, entry.file)
                }
                checked += 1
                continue
            }
            XCTAssertEqual(cursor.info.width, entry.width, entry.file)
            XCTAssertEqual(cursor.info.height, entry.height, entry.file)
            XCTAssertEqual(cursor.info.loopCount, entry.loopCount, entry.file)
            XCTAssertEqual(cursor.info.frameCount, entry.frameCount, entry.file)
            let durations = cursor.info.frames.map { $0.duration * 1000 }
            XCTAssertEqual(durations.count, entry.durationsInMilliseconds.count, entry.file)
            for (actual, expected) in zip(durations, entry.durationsInMilliseconds) {
                XCTAssertEqual(actual, expected, accuracy: 0.001, entry.file)
            }
            let (frames, isDamaged) = try APNGSuite.frames(&cursor)
            XCTAssertEqual(isDamaged, entry.status == "damaged", entry.file)
            for (index, (frame, digest)) in zip(frames, entry.digests).enumerated() {
                XCTAssertEqual(frame.format, .rgba8)
                XCTAssertEqual(APNGSuite.digest(frame), digest, "\(entry.file) frame \(index)")
            }
            checked += 1
        }
        XCTAssertEqual(checked, entries.count)
    }

    func test_damagedSuiteFiles_throw_whenStrict() throws {
        // Given
        let damaged = try APNGSuite.entries().filter { $0.status == "damaged" }
        XCTAssertFalse(damaged.isEmpty)
        for entry in damaged {
            let data = try APNGSuite.data(entry.file)
            // When / Then
            XCTAssertThrowsError(
                try PNGDecoder().frameCursor(for: data, options: DecodeOptions(strictness: .strict)), entry.file
            ) { error in
                XCTAssertEqual(APNGSuite.caseName(error as! PNGError), entry.detail, entry.file)
            }
        }
    }
}
