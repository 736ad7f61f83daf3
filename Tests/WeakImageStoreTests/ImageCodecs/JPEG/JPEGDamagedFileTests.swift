import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Damaged copies of suite files (cut short, restart markers replaced, removed or swapped, scan
/// bytes flipped, invalid Huffman tables or short APPn/COM segments inserted, ending inside a
/// segment), each decoded in the default mode and compared with libjpeg-turbo 2.1.5's `djpeg -dct
/// int` output at full size and at 1/2, 1/4 and 1/8. A copy djpeg decodes without a warning must
/// decode in strict mode too.
///
/// The references are FNV-1a 64-bit hashes of djpeg's pixels as RGBA8 (gray `v` as `v, v, v,
/// 255`), made with `Scripts/jpeg-damaged-references.py`, so the suite needs no extra files.
/// They come from djpeg with `JSIMD_FORCENONE=1`, libjpeg-turbo's portable C code, which the
/// decoder follows. They equal the SIMD build's output for every case but those with huge
/// coefficients, where the SIMD inverse DCT's 16-bit arithmetic overflows and the C code's does
/// not: a flipped byte, and the copies whose DHT makes an AC symbol code 15-bit coefficients
/// (these check that the decoder's 32-bit column pass gives way to libjpeg's 64-bit arithmetic). Flipped bytes that give valid codes are not detectable damage:
/// djpeg does not warn, and the decoder decodes them in strict mode too, without a report.
final class JPEGDamagedFileTests: XCTestCase {
    func test_damagedCopies_decodeToDjpegPixels_atEveryScale() throws {
        for damaged in Self.cases {
            damaged.assertDecodesLikeDjpeg(try damaged.input.apply(), reportsDamage: damaged.warned)
        }
    }

    func test_damagedCopies_djpegWarnsAbout_throwInStrictMode() throws {
        for damaged in Self.cases where damaged.warned {
            // Given
            let data = try damaged.input.apply()
            // When
            let error = JPEGTestFiles.decodingError(data, strict: true)
            // Then
            XCTAssertNotNil(error, "\(damaged.input) decoded in strict mode")
        }
    }

    func test_damagedCopies_djpegDoesNotWarnAbout_decodeInStrictMode() throws {
        for damaged in Self.cases where !damaged.warned {
            // Given
            let data = try damaged.input.apply()
            // When
            let error = JPEGTestFiles.decodingError(data, strict: true)
            // Then
            XCTAssertNil(error, "\(damaged.input) threw in strict mode")
        }
    }

    func test_quantizationTablesOfAnyNonzeroPrecision_areSixteenBit_asDjpegReadsThem() throws {
        // Given: every DQT entry of a suite photo rewritten as 16-bit values under precision
        // nibbles 1 (T.81's 16-bit) and 2, 7 and 15 (undefined; libjpeg reads any nonzero one as
        // 16-bit and decodes the copy without a warning, to the original's pixels)
        let name = "rose_q50.jpg"
        let original = [UInt8](try JPEGTestFiles.file(name))
        let reference = try JPEGTestFiles.reference(name)
        for precision: UInt8 in [1, 2, 7, 15] {
            let copy = Data(Self.rewritingQuantizationTables(of: original, precision: precision))
            // When
            let bitmap = try JPEGDecoder(strict: true).decode(copy, scale: 1)
            // Then
            XCTAssertEqual(bitmap.pixels, reference, "precision \(precision)")
        }
    }

    /// `jpeg` with each DQT segment's tables written out as 16-bit entries under `precision`.
    private static func rewritingQuantizationTables(of jpeg: [UInt8], precision: UInt8) -> [UInt8] {
        var output: [UInt8] = Array(jpeg[0..<2])
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            let body = Array(jpeg[(offset + 4)..<(offset + 2 + length)])
            guard jpeg[offset + 1] == 0xDB else {
                output += jpeg[offset..<(offset + 2 + length)]
                offset += 2 + length
                continue
            }
            var tables: [UInt8] = []
            var index = 0
            while index < body.count {
                let isEightBit = body[index] >> 4 == 0
                tables.append(precision << 4 | body[index] & 15)
                for entry in 0..<64 {
                    tables +=
                        isEightBit
                        ? [0, body[index + 1 + entry]] : [body[index + 1 + 2 * entry], body[index + 2 + 2 * entry]]
                }
                index += 1 + (isEightBit ? 64 : 128)
            }
            output += [0xFF, 0xDB, UInt8((tables.count + 2) >> 8), UInt8((tables.count + 2) & 0xFF)] + tables
            offset += 2 + length
        }
        return output + jpeg[offset...]
    }

    func test_damageDjpegCannotRecoverFrom_throwsInDefaultMode() throws {
        for damage in Self.fatal {
            // Given
            let data = try damage.apply()
            for denominator in [1, 8] {
                // When
                let error = JPEGTestFiles.decodingError(data, scaleDenominator: denominator, strict: false)
                // Then
                XCTAssertNotNil(error, "\(damage) at 1/\(denominator) decoded, djpeg fails")
            }
        }
    }

    func test_everyErrorSuiteFileButTheDamagedOnes_throwsInDefaultMode() throws {
        // Given
        let damaged = Set(try JPEGTestFiles.damaged().map(\.name))
        let entries = try JPEGTestFiles.manifest().filter { $0.status == "error" && !damaged.contains($0.name) }
        XCTAssertEqual(entries.count, 17)
        for entry in entries {
            for denominator in [1, 8] {
                // When
                let error = JPEGTestFiles.decodingError(
                    try JPEGTestFiles.file(entry.name), scaleDenominator: denominator, strict: false)
                // Then
                XCTAssertNotNil(error, "\(entry.name) at 1/\(denominator) decoded in the default mode")
            }
        }
    }

    func test_largeFrameItsDataCannotCover_isRefusedBeforeAllocating_inDefaultMode() throws {
        // Given: 60000 × 60000 (3.6 G pixels, under a raised pixel limit) in 689 bytes.
        let data = try JPEGTestFiles.file("err_huge_60000x60000.jpg")
        let decoder = JPEGDecoder(maximumPixelCount: 4_000_000_000, maximumDimension: 60_000)
        // When
        var thrown: JPEGError?
        do {
            _ = try decoder.decode(data, scale: 1)
        } catch {
            thrown = error
        }
        // Then
        guard case .insufficientData = thrown else {
            return XCTFail("expected insufficientData, got \(String(describing: thrown))")
        }
    }

    static let cases: [DamagedCase] = [
        // cut two bytes into the scan data; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_q50.jpg", at: 625), warned: true,
            [
                (227, 149, 0x6662_D9E4_DA38_A947), (114, 75, 0x5BB7_469C_09B3_F820), (57, 38, 0x9366_3735_9BED_BCB9),
                (29, 19, 0x5CD7_7A8B_2590_1688),
            ]),
        // rose_q50.jpg cut at 875 of 4377 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_q50.jpg", at: 875), warned: true,
            [
                (227, 149, 0x088E_486A_2E7B_EF79), (114, 75, 0xF9DF_F105_A7E4_D2C9), (57, 38, 0xF530_CC7A_1F01_079A),
                (29, 19, 0xEAB7_BA16_4D42_8A19),
            ]),
        // rose_q50.jpg cut at 2188 of 4377 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_q50.jpg", at: 2188), warned: true,
            [
                (227, 149, 0x7725_ABC7_4F03_8BB7), (114, 75, 0xFC48_80DA_E749_74B7), (57, 38, 0x0103_B4F4_3F0F_A790),
                (29, 19, 0x735D_D6B4_F0D1_6751),
            ]),
        // rose_q50.jpg cut at 3720 of 4377 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_q50.jpg", at: 3720), warned: true,
            [
                (227, 149, 0x3465_1D6E_CF49_A347), (114, 75, 0x3DCD_ACFD_F17C_28A5), (57, 38, 0x4A5B_07D6_579A_CEE5),
                (29, 19, 0x5F39_6A6F_8F59_097B),
            ]),
        // rose_gray.jpg cut at 866 of 4333 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_gray.jpg", at: 866), warned: true,
            [
                (227, 149, 0x607E_F268_F8C2_D3D1), (114, 75, 0x53B0_B5EF_18AE_BC0B), (57, 38, 0x4EE2_6918_0A86_EBF6),
                (29, 19, 0x8A48_0FAB_E7E9_8ABD),
            ]),
        // rose_gray.jpg cut at 2166 of 4333 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_gray.jpg", at: 2166), warned: true,
            [
                (227, 149, 0xCEB0_338D_2B92_DF61), (114, 75, 0xF0DC_880F_778F_734D), (57, 38, 0xF84C_516D_79D1_1513),
                (29, 19, 0x041F_D061_1B35_DECB),
            ]),
        // rose_gray.jpg cut at 3683 of 4333 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_gray.jpg", at: 3683), warned: true,
            [
                (227, 149, 0xC2BF_B723_04DA_2761), (114, 75, 0x6461_A8F9_B449_04FC), (57, 38, 0xE517_1B6C_12F4_C09A),
                (29, 19, 0xA73B_02B4_9981_251D),
            ]),
        // rose_422.jpg cut at 1775 of 8877 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_422.jpg", at: 1775), warned: true,
            [
                (227, 149, 0xEF15_9495_8279_F451), (114, 75, 0xC416_2E22_D309_EC7A), (57, 38, 0xC1ED_2974_8C3A_556D),
                (29, 19, 0xEB64_6007_B385_26B7),
            ]),
        // rose_422.jpg cut at 4438 of 8877 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_422.jpg", at: 4438), warned: true,
            [
                (227, 149, 0xC3F3_2BC2_B55D_3C56), (114, 75, 0x006A_994E_BFE1_89D6), (57, 38, 0x2AE6_685C_9E1F_D759),
                (29, 19, 0xB8BE_488E_DA8B_4DA4),
            ]),
        // rose_422.jpg cut at 7545 of 8877 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_422.jpg", at: 7545), warned: true,
            [
                (227, 149, 0x2FB3_33F6_983A_0543), (114, 75, 0xF86B_7353_9AA9_5505), (57, 38, 0xDA8F_9585_46D5_E757),
                (29, 19, 0x2F2A_7A78_175E_6649),
            ]),
        // photo640_q85.jpg cut at 11856 of 59283 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("photo640_q85.jpg", at: 11856), warned: true,
            [
                (640, 480, 0xB541_041E_4687_A669), (320, 240, 0x8541_A5F5_93FA_E4E8), (160, 120, 0x1F0C_39BF_B621_2516),
                (80, 60, 0xD79D_4C1D_6B62_CA5E),
            ]),
        // photo640_q85.jpg cut at 29641 of 59283 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("photo640_q85.jpg", at: 29641), warned: true,
            [
                (640, 480, 0xF9BE_5E58_4ED2_7ED3), (320, 240, 0xA1FA_278C_1753_5227), (160, 120, 0x59B0_DC3A_33E5_7A78),
                (80, 60, 0xED17_4D78_630F_8BA5),
            ]),
        // photo640_q85.jpg cut at 50390 of 59283 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("photo640_q85.jpg", at: 50390), warned: true,
            [
                (640, 480, 0x6CBD_0B32_9A09_1F1E), (320, 240, 0x5C5F_84BF_7E7F_CA12), (160, 120, 0x7138_440D_463E_3DC9),
                (80, 60, 0x2786_83D0_D66A_3C9E),
            ]),
        // rose_restart_7b.jpg cut at 1166 of 5830 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_restart_7b.jpg", at: 1166), warned: true,
            [
                (227, 149, 0x67DF_A1E4_3539_40A9), (114, 75, 0xA915_5217_A6C0_D681), (57, 38, 0x4549_BCA7_3261_81AB),
                (29, 19, 0x705E_D83C_CF49_5D0E),
            ]),
        // rose_restart_7b.jpg cut at 2915 of 5830 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_restart_7b.jpg", at: 2915), warned: true,
            [
                (227, 149, 0x2590_2BB2_FBB2_5B8E), (114, 75, 0xC175_8E22_5946_91F5), (57, 38, 0x344D_2BC5_6A1F_8F28),
                (29, 19, 0x9010_D599_ACDF_F264),
            ]),
        // rose_restart_7b.jpg cut at 4955 of 5830 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_restart_7b.jpg", at: 4955), warned: true,
            [
                (227, 149, 0xB368_A88E_8B77_3FAE), (114, 75, 0x4A44_4CCD_24F3_EA21), (57, 38, 0xCCAD_4A73_51AD_A3D2),
                (29, 19, 0xABAE_455F_11C7_05B9),
            ]),
        // rose_seq_noninterleaved.jpg cut at 2860 of 5721 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_seq_noninterleaved.jpg", at: 2860), warned: true,
            [
                (227, 149, 0x0635_5741_2807_0124), (114, 75, 0x6FE8_9579_9803_E4BA), (57, 38, 0xA624_748C_2751_A7E7),
                (29, 19, 0x84D2_B3BC_E13D_AAEC),
            ]),
        // rose_seq_noninterleaved.jpg cut at 5148 of 5721 bytes; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_seq_noninterleaved.jpg", at: 5148), warned: true,
            [
                (227, 149, 0x4287_F106_F817_3386), (114, 75, 0x833C_87E1_BB63_E0D8), (57, 38, 0xB150_C321_7235_8199),
                (29, 19, 0xA964_E394_99ED_1D0B),
            ]),
        // cut just before RST3; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_restart_1row.jpg", at: 2803), warned: true,
            [
                (227, 149, 0x27A3_734C_E5DD_A2B3), (114, 75, 0xB113_C4EF_0638_28EF), (57, 38, 0x7F9F_3774_88A4_3B11),
                (29, 19, 0x4A73_8A48_D3BB_BECC),
            ]),
        // cut just after RST3; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_restart_1row.jpg", at: 2805), warned: true,
            [
                (227, 149, 0x27A3_734C_E5DD_A2B3), (114, 75, 0xB113_C4EF_0638_28EF), (57, 38, 0x7F9F_3774_88A4_3B11),
                (29, 19, 0x4A73_8A48_D3BB_BECC),
            ]),
        // RST2 replaced by the next one; djpeg: Corrupt JPEG data: found marker 0xd3 instead of RST2
        DamagedCase(
            .replace("rose_restart_7b.jpg", at: 3579, with: 0xD3), warned: true,
            [
                (227, 149, 0x1E88_141E_0F57_DF3B), (114, 75, 0xFE7C_7386_F99D_C37D), (57, 38, 0x47B2_AF81_D80C_770C),
                (29, 19, 0xAE42_FB54_7F40_4E7E),
            ]),
        // RST2 replaced by the next but one one; djpeg: Corrupt JPEG data: found marker 0xd4 instead of RST2
        DamagedCase(
            .replace("rose_restart_7b.jpg", at: 3579, with: 0xD4), warned: true,
            [
                (227, 149, 0xE9FD_9946_EEAB_7C52), (114, 75, 0x0F74_3BE7_7825_7F6C), (57, 38, 0x9048_F50E_31C7_64DD),
                (29, 19, 0x91D4_26CC_D496_B70B),
            ]),
        // RST2 replaced by the three ahead one; djpeg: Corrupt JPEG data: found marker 0xd5 instead of RST2
        DamagedCase(
            .replace("rose_restart_7b.jpg", at: 3579, with: 0xD5), warned: true,
            [
                (227, 149, 0x3680_407A_D8EE_B3D7), (114, 75, 0xEFFA_26EB_5F7F_7542), (57, 38, 0xF35E_9831_84F9_3C6C),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // RST2 replaced by the previous one; djpeg: Corrupt JPEG data: found marker 0xd1 instead of RST2
        DamagedCase(
            .replace("rose_restart_7b.jpg", at: 3579, with: 0xD1), warned: true,
            [
                (227, 149, 0x9236_0408_E9E3_0724), (114, 75, 0xFC87_6FAA_EB4D_CFAA), (57, 38, 0xC043_0038_4CC0_2022),
                (29, 19, 0xE708_C21D_8A31_17F1),
            ]),
        // RST2 replaced by the previous but one one; djpeg: Corrupt JPEG data: found marker 0xd0 instead of RST2
        DamagedCase(
            .replace("rose_restart_7b.jpg", at: 3579, with: 0xD0), warned: true,
            [
                (227, 149, 0x9236_0408_E9E3_0724), (114, 75, 0xFC87_6FAA_EB4D_CFAA), (57, 38, 0xC043_0038_4CC0_2022),
                (29, 19, 0xE708_C21D_8A31_17F1),
            ]),
        // RST2 replaced by reserved marker 02; djpeg: Corrupt JPEG data: found marker 0x02 instead of RST2
        DamagedCase(
            .replace("rose_restart_7b.jpg", at: 3579, with: 0x02), warned: true,
            [
                (227, 149, 0x9236_0408_E9E3_0724), (114, 75, 0xFC87_6FAA_EB4D_CFAA), (57, 38, 0xC043_0038_4CC0_2022),
                (29, 19, 0xE708_C21D_8A31_17F1),
            ]),
        // RST2 missing; djpeg: Corrupt JPEG data: 269 extraneous bytes before marker 0xd3
        DamagedCase(
            .delete("rose_restart_7b.jpg", at: 3578, count: 2), warned: true,
            [
                (227, 149, 0x9236_0408_E9E3_0724), (114, 75, 0xFC87_6FAA_EB4D_CFAA), (57, 38, 0xC043_0038_4CC0_2022),
                (29, 19, 0xE708_C21D_8A31_17F1),
            ]),
        // RST2 and the next swapped; djpeg: Corrupt JPEG data: found marker 0xd3 instead of RST2
        DamagedCase(
            .swap("rose_restart_7b.jpg", 3579, 3850), warned: true,
            [
                (227, 149, 0x1E88_141E_0F57_DF3B), (114, 75, 0xFE7C_7386_F99D_C37D), (57, 38, 0x47B2_AF81_D80C_770C),
                (29, 19, 0xAE42_FB54_7F40_4E7E),
            ]),
        // RST4 replaced by the next one; djpeg: Corrupt JPEG data: found marker 0xd5 instead of RST4
        DamagedCase(
            .replace("rose_restart_1row.jpg", at: 3488, with: 0xD5), warned: true,
            [
                (227, 149, 0xD40D_D07B_B884_EA7B), (114, 75, 0x76A3_1E1A_B938_CAEC), (57, 38, 0xB619_5529_A75F_C4E7),
                (29, 19, 0x088F_50DC_F3B3_08A7),
            ]),
        // RST4 replaced by the next but one one; djpeg: Corrupt JPEG data: found marker 0xd6 instead of RST4
        DamagedCase(
            .replace("rose_restart_1row.jpg", at: 3488, with: 0xD6), warned: true,
            [
                (227, 149, 0x64D7_7E18_D339_6196), (114, 75, 0x80E7_F068_07FF_75C6), (57, 38, 0x6C77_6595_CF94_0827),
                (29, 19, 0x2790_8C66_82F7_5359),
            ]),
        // RST4 replaced by the three ahead one; djpeg: Corrupt JPEG data: found marker 0xd7 instead of RST4
        DamagedCase(
            .replace("rose_restart_1row.jpg", at: 3488, with: 0xD7), warned: true,
            [
                (227, 149, 0x3680_407A_D8EE_B3D7), (114, 75, 0xEFFA_26EB_5F7F_7542), (57, 38, 0xF35E_9831_84F9_3C6C),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // RST4 replaced by the previous one; djpeg: Corrupt JPEG data: found marker 0xd3 instead of RST4
        DamagedCase(
            .replace("rose_restart_1row.jpg", at: 3488, with: 0xD3), warned: true,
            [
                (227, 149, 0xB263_13E8_2929_0F95), (114, 75, 0x961A_F890_D53A_8E6D), (57, 38, 0x97CC_74D8_0142_ECF7),
                (29, 19, 0x0300_AC3C_69DE_9E8A),
            ]),
        // RST4 replaced by the previous but one one; djpeg: Corrupt JPEG data: found marker 0xd2 instead of RST4
        DamagedCase(
            .replace("rose_restart_1row.jpg", at: 3488, with: 0xD2), warned: true,
            [
                (227, 149, 0xB263_13E8_2929_0F95), (114, 75, 0x961A_F890_D53A_8E6D), (57, 38, 0x97CC_74D8_0142_ECF7),
                (29, 19, 0x0300_AC3C_69DE_9E8A),
            ]),
        // RST4 replaced by reserved marker 02; djpeg: Corrupt JPEG data: found marker 0x02 instead of RST4
        DamagedCase(
            .replace("rose_restart_1row.jpg", at: 3488, with: 0x02), warned: true,
            [
                (227, 149, 0xB263_13E8_2929_0F95), (114, 75, 0x961A_F890_D53A_8E6D), (57, 38, 0x97CC_74D8_0142_ECF7),
                (29, 19, 0x0300_AC3C_69DE_9E8A),
            ]),
        // RST4 missing; djpeg: Corrupt JPEG data: 575 extraneous bytes before marker 0xd5
        DamagedCase(
            .delete("rose_restart_1row.jpg", at: 3487, count: 2), warned: true,
            [
                (227, 149, 0xB263_13E8_2929_0F95), (114, 75, 0x961A_F890_D53A_8E6D), (57, 38, 0x97CC_74D8_0142_ECF7),
                (29, 19, 0x0300_AC3C_69DE_9E8A),
            ]),
        // RST4 and the next swapped; djpeg: Corrupt JPEG data: found marker 0xd5 instead of RST4
        DamagedCase(
            .swap("rose_restart_1row.jpg", 3488, 4065), warned: true,
            [
                (227, 149, 0xD40D_D07B_B884_EA7B), (114, 75, 0x76A3_1E1A_B938_CAEC), (57, 38, 0xB619_5529_A75F_C4E7),
                (29, 19, 0x088F_50DC_F3B3_08A7),
            ]),
        // RST0 replaced by the next one; djpeg: Corrupt JPEG data: found marker 0xd1 instead of RST0
        DamagedCase(
            .replace("rose_prog_restart.jpg", at: 3768, with: 0xD1), warned: true,
            [
                (227, 149, 0x8E9F_8F04_3AA4_9C22), (114, 75, 0x0762_292F_4C52_F700), (57, 38, 0xB6C8_B7FF_E693_01B3),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // RST0 replaced by the next but one one; djpeg: Corrupt JPEG data: found marker 0xd2 instead of RST0
        DamagedCase(
            .replace("rose_prog_restart.jpg", at: 3768, with: 0xD2), warned: true,
            [
                (227, 149, 0xF924_F646_0919_B178), (114, 75, 0xA979_C601_767D_8835), (57, 38, 0xA20B_FC23_13F9_11A0),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // RST0 replaced by the three ahead one; djpeg: Corrupt JPEG data: found marker 0xd3 instead of RST0
        DamagedCase(
            .replace("rose_prog_restart.jpg", at: 3768, with: 0xD3), warned: true,
            [
                (227, 149, 0x3680_407A_D8EE_B3D7), (114, 75, 0xEFFA_26EB_5F7F_7542), (57, 38, 0xF35E_9831_84F9_3C6C),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // RST0 replaced by the previous one; djpeg: Corrupt JPEG data: found marker 0xd7 instead of RST0
        DamagedCase(
            .replace("rose_prog_restart.jpg", at: 3768, with: 0xD7), warned: true,
            [
                (227, 149, 0x89E2_A98E_FFB2_7D53), (114, 75, 0x6539_8C02_3095_8309), (57, 38, 0xA9CB_027B_4ACA_626C),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // RST0 replaced by the previous but one one; djpeg: Corrupt JPEG data: found marker 0xd6 instead of RST0
        DamagedCase(
            .replace("rose_prog_restart.jpg", at: 3768, with: 0xD6), warned: true,
            [
                (227, 149, 0x89E2_A98E_FFB2_7D53), (114, 75, 0x6539_8C02_3095_8309), (57, 38, 0xA9CB_027B_4ACA_626C),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // RST0 replaced by reserved marker 02; djpeg: Corrupt JPEG data: found marker 0x02 instead of RST0
        DamagedCase(
            .replace("rose_prog_restart.jpg", at: 3768, with: 0x02), warned: true,
            [
                (227, 149, 0x89E2_A98E_FFB2_7D53), (114, 75, 0x6539_8C02_3095_8309), (57, 38, 0xA9CB_027B_4ACA_626C),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // RST0 missing; djpeg: Corrupt JPEG data: found marker 0xd1 instead of RST0
        DamagedCase(
            .delete("rose_prog_restart.jpg", at: 3767, count: 2), warned: true,
            [
                (227, 149, 0x89E2_A98E_FFB2_7D53), (114, 75, 0x6539_8C02_3095_8309), (57, 38, 0xA9CB_027B_4ACA_626C),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // RST0 and the next swapped; djpeg: Corrupt JPEG data: found marker 0xd1 instead of RST0
        DamagedCase(
            .swap("rose_prog_restart.jpg", 3768, 3773), warned: true,
            [
                (227, 149, 0x8E9F_8F04_3AA4_9C22), (114, 75, 0x0762_292F_4C52_F700), (57, 38, 0xB6C8_B7FF_E693_01B3),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // byte 1739 of the scan data flipped; djpeg: no warning; SIMD djpeg differs, see the type comment
        DamagedCase(
            .replace("rose_q50.jpg", at: 1739, with: 0x43), warned: false,
            [
                (227, 149, 0x9A3F_3931_9800_B0FB), (114, 75, 0xCD05_9FD1_6822_35FF), (57, 38, 0x83A5_FC79_AC16_9683),
                (29, 19, 0xF3B5_4349_8602_D737),
            ]),
        // byte 2869 of the scan data flipped; djpeg: no warning
        DamagedCase(
            .replace("rose_q50.jpg", at: 2869, with: 0x97), warned: false,
            [
                (227, 149, 0x6745_D01F_3A88_FA6A), (114, 75, 0xBC05_2338_B624_2717), (57, 38, 0xD552_C3B8_F1DA_4707),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // byte 18211 of the scan data flipped; djpeg: no warning
        DamagedCase(
            .replace("photo640_q85.jpg", at: 18211, with: 0xC4), warned: false,
            [
                (640, 480, 0x780D_3EC9_3138_D6BA), (320, 240, 0x7734_64E9_2DC7_0211), (160, 120, 0x44F5_E44D_C59B_FD1D),
                (80, 60, 0xD714_58B2_E16A_E09C),
            ]),
        // byte 35813 of the scan data flipped; djpeg: no warning
        DamagedCase(
            .replace("photo640_q85.jpg", at: 35813, with: 0xBD), warned: false,
            [
                (640, 480, 0x83A7_8CEE_0B1C_02C6), (320, 240, 0xF1CA_7110_67B1_A595), (160, 120, 0x91A8_E7FE_C69B_1D23),
                (80, 60, 0xD714_58B2_E16A_E09C),
            ]),
        // byte 2179 of the scan data flipped; djpeg: no warning
        DamagedCase(
            .replace("rose_restart_7b.jpg", at: 2179, with: 0xD2), warned: false,
            [
                (227, 149, 0x59D2_804E_C800_A7C6), (114, 75, 0x5FD1_6E5A_FF64_3CAA), (57, 38, 0x803A_FC59_6055_C01B),
                (29, 19, 0x9C9D_F181_5E8F_CB2C),
            ]),
        // byte 3744 of the scan data flipped; djpeg: no warning
        DamagedCase(
            .replace("rose_restart_7b.jpg", at: 3744, with: 0x4C), warned: false,
            [
                (227, 149, 0xBB4F_7049_5FEB_6D4C), (114, 75, 0x2AF2_B1FE_9C7C_EEC9), (57, 38, 0x089A_F5A9_AB83_BC0B),
                (29, 19, 0x7DA3_6A89_1B2E_3638),
            ]),
        // byte 3518 of the scan data changed into an invalid code; djpeg: Corrupt JPEG data: bad Huffman code
        DamagedCase(
            .replace("rose_q50.jpg", at: 3518, with: 0x22), warned: true,
            [
                (227, 149, 0x250D_50EE_C632_11B6), (114, 75, 0xBECF_2A82_D533_83FB), (57, 38, 0x9408_6B0D_2FB3_B707),
                (29, 19, 0xF0A1_421A_F6AC_2C95),
            ]),
        // byte 17857 of the scan data changed into an invalid code; djpeg: Corrupt JPEG data: bad Huffman code
        DamagedCase(
            .replace("photo640_q85.jpg", at: 17857, with: 0x18), warned: true,
            [
                (640, 480, 0x1294_D33B_626D_0F2C), (320, 240, 0x3C14_68F8_926C_8238), (160, 120, 0x5F4F_7AD1_50DF_C8FF),
                (80, 60, 0x7B00_B5D9_C9B0_CD1D),
            ]),
        // byte 18295 of the scan data changed into an invalid code; djpeg: Corrupt JPEG data: bad Huffman code
        DamagedCase(
            .replace("photo640_q85.jpg", at: 18295, with: 0xBF), warned: true,
            [
                (640, 480, 0x3E2A_83E4_9B38_5071), (320, 240, 0x9ECA_F8DA_EEEC_1C98), (160, 120, 0x8F88_CCE2_11FC_6EDF),
                (80, 60, 0x45F2_CA3F_A980_75F4),
            ]),
        // byte 5315 of the scan data changed into an invalid code; djpeg: Corrupt JPEG data: bad Huffman code
        DamagedCase(
            .replace("rose_restart_7b.jpg", at: 5315, with: 0x1B), warned: true,
            [
                (227, 149, 0x046F_081B_C826_0E86), (114, 75, 0x05A1_A717_E8F2_9C24), (57, 38, 0x9DDD_6894_B8A4_0527),
                (29, 19, 0x9824_63DD_127F_5A20),
            ]),
        // byte 3614 of the scan data changed into an invalid code; djpeg: Corrupt JPEG data: bad Huffman code
        DamagedCase(
            .replace("rose_gray.jpg", at: 3614, with: 0x55), warned: true,
            [
                (227, 149, 0x5B0A_3688_3789_B3A4), (114, 75, 0x7BF0_97E0_7E16_1442), (57, 38, 0xE5C5_E5E6_0F51_EBC6),
                (29, 19, 0xE3A1_6AF9_8184_2AC0),
            ]),
        // byte 344 of the scan data changed into an invalid code; djpeg: Corrupt JPEG data: bad Huffman code
        DamagedCase(
            .replace("rose_prog_420.jpg", at: 344, with: 0x0C), warned: true,
            [
                (227, 149, 0x75CA_2F8A_2AFD_54CF), (114, 75, 0x5C6D_5735_1533_0F80), (57, 38, 0xA5E0_027A_D627_58F3),
                (29, 19, 0x5816_E020_D8CA_5ADE),
            ]),
        // byte 474 of the scan data changed into an invalid code; djpeg: Corrupt JPEG data: bad Huffman code
        DamagedCase(
            .replace("rose_prog_420.jpg", at: 474, with: 0xE7), warned: true,
            [
                (227, 149, 0x2E48_3C57_4692_A8F0), (114, 75, 0x6AAE_A9CE_6480_C4A9), (57, 38, 0x7202_576E_7890_2F1E),
                (29, 19, 0x9326_10B9_CEDE_4B9F),
            ]),
        // cut inside the last scan; djpeg: Premature end of JPEG file
        DamagedCase(
            .truncate("rose_prog_420.jpg", at: 4835), warned: true,
            [
                (227, 149, 0x18EF_E19A_3455_1B2E), (114, 75, 0x7C2C_453C_B870_9EFD), (57, 38, 0x6CFB_0579_E5E1_08CE),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // unused AC table 3 over-subscribed; djpeg: no warning
        DamagedCase(
            .insert(
                "rose_q50.jpg", at: 609,
                [
                    0xFF, 0xC4, 0x00, 0x16, 0x13, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03,
                ]), warned: false,
            [
                (227, 149, 0x195B_FE6A_509A_1836), (114, 75, 0x4B14_C428_51BE_32B0), (57, 38, 0xA896_3B08_1CF7_635F),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // unused DC table 3 over-subscribed; djpeg: no warning
        DamagedCase(
            .insert(
                "rose_q50.jpg", at: 609,
                [
                    0xFF, 0xC4, 0x00, 0x16, 0x03, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03,
                ]), warned: false,
            [
                (227, 149, 0x195B_FE6A_509A_1836), (114, 75, 0x4B14_C428_51BE_32B0), (57, 38, 0xA896_3B08_1CF7_635F),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // unused DC table 3 with symbol 0x20; djpeg: no warning
        DamagedCase(
            .insert(
                "rose_q50.jpg", at: 609,
                [
                    0xFF, 0xC4, 0x00, 0x14, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                    0x00, 0x00, 0x00, 0x00, 0x00, 0x20,
                ]), warned: false,
            [
                (227, 149, 0x195B_FE6A_509A_1836), (114, 75, 0x4B14_C428_51BE_32B0), (57, 38, 0xA896_3B08_1CF7_635F),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // a COM segment cut after the first scan; djpeg: Premature end of JPEG file
        DamagedCase(
            .endWith(
                "rose_seq_noninterleaved.jpg", at: 4406,
                [0xFF, 0xFE, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]), warned: true,
            [
                (227, 149, 0x0486_CC2D_9E5A_8CA5), (114, 75, 0xE4F6_7F57_36B7_BA62), (57, 38, 0x9462_A442_9D04_02BC),
                (29, 19, 0xADF2_DABD_ED2F_8EB7),
            ]),
        // a DQT segment cut after its table id; djpeg: Premature end of JPEG file
        DamagedCase(
            .endWith("rose_seq_noninterleaved.jpg", at: 4406, [0xFF, 0xDB, 0x00, 0x43, 0x00]), warned: true,
            [
                (227, 149, 0x0486_CC2D_9E5A_8CA5), (114, 75, 0xE4F6_7F57_36B7_BA62), (57, 38, 0x9462_A442_9D04_02BC),
                (29, 19, 0xADF2_DABD_ED2F_8EB7),
            ]),
        // a DHT segment cut in its symbols; djpeg: Premature end of JPEG file
        DamagedCase(
            .endWith(
                "rose_seq_noninterleaved.jpg", at: 4406,
                [
                    0xFF, 0xC4, 0x00, 0x1F, 0x00, 0x00, 0x01, 0x05, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00,
                    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02,
                ]), warned: true,
            [
                (227, 149, 0x0486_CC2D_9E5A_8CA5), (114, 75, 0xE4F6_7F57_36B7_BA62), (57, 38, 0x9462_A442_9D04_02BC),
                (29, 19, 0xADF2_DABD_ED2F_8EB7),
            ]),
        // a DRI segment cut after its length; djpeg: Premature end of JPEG file
        DamagedCase(
            .endWith("rose_seq_noninterleaved.jpg", at: 4406, [0xFF, 0xDD, 0x00, 0x04]), warned: true,
            [
                (227, 149, 0x0486_CC2D_9E5A_8CA5), (114, 75, 0xE4F6_7F57_36B7_BA62), (57, 38, 0x9462_A442_9D04_02BC),
                (29, 19, 0xADF2_DABD_ED2F_8EB7),
            ]),
        // an SOS segment for component 2 cut after Ss: Se and Ah/Al read FF D9, the data FF D9; djpeg: Premature end of JPEG file
        DamagedCase(
            .endWith("rose_seq_noninterleaved.jpg", at: 4406, [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x02, 0x11, 0x00]),
            warned: true,
            [
                (227, 149, 0x0486_CC2D_9E5A_8CA5), (114, 75, 0xE4F6_7F57_36B7_BA62), (57, 38, 0x9462_A442_9D04_02BC),
                (29, 19, 0xADF2_DABD_ED2F_8EB7),
            ]),
        // an SOS segment for component 2 cut before Ah/Al: it reads FF, the data D9 FF D9; djpeg: Premature end of JPEG file
        DamagedCase(
            .endWith("rose_seq_noninterleaved.jpg", at: 4406, [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x02, 0x11, 0x00, 0x3F]),
            warned: true,
            [
                (227, 149, 0x80E4_32CF_2A00_E20B), (114, 75, 0x6E48_BB19_9015_2C34), (57, 38, 0xE8D3_A5DE_06BE_2F42),
                (29, 19, 0x804D_E405_F3D9_91C9),
            ]),
        // an APP1 segment cut after the first scan; djpeg: Premature end of JPEG file
        DamagedCase(
            .endWith("rose_prog_420.jpg", at: 826, [0xFF, 0xE1, 0x00, 0x64, 0x45, 0x78, 0x69]), warned: true,
            [
                (227, 149, 0x4983_6E2E_01FA_F925), (114, 75, 0x769E_A31B_0EA0_F457), (57, 38, 0x84E7_9FE1_9A74_AE63),
                (29, 19, 0xF736_7C92_994B_FE69),
            ]),
        // a DHT segment cut in its symbols; djpeg: Premature end of JPEG file
        DamagedCase(
            .endWith(
                "rose_prog_420.jpg", at: 826,
                [
                    0xFF, 0xC4, 0x00, 0x1F, 0x00, 0x00, 0x01, 0x05, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00,
                    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02,
                ]), warned: true,
            [
                (227, 149, 0x4983_6E2E_01FA_F925), (114, 75, 0x769E_A31B_0EA0_F457), (57, 38, 0x84E7_9FE1_9A74_AE63),
                (29, 19, 0xF736_7C92_994B_FE69),
            ]),
        // AC Huffman symbol at byte 236 changed into 0x0F (15-bit coefficients); djpeg: Corrupt JPEG data: bad Huffman code
        DamagedCase(
            .replace("rose_q50.jpg", at: 236, with: 0x0F), warned: true,
            [
                (227, 149, 0x2201_E5B7_42E3_BB5C), (114, 75, 0xDB18_4D95_A913_E3B9), (57, 38, 0xC4C5_3AC4_D735_7A46),
                (29, 19, 0x406E_DA8C_CE9D_EFF7),
            ]),
        // AC Huffman symbol at byte 452 changed into 0x0F (15-bit coefficients); djpeg: Corrupt JPEG data: premature end of data segment
        DamagedCase(
            .replace("rose_q50.jpg", at: 452, with: 0x0F), warned: true,
            [
                (227, 149, 0x6ECE_70A4_F399_51C8), (114, 75, 0x00FF_4DC3_0834_4480), (57, 38, 0xBF0D_ECA7_EB52_5A82),
                (29, 19, 0xA50B_DE52_5E1E_E06F),
            ]),
        // AC Huffman symbol at byte 158 changed into 0x0F (15-bit coefficients); djpeg: Corrupt JPEG data: premature end of data segment
        DamagedCase(
            .replace("rose_gray.jpg", at: 158, with: 0x0F), warned: true,
            [
                (227, 149, 0x86E9_0154_38E4_92B0), (114, 75, 0x8EF6_E385_2BAB_FD76), (57, 38, 0x4412_FE28_519B_C8A7),
                (29, 19, 0x5A3F_E720_852D_20CD),
            ]),
        // JFIF hidden, Adobe transform 0 after the first scan: YCbCr from the component ids; djpeg: no warning
        DamagedCase(
            .splice(
                "rose_prog_420.jpg",
                [
                    (6, 1, [0x58]),
                    (
                        826, 0,
                        [
                            0xFF, 0xEE, 0x00, 0x0E, 0x41, 0x64, 0x6F, 0x62, 0x65, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00,
                            0x00,
                        ]
                    ),
                ]), warned: false,
            [
                (227, 149, 0x3680_407A_D8EE_B3D7), (114, 75, 0xEFFA_26EB_5F7F_7542), (57, 38, 0xF35E_9831_84F9_3C6C),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // JFIF hidden, Adobe transform 0 after the first scan: YCbCr from the component ids; djpeg: no warning
        DamagedCase(
            .splice(
                "rose_seq_noninterleaved.jpg",
                [
                    (6, 1, [0x58]),
                    (
                        4406, 0,
                        [
                            0xFF, 0xEE, 0x00, 0x0E, 0x41, 0x64, 0x6F, 0x62, 0x65, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00,
                            0x00,
                        ]
                    ),
                ]), warned: false,
            [
                (227, 149, 0x3680_407A_D8EE_B3D7), (114, 75, 0xEFFA_26EB_5F7F_7542), (57, 38, 0xF35E_9831_84F9_3C6C),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // a COM segment of length 0 before the scan; djpeg: no warning
        DamagedCase(
            .insert("rose_q50.jpg", at: 609, [0xFF, 0xFE, 0x00, 0x00]), warned: false,
            [
                (227, 149, 0x195B_FE6A_509A_1836), (114, 75, 0x4B14_C428_51BE_32B0), (57, 38, 0xA896_3B08_1CF7_635F),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // an APP0 segment of length 1 before the scan; djpeg: no warning
        DamagedCase(
            .insert("rose_q50.jpg", at: 609, [0xFF, 0xE0, 0x00, 0x01]), warned: false,
            [
                (227, 149, 0x195B_FE6A_509A_1836), (114, 75, 0x4B14_C428_51BE_32B0), (57, 38, 0xA896_3B08_1CF7_635F),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // APP14 and APP1 segments of lengths 0 and 1; djpeg: no warning
        DamagedCase(
            .insert("rose_q50.jpg", at: 609, [0xFF, 0xEE, 0x00, 0x00, 0xFF, 0xE1, 0x00, 0x01]), warned: false,
            [
                (227, 149, 0x195B_FE6A_509A_1836), (114, 75, 0x4B14_C428_51BE_32B0), (57, 38, 0xA896_3B08_1CF7_635F),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // a valid DAC segment before the scan; djpeg: no warning
        DamagedCase(
            .insert("rose_q50.jpg", at: 609, [0xFF, 0xCC, 0x00, 0x06, 0x00, 0x10, 0x10, 0x05]), warned: false,
            [
                (227, 149, 0x195B_FE6A_509A_1836), (114, 75, 0x4B14_C428_51BE_32B0), (57, 38, 0xA896_3B08_1CF7_635F),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // bytes 811..<814 replaced by FF FF 00; djpeg: Corrupt JPEG data: bad Huffman code
        DamagedCase(
            .splice("rose_q50.jpg", [(811, 3, [0xFF, 0xFF, 0x00])]), warned: true,
            [
                (227, 149, 0x2B20_8738_1A20_9730), (114, 75, 0xEE71_DFC1_ABB0_1BC8), (57, 38, 0x57DD_3221_777E_241C),
                (29, 19, 0xE4C8_BC1A_914C_D4B6),
            ]),
        // bytes 2177..<2180 replaced by FF FF 00; djpeg: Corrupt JPEG data: premature end of data segment
        DamagedCase(
            .splice("rose_gray.jpg", [(2177, 3, [0xFF, 0xFF, 0x00])]), warned: true,
            [
                (227, 149, 0x6518_D367_BA49_3E7C), (114, 75, 0x1770_59C2_5D72_B5F9), (57, 38, 0xC3E8_F29F_2031_69AD),
                (29, 19, 0xC9D6_F720_1B09_5091),
            ]),
        // bytes 834..<837 replaced by FF FF 00; djpeg: no warning
        DamagedCase(
            .splice("rose_q50.jpg", [(834, 3, [0xFF, 0xFF, 0x00])]), warned: false,
            [
                (227, 149, 0x6D75_A9BC_E5FD_3EE9), (114, 75, 0x5ECB_3A94_2593_6BB6), (57, 38, 0x2BB8_6F03_A6A8_AE5D),
                (29, 19, 0x7530_D0DE_1501_4F00),
            ]),
        // a stray byte before SOF; djpeg: Corrupt JPEG data: 1 extraneous bytes before marker 0xc0
        DamagedCase(
            .insert("rose_q50.jpg", at: 158, [0x41]), warned: true,
            [
                (227, 149, 0x195B_FE6A_509A_1836), (114, 75, 0x4B14_C428_51BE_32B0), (57, 38, 0xA896_3B08_1CF7_635F),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // three stray bytes before SOS; djpeg: Corrupt JPEG data: 3 extraneous bytes before marker 0xda
        DamagedCase(
            .insert("rose_q50.jpg", at: 609, [0x00, 0x01, 0x02]), warned: true,
            [
                (227, 149, 0x195B_FE6A_509A_1836), (114, 75, 0x4B14_C428_51BE_32B0), (57, 38, 0xA896_3B08_1CF7_635F),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // a stuffed FF 00 before SOS; djpeg: Corrupt JPEG data: 2 extraneous bytes before marker 0xda
        DamagedCase(
            .insert("rose_q50.jpg", at: 609, [0xFF, 0x00]), warned: true,
            [
                (227, 149, 0x195B_FE6A_509A_1836), (114, 75, 0x4B14_C428_51BE_32B0), (57, 38, 0xA896_3B08_1CF7_635F),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // 16 bytes after the scan data; djpeg: Corrupt JPEG data: 15 extraneous bytes before marker 0xd9
        DamagedCase(
            .insert(
                "rose_q50.jpg", at: 4375,
                [0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F]),
            warned: true,
            [
                (227, 149, 0x195B_FE6A_509A_1836), (114, 75, 0x4B14_C428_51BE_32B0), (57, 38, 0xA896_3B08_1CF7_635F),
                (29, 19, 0x539C_E785_085B_FE8A),
            ]),
        // 16 bytes after the first scan; djpeg: Corrupt JPEG data: 10 extraneous bytes before marker 0xc4
        DamagedCase(
            .insert(
                "rose_prog_420.jpg", at: 826,
                [0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F]),
            warned: true,
            [
                (227, 149, 0x3680_407A_D8EE_B3D7), (114, 75, 0xEFFA_26EB_5F7F_7542), (57, 38, 0xF35E_9831_84F9_3C6C),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // the DC scan names AC table slot 7 for Y; djpeg: no warning
        DamagedCase(
            .replace("rose_prog_420.jpg", at: 239, with: 0x07), warned: false,
            [
                (227, 149, 0x3680_407A_D8EE_B3D7), (114, 75, 0xEFFA_26EB_5F7F_7542), (57, 38, 0xF35E_9831_84F9_3C6C),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // Cr names quantization table slot 7; the file ends after the first scan; djpeg: Premature end of JPEG file
        DamagedCase(
            .splice("rose_seq_noninterleaved.jpg", [(176, 1, [0x07]), (4406, 1315, [])]), warned: true,
            [
                (227, 149, 0x0486_CC2D_9E5A_8CA5), (114, 75, 0xE4F6_7F57_36B7_BA62), (57, 38, 0x9462_A442_9D04_02BC),
                (29, 19, 0xADF2_DABD_ED2F_8EB7),
            ]),
        // both DC scans removed (at 1/8 every scan is skipped); djpeg: Inconsistent progression sequence for component 0 coefficient 0
        DamagedCase(
            .splice("rose_prog_gray.jpg", [(131, 390, []), (2520, 80, [])]), warned: true,
            [
                (227, 149, 0x286B_9974_3CDC_3EF9), (114, 75, 0x74EA_70D1_7C23_F191), (57, 38, 0xB36C_6C32_4E5A_C83A),
                (29, 19, 0xFC08_6558_1E4C_DCE8),
            ]),
    ]

    static let fatal: [JPEGDamage] = [
        // RST2 replaced by DHT; djpeg exits 1: Corrupt JPEG data: found marker 0xc4 instead of RST2 | Bogus Huffman table definition
        .replace("rose_restart_7b.jpg", at: 3579, with: 0xC4),
        // RST4 replaced by DHT; djpeg exits 1: Corrupt JPEG data: found marker 0xc4 instead of RST4 | Bogus Huffman table definition
        .replace("rose_restart_1row.jpg", at: 3488, with: 0xC4),
        // RST0 replaced by DHT; djpeg exits 1: Corrupt JPEG data: found marker 0xc4 instead of RST0 | Bogus Huffman table definition
        .replace("rose_prog_restart.jpg", at: 3768, with: 0xC4),
        // AC table 0, used by every scan, over-subscribed; djpeg exits 1: Bogus Huffman table definition
        .insert(
            "rose_q50.jpg", at: 609,
            [
                0xFF, 0xC4, 0x00, 0x16, 0x10, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03,
            ]),
        // a DHT segment cut after its length; djpeg exits 1: Premature end of JPEG file | Bogus Huffman table definition
        .endWith("rose_seq_noninterleaved.jpg", at: 4406, [0xFF, 0xC4, 0x00, 0x1F]),
        // an SOS segment cut after its length; djpeg exits 1: Premature end of JPEG file | Bogus marker length
        .endWith("rose_seq_noninterleaved.jpg", at: 4406, [0xFF, 0xDA, 0x00, 0x08]),
        // a COM segment cut before the first scan; djpeg exits 1: Premature end of JPEG file | Invalid JPEG file structure: missing SOS marker
        .endWith(
            "rose_prog_420.jpg", at: 233,
            [0xFF, 0xFE, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
        // a DAC segment with table index 32; djpeg exits 1: Bogus DAC index 32
        .insert("rose_q50.jpg", at: 609, [0xFF, 0xCC, 0x00, 0x04, 0x20, 0x00]),
        // a DAC segment whose DC lower bound is above its upper one; djpeg exits 1: Bogus DAC value 0x1f
        .insert("rose_q50.jpg", at: 609, [0xFF, 0xCC, 0x00, 0x04, 0x00, 0x1F]),
        // a DAC segment of odd length; djpeg exits 1: Bogus marker length
        .insert("rose_q50.jpg", at: 609, [0xFF, 0xCC, 0x00, 0x05, 0x00, 0x10, 0x00]),
        // SOS lists Cb before Y; djpeg exits 1: Invalid component ID 1 in SOS
        .swap("rose_q50.jpg", 614, 616),
    ]
}
