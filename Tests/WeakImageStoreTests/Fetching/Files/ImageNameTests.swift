import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class ImageNameTests: XCTestCase {
    private func parse(_ name: String) throws -> ImageName {
        try ImageName(parsing: name, extensions: ["png", "jpg"])
    }

    func test_plainName_hasNoExtensionAndNoScale() throws {
        let name = try parse("icon")
        XCTAssertEqual(name, ImageName(stem: "icon", fileExtension: nil, scale: nil))
    }

    func test_suffixes_areRecognizedInAnyCombination() throws {
        XCTAssertEqual(try parse("icon.png"), ImageName(stem: "icon", fileExtension: "png", scale: nil))
        XCTAssertEqual(try parse("icon@2x"), ImageName(stem: "icon", fileExtension: nil, scale: 2))
        XCTAssertEqual(try parse("tool/icon@3x.jpg"), ImageName(stem: "tool/icon", fileExtension: "jpg", scale: 3))
    }

    func test_builtInDecodersExtensions_areRecognizedWhateverTheStoresExtensions() throws {
        XCTAssertEqual(try parse("wave.gif"), ImageName(stem: "wave", fileExtension: "gif", scale: nil))
        XCTAssertEqual(try parse("sticker@2x.webp"), ImageName(stem: "sticker", fileExtension: "webp", scale: 2))
        XCTAssertEqual(try parse("photo.WebP"), ImageName(stem: "photo", fileExtension: "WebP", scale: nil))
    }

    func test_unknownExtensionOrOddSuffix_staysPartOfTheStem() throws {
        XCTAssertEqual(try parse("logo.v2"), ImageName(stem: "logo.v2", fileExtension: nil, scale: nil))
        XCTAssertEqual(try parse("mail@home"), ImageName(stem: "mail@home", fileExtension: nil, scale: nil))
        XCTAssertEqual(try parse("big@99x"), ImageName(stem: "big@99x", fileExtension: nil, scale: nil))
        XCTAssertEqual(try parse(".png"), ImageName(stem: ".png", fileExtension: nil, scale: nil))
    }

    func test_candidates_tryExtensionsThenScalesInOrder() throws {
        let candidates = try parse("icon").candidateFileNames(scales: [2, 3, 1], extensions: ["png", "jpg"])
        XCTAssertEqual(
            candidates.map(\.fileName),
            [
                "icon@2x.png", "icon@3x.png", "icon.png", "icon@2x.jpg", "icon@3x.jpg", "icon.jpg",
            ])
        XCTAssertEqual(candidates.map(\.scale), [2, 3, 1, 2, 3, 1])
    }

    func test_candidates_ofAnExplicitScale_areOnlyThatScale() throws {
        let candidates = try parse("icon@1x.png").candidateFileNames(scales: [2, 3, 1], extensions: ["png"])
        XCTAssertEqual(candidates.map(\.fileName), ["icon@1x.png"])
        XCTAssertEqual(candidates.map(\.scale), [1])
    }

    func test_hostileNames_areInvalid() {
        let hostile = [
            "", "/etc/passwd", "../secret", "a/../../b", "a/./b", "a//b", "a/", "nul\u{0}byte",
            String(repeating: "x", count: ImageName.maximumLength + 1), "@2x", "dir/@2x.png",
        ]
        for name in hostile {
            XCTAssertThrowsError(try parse(name), "\(name.debugDescription) was accepted") { error in
                guard case ImageStoreError.invalidName = error else {
                    return XCTFail("\(name.debugDescription): expected invalidName, got \(error)")
                }
            }
        }
    }

    func test_scaleOfFileName_readsTheSuffix() {
        XCTAssertEqual(ImageName.scale(ofFileName: "icon@3x.png"), 3)
        XCTAssertEqual(ImageName.scale(ofFileName: "icon.png"), 1)
        XCTAssertEqual(ImageName.scale(ofFileName: "icon@2x"), 2)
    }
}
