import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Progressive files whose first coefficients are not all final, which libjpeg-turbo 2.1.5
/// block-smooths by default (`jdcoefct.c decompress_smooth_data`), each decoded and compared with
/// `djpeg -dct int` at full size and at 1/2, 1/4 and 1/8: valid files that stop early (DC only,
/// AC sent with a point transform and never refined, one AC band, last scans missing) and
/// progressive files cut short.
///
/// The inputs are small cjpeg-made fixtures (`Fixtures/JPEGBlockSmoothing`: odd sizes, gray,
/// 4:2:0, 4:4:4, 4:4:0, a gray frame sampled 2×2, components one and two blocks wide) and edits of
/// suite files. The references are FNV-1a 64-bit hashes of djpeg's pixels as RGBA8, from djpeg's
/// portable C code (`JSIMD_FORCENONE=1`); `Scripts/jpeg-smoothing-references.py` makes the
/// fixtures and prints the case list below.
final class JPEGBlockSmoothingTests: XCTestCase {
    func test_incompleteProgressiveFiles_decodeToDjpegPixels_atEveryScale() throws {
        for smoothed in Self.cases {
            // The decoder reports a component never scanned, which djpeg shows gray silently.
            let neverScanned = smoothed.input.description == Self.componentNeverScanned.description
            smoothed.assertDecodesLikeDjpeg(try smoothed.input.data(), reportsDamage: smoothed.warned || neverScanned)
        }
    }

    func test_validIncompleteProgressiveFiles_decodeAlike_inStrictMode() throws {
        for smoothed in Self.cases where !smoothed.warned {
            // Given
            let data = try smoothed.input.data()
            for (index, denominator) in [1, 8].enumerated() {
                let label = "\(smoothed.input) at 1/\(denominator)"
                // When
                let bitmap: Bitmap
                do {
                    bitmap = try JPEGDecoder(strict: true).decodeScaled(data, scale: 1, scaleDenominator: denominator)
                        .bitmap
                } catch {
                    // A strict decoder wants a scan of every component.
                    let neverScanned = smoothed.input.description == Self.componentNeverScanned.description
                    XCTAssertTrue(neverScanned && error == .incompleteImage, "\(label): threw \(error)")
                    continue
                }
                // Then
                let expected = smoothed.references[index == 0 ? 0 : 3]
                XCTAssertEqual(fnv1a(bitmap.rgba8()), expected.hash, label)
            }
        }
    }

    func test_progressiveFilesCutShort_throwInStrictMode() throws {
        for smoothed in Self.cases where smoothed.warned {
            // Given
            let data = try smoothed.input.data()
            for denominator in [1, 8] {
                // When
                let error = JPEGTestFiles.decodingError(data, scaleDenominator: denominator, strict: true)
                // Then
                XCTAssertNotNil(error, "\(smoothed.input) at 1/\(denominator) decoded in strict mode")
            }
        }
    }

    /// The suite file whose first scan is the only one kept: the luma DC. Its chroma was never
    /// scanned, so libjpeg-turbo does not smooth (`smoothing_ok` wants every component's table).
    static let componentNeverScanned = SmoothingInput.endEarly("rose_prog_spectral.jpg", at: 694)

