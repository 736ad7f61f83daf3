import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// `FileSystem.isPath(_:inside:)` decides by bytes, as the file system does.
final class FileSystemTests: XCTestCase {
    func test_isPathInside_comparesBytes_notCanonicallyEquivalentCharacters() {
        // "e" + combining acute (3 bytes) and the precomposed "é" (2 bytes) are one Character,
        // but different names on disk: "/a/éx/secret" is not inside "/a/e\u{301}", although the
        // byte at the directory's length is a "/".
        let decomposed = "/images/e\u{301}"
        let outside = "/images/\u{E9}x/secret"
        XCTAssertTrue(outside.hasPrefix(decomposed), "String sees a prefix")
        XCTAssertFalse(FileSystem.isPath(outside, inside: decomposed))
        XCTAssertFalse(FileSystem.isPath("/images/\u{E9}/icon.png", inside: decomposed))
        XCTAssertTrue(FileSystem.isPath("/images/e\u{301}/icon.png", inside: decomposed))
    }

    func test_isPathInside_needsASeparatorAfterTheDirectory() {
        XCTAssertTrue(FileSystem.isPath("/images/icon.png", inside: "/images"))
        XCTAssertFalse(FileSystem.isPath("/images2/icon.png", inside: "/images"))
        XCTAssertFalse(FileSystem.isPath("/images", inside: "/images"))
        XCTAssertTrue(FileSystem.isPath("/icon.png", inside: "/"))
        XCTAssertFalse(FileSystem.isPath("icon.png", inside: "/"))
    }
}