    static let cases: [SmoothedCase] = [
        // cjpeg -sample 2x2 -scans "0,1,2: 0-0, 0, 0;"
        SmoothedCase(
            .fixture("dc_only_420_27x21.jpg"), warned: false,
            [
                (27, 21, 0x8649_96EC_2E55_50F6), (14, 11, 0xF08B_ACED_C1AC_BEEF), (7, 6, 0x2BBD_FCB4_DB0D_E3D1),
                (4, 3, 0xD2AC_B0B0_4D64_3312),
            ]),
        // cjpeg -sample 2x2 -scans "0,1,2: 0-0, 0, 1; 0: 1-63, 0, 2; 1: 1-63, 0, 1; 2: 1-63, 0, 1;"
        SmoothedCase(
            .fixture("ac_never_refined_420_27x21.jpg"), warned: false,
            [
                (27, 21, 0x4EE3_5FD7_EC9E_D0D0), (14, 11, 0xDFD9_5551_A3F3_DB4F), (7, 6, 0x3796_90B1_95D5_4207),
                (4, 3, 0x24F4_84CC_BF68_02EC),
            ]),
        // cjpeg -sample 1x1 -scans "0,1,2: 0-0, 0, 0; 0: 1-2, 0, 1; 1: 1-2, 0, 1; 2: 1-2, 0, 1;"
        SmoothedCase(
            .fixture("first_band_444_21x13.jpg"), warned: false,
            [
                (21, 13, 0xDAD5_5A75_2BD6_0760), (11, 7, 0xE61F_CE1A_68EF_6EF8), (6, 4, 0x9A7B_B564_812E_57C5),
                (3, 2, 0xFD50_F03B_CD60_DC7B),
            ]),
        // cjpeg -grayscale -scans "0: 0-0, 0, 2; 0: 1-9, 0, 1;"
        SmoothedCase(
            .fixture("gray_two_blocks_wide_13x37.jpg"), warned: false,
            [
                (13, 37, 0x5D78_FBF1_DEFF_49C6), (7, 19, 0x27DC_8742_E91F_8750), (4, 10, 0x3955_1646_DECC_B506),
                (2, 5, 0x63AF_325E_1469_1371),
            ]),
        // cjpeg -grayscale -sample 2x2 -scans "0: 0-0, 0, 0;"
        SmoothedCase(
            .fixture("gray_sampled_2x2_30x45.jpg"), warned: false,
            [
                (30, 45, 0x5F0B_042A_AB03_DAEB), (15, 23, 0xBBFC_9CE0_C334_49B0), (8, 12, 0x6659_274D_FD54_4039),
                (4, 6, 0x45D8_9DFD_F2DD_C280),
            ]),
        // cjpeg -sample 2x2 -scans "0,1,2: 0-0, 0, 1; 0: 1-5, 0, 1;"
        SmoothedCase(
            .fixture("one_block_wide_420_6x50.jpg"), warned: false,
            [
                (6, 50, 0x425C_59DE_DA2B_872C), (3, 25, 0x37FE_961E_1F0A_C281), (2, 13, 0xF498_DD83_3412_6112),
                (1, 7, 0x5D27_DD0B_3806_E572),
            ]),
        // cjpeg -sample 1x2 -scans "0,1,2: 0-0, 0, 0;"
        SmoothedCase(
            .fixture("dc_only_440_40x45.jpg"), warned: false,
            [
                (40, 45, 0x9717_2007_9CB7_9AE7), (20, 23, 0xD19D_C25B_A92F_D57C), (10, 12, 0x7B27_C995_48B4_2AD1),
                (5, 6, 0x5E75_D481_AE8D_5FFF),
            ]),
        // rose_prog_420.jpg: its first 1 of 10 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_420.jpg", at: 871), warned: false,
            [
                (227, 149, 0x4983_6E2E_01FA_F925), (114, 75, 0x769E_A31B_0EA0_F457), (57, 38, 0x84E7_9FE1_9A74_AE63),
                (29, 19, 0xF736_7C92_994B_FE69),
            ]),
        // rose_prog_420.jpg: its first 2 of 10 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_420.jpg", at: 1617), warned: false,
            [
                (227, 149, 0xAC4D_B151_912A_2F37), (114, 75, 0xE09C_BB9E_5D3E_82C3), (57, 38, 0x4195_13AB_4958_8F12),
                (29, 19, 0x396A_B8CF_6E9A_FD97),
            ]),
        // rose_prog_420.jpg: its first 6 of 10 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_420.jpg", at: 3320), warned: false,
            [
                (227, 149, 0xE780_64C8_D3DA_9B9F), (114, 75, 0x314C_4990_A7E8_BA70), (57, 38, 0x4801_FECA_1410_0FA3),
                (29, 19, 0xFCAE_47BB_FD46_9E75),
            ]),
        // rose_prog_420.jpg: its first 9 of 10 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_420.jpg", at: 4025), warned: false,
            [
                (227, 149, 0xC2BB_AED5_7C2A_CE53), (114, 75, 0x4E7E_E9AB_3194_36B5), (57, 38, 0x2DC9_0CB1_0D90_20EC),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // rose_prog_gray.jpg: its first 1 of 6 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_gray.jpg", at: 566), warned: false,
            [
                (227, 149, 0x456F_80B9_3603_62FC), (114, 75, 0x4DBE_EA54_0A9B_7F20), (57, 38, 0xAE58_7206_D137_E38E),
                (29, 19, 0x50A9_AEB3_3891_A030),
            ]),
        // rose_prog_gray.jpg: its first 3 of 6 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_gray.jpg", at: 1611), warned: false,
            [
                (227, 149, 0x45F8_EA09_0C6D_187C), (114, 75, 0xD3E1_8154_8563_59C5), (57, 38, 0x8E4C_C656_8856_317F),
                (29, 19, 0x1644_90E6_9E3F_56E0),
            ]),
        // sat_prog_444.jpg: its first 1 of 10 scans, then EOI
        SmoothedCase(
            .endEarly("sat_prog_444.jpg", at: 1930), warned: false,
            [
                (257, 131, 0x1644_FA28_8CC4_169D), (129, 66, 0x6AE7_CC25_E895_66EA), (65, 33, 0xD994_DAD3_B74D_474E),
                (33, 17, 0xC9F6_FACF_9B4C_BE2E),
            ]),
        // sat_prog_444.jpg: its first 4 of 10 scans, then EOI
        SmoothedCase(
            .endEarly("sat_prog_444.jpg", at: 20638), warned: false,
            [
                (257, 131, 0x1D28_F208_51DE_485C), (129, 66, 0x4775_A950_FCF3_43A7), (65, 33, 0xD289_3E54_EC69_98A5),
                (33, 17, 0x0B45_A8C8_7660_75FA),
            ]),
        // sat_prog_422.jpg: its first 2 of 10 scans, then EOI
        SmoothedCase(
            .endEarly("sat_prog_422.jpg", at: 3173), warned: false,
            [
                (257, 131, 0x93BE_2093_CFE3_2F34), (129, 66, 0x3F4F_2B83_7B8E_3B45), (65, 33, 0x4CC0_A5BB_1033_599E),
                (33, 17, 0x817D_C418_663A_3AA1),
            ]),
        // sat_prog_422.jpg: its first 6 of 10 scans, then EOI
        SmoothedCase(
            .endEarly("sat_prog_422.jpg", at: 20057), warned: false,
            [
                (257, 131, 0xD0A1_9600_A359_BE00), (129, 66, 0x9CC8_84E8_7207_E907), (65, 33, 0x9273_8BC9_4DE9_3F12),
                (33, 17, 0x828E_1669_35CA_3DD9),
            ]),
        // rose_prog_sa_deep.jpg: its first 2 of 14 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_sa_deep.jpg", at: 1170), warned: false,
            [
                (227, 149, 0x9387_19DC_BAF3_9807), (114, 75, 0x5D01_76CB_65EE_44EF), (57, 38, 0xC119_4183_A2E0_13FE),
                (29, 19, 0xB63D_7AE4_388D_9B37),
            ]),
        // rose_prog_sa_deep.jpg: its first 5 of 14 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_sa_deep.jpg", at: 1506), warned: false,
            [
                (227, 149, 0x2238_4977_BA47_0136), (114, 75, 0xBB8F_1DCF_8161_5546), (57, 38, 0xCE9E_3A53_65AE_5FCD),
                (29, 19, 0x262D_0E33_A6E5_B5A2),
            ]),
        // rose_prog_sa_deep.jpg: its first 10 of 14 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_sa_deep.jpg", at: 3455), warned: false,
            [
                (227, 149, 0xE780_64C8_D3DA_9B9F), (114, 75, 0x314C_4990_A7E8_BA70), (57, 38, 0x4801_FECA_1410_0FA3),
                (29, 19, 0xFCAE_47BB_FD46_9E75),
            ]),
        // rose_prog_spectral.jpg: its first 1 of 9 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_spectral.jpg", at: 694), warned: false,
            [
                (227, 149, 0xF370_C0B0_7E2F_35AA), (114, 75, 0x4614_7CA7_F501_EABD), (57, 38, 0xE0BD_58A1_5C03_7A1D),
                (29, 19, 0xADF2_DABD_ED2F_8EB7),
            ]),
        // rose_prog_spectral.jpg: its first 4 of 9 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_spectral.jpg", at: 1756), warned: false,
            [
                (227, 149, 0x1499_1051_15BA_72A6), (114, 75, 0x4EB2_AD0C_0A7A_562B), (57, 38, 0x82BE_2C25_F822_F0A5),
                (29, 19, 0xCB2B_571D_A6B0_ED0B),
            ]),
        // rose_prog_spectral.jpg: its first 5 of 9 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_spectral.jpg", at: 3330), warned: false,
            [
                (227, 149, 0x472F_DC95_A815_04C7), (114, 75, 0xAB02_5A6B_5DFF_67AB), (57, 38, 0x8FBE_3481_26AE_CAF1),
                (29, 19, 0xCB2B_571D_A6B0_ED0B),
            ]),
        // rose_prog_testscan.jpg: its first 2 of 8 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_testscan.jpg", at: 3287), warned: false,
            [
                (227, 149, 0x472F_DC95_A815_04C7), (114, 75, 0xAB02_5A6B_5DFF_67AB), (57, 38, 0x8FBE_3481_26AE_CAF1),
                (29, 19, 0xCB2B_571D_A6B0_ED0B),
            ]),
        // rose_prog_restart.jpg: its first 2 of 10 scans, then EOI
        SmoothedCase(
            .endEarly("rose_prog_restart.jpg", at: 2235), warned: false,
            [
                (227, 149, 0xAC4D_B151_912A_2F37), (114, 75, 0xE09C_BB9E_5D3E_82C3), (57, 38, 0x4195_13AB_4958_8F12),
                (29, 19, 0x396A_B8CF_6E9A_FD97),
            ]),
        // cmyk_prog.jpg: its first 5 of 18 scans, then EOI
        SmoothedCase(
            .endEarly("cmyk_prog.jpg", at: 6775), warned: false,
            [
                (227, 149, 0xA850_8BEF_5908_249D), (114, 75, 0xC4D6_7120_ED17_45DF), (57, 38, 0x25BE_B718_A637_7F78),
                (29, 19, 0x7DB1_2706_F239_7E1B),
            ]),
        // photo640_prog.jpg: its first 2 of 10 scans, then EOI
        SmoothedCase(
            .endEarly("photo640_prog.jpg", at: 6543), warned: false,
            [
                (640, 480, 0xFE35_90A5_9DCD_CB62), (320, 240, 0xEBEB_2F5A_1F48_1F23), (160, 120, 0xEC5B_26F0_5A96_5EE8),
                (80, 60, 0xD9B9_6DF3_2FFE_378B),
            ]),
        // rose_prog_420.jpg cut at 1693 of 5645 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("rose_prog_420.jpg", at: 1693), warned: true,
            [
                (227, 149, 0xAE47_1BED_7831_E322), (114, 75, 0x5CC0_A3B1_1673_9835), (57, 38, 0x8C2A_5155_C53D_72EE),
                (29, 19, 0xC210_C3A8_6CDF_E3DF),
            ]),
        // rose_prog_420.jpg cut at 2822 of 5645 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("rose_prog_420.jpg", at: 2822), warned: true,
            [
                (227, 149, 0x8772_EB4B_2410_2898), (114, 75, 0x6567_A58C_CCC2_9D03), (57, 38, 0x1897_ED05_99F4_B823),
                (29, 19, 0xA5AA_97FF_11C1_96E1),
            ]),
        // rose_prog_420.jpg cut at 3951 of 5645 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("rose_prog_420.jpg", at: 3951), warned: true,
            [
                (227, 149, 0x1161_A4C4_BE9C_B6AF), (114, 75, 0x7162_727C_8AD8_07A3), (57, 38, 0x4114_F402_C548_A7E2),
                (29, 19, 0x9A3C_986A_2920_679D),
            ]),
        // rose_prog_420.jpg cut at 5080 of 5645 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("rose_prog_420.jpg", at: 5080), warned: true,
            [
                (227, 149, 0x1D6B_76FA_5CBD_5AE3), (114, 75, 0x7BF9_80C6_B6A7_25A3), (57, 38, 0x6FC8_5990_0B8E_A758),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // rose_prog_gray.jpg cut at 2130 of 4261 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("rose_prog_gray.jpg", at: 2130), warned: true,
            [
                (227, 149, 0xC9A1_BE31_BF51_597B), (114, 75, 0x6A39_2A49_3EF6_FF5B), (57, 38, 0x98FC_FCF6_00B4_A719),
                (29, 19, 0x1644_90E6_9E3F_56E0),
            ]),
        // sat_prog_444.jpg cut at 12347 of 41159 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("sat_prog_444.jpg", at: 12347), warned: true,
            [
                (257, 131, 0x49FE_FA85_6222_E768), (129, 66, 0x5510_0C50_2394_F4ED), (65, 33, 0x7EEE_88D5_296E_C858),
                (33, 17, 0x6249_DF86_B63E_F6A4),
            ]),
        // sat_prog_444.jpg cut at 28811 of 41159 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("sat_prog_444.jpg", at: 28811), warned: true,
            [
                (257, 131, 0xEFD5_D680_E31E_A40F), (129, 66, 0x8E5B_D2C9_F4B1_9F7C), (65, 33, 0x7E67_0F3B_186F_E766),
                (33, 17, 0xF21B_34A0_8F74_3DDE),
            ]),
        // sat_prog_422.jpg cut at 14264 of 28528 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("sat_prog_422.jpg", at: 14264), warned: true,
            [
                (257, 131, 0x3FFB_CC83_B6BE_615C), (129, 66, 0x2A2A_F6FF_91CB_5A12), (65, 33, 0x9DF3_0278_A152_9BE3),
                (33, 17, 0xFDF6_821B_208F_2E48),
            ]),
        // photo640_prog.jpg cut at 16077 of 53590 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("photo640_prog.jpg", at: 16077), warned: true,
            [
                (640, 480, 0x3E87_448D_A0AA_3309), (320, 240, 0x00F3_FA96_2B8E_874A), (160, 120, 0xE79F_D594_F64B_EA5D),
                (80, 60, 0xE509_699B_92C2_E7DF),
            ]),
        // photo640_prog.jpg cut at 26795 of 53590 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("photo640_prog.jpg", at: 26795), warned: true,
            [
                (640, 480, 0x40F5_C527_C6BF_2E6B), (320, 240, 0x66BE_2747_86E9_6772), (160, 120, 0x1C23_00B7_D8F4_65B7),
                (80, 60, 0x6A3E_7DD5_8B45_61A0),
            ]),
        // rose_prog_testscan.jpg cut at 3946 of 5638 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("rose_prog_testscan.jpg", at: 3946), warned: true,
            [
                (227, 149, 0xBBC0_B8DB_CBDC_3FAB), (114, 75, 0xF3A7_4C4E_218F_8495), (57, 38, 0x46BB_3D31_25B2_CC0E),
                (29, 19, 0x7708_695B_024F_4738),
            ]),
        // rose_prog_restart.jpg cut at 4130 of 8261 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("rose_prog_restart.jpg", at: 4130), warned: true,
            [
                (227, 149, 0xB72B_46EA_94B1_3A92), (114, 75, 0xD139_390F_2CA7_1083), (57, 38, 0xAD83_7CE5_1A0A_590D),
                (29, 19, 0xFB00_75CA_4255_8470),
            ]),
        // rose_prog_restart.jpg cut at 7434 of 8261 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("rose_prog_restart.jpg", at: 7434), warned: true,
            [
                (227, 149, 0x290D_1670_06AC_BE13), (114, 75, 0x3294_A495_AECC_ED80), (57, 38, 0x2F21_7623_07CC_BC12),
                (29, 19, 0x7E03_2876_647C_DCF0),
            ]),
        // rose_prog_sa_deep.jpg cut at 2890 of 5780 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("rose_prog_sa_deep.jpg", at: 2890), warned: true,
            [
                (227, 149, 0xE282_7845_70B6_FD20), (114, 75, 0xDA22_C16F_A40A_55AF), (57, 38, 0x02EA_3D31_6C30_1F2E),
                (29, 19, 0xFBB6_365E_34B8_8D02),
            ]),
        // cmyk_prog.jpg cut at 11245 of 22490 bytes
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("cmyk_prog.jpg", at: 11245), warned: true,
            [
                (227, 149, 0xD972_6088_8D5C_20AB), (114, 75, 0x55E3_0C30_95B0_9C6D), (57, 38, 0x18B4_47FF_C48A_BE3C),
                (29, 19, 0x7DB1_2706_F239_7E1B),
            ]),
        // rose_prog_420.jpg cut right after its second scan header
        // djpeg: Premature end of JPEG file
        SmoothedCase(
            .truncate("rose_prog_420.jpg", at: 881), warned: true,
            [
                (227, 149, 0xACA5_484A_0355_ED3C), (114, 75, 0xE56D_48D7_7AA3_D7A6), (57, 38, 0xE53E_31B1_1D90_DD1E),
                (29, 19, 0x0283_4503_267D_5B47),
            ]),
        // rose_prog_420.jpg cut inside its second scan, then EOI
        // djpeg: Corrupt JPEG data: premature end of data segment
        SmoothedCase(
            .endEarly("rose_prog_420.jpg", at: 1249), warned: true,
            [
                (227, 149, 0xDFF3_6C90_4E28_AE3D), (114, 75, 0x2549_8E8C_817E_67D7), (57, 38, 0x76AB_8FA4_8D20_F2EB),
                (29, 19, 0x3AC9_63FA_DC27_87D2),
            ]),
    ]
}

/// Where a block-smoothing case's bytes come from: a cjpeg-made fixture or an edited suite file.
enum SmoothingInput: CustomStringConvertible {
    /// A file of `Tests/WeakImageStoreTests/Fixtures/JPEGBlockSmoothing`.
    case fixture(String)
    case edit(JPEGDamage)

    static func truncate(_ name: String, at offset: Int) -> Self { .edit(.truncate(name, at: offset)) }
    static func endEarly(_ name: String, at offset: Int) -> Self { .edit(.endEarly(name, at: offset)) }

    var description: String {
        switch self {
        case .fixture(let name): "fixture \(name)"
        case .edit(let damage): damage.description
        }
    }

    /// The file's bytes.
    func data() throws -> Data {
        switch self {
        case .fixture(let name):
            let folder = SharedTestData.packageRoot.appendingPathComponent(
                "Tests/WeakImageStoreTests/Fixtures/JPEGBlockSmoothing")
            return try Data(contentsOf: folder.appendingPathComponent(name))
        case .edit(let damage):
            return try damage.apply()
        }
    }
}
