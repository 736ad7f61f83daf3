import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Reads walk a resolved path down from its root and follow no symbolic link, so a link swapped
/// in after resolution is refused rather than followed out of the root.
final class ConfinedFileOpenerTests: XCTestCase {
    private static let inside = Array("inside".utf8)
    private static let secret = Array("secret".utf8)
    private let reader = ImageFileReader(maximumFileSize: 1000)

    /// A root holding `sub/icon.png` and `other/icon.png`, an outside folder holding `icon.png`
    /// with the secret, and the key resolution gives `sub/icon.png`.
    private struct Fixture {
        let root = TestDirectory("confinedRoot")
        let outside = TestDirectory("confinedOutside")
        var rootPath: String { FileSystem.realPath(root.path) ?? root.path }
        var filePath: String { rootPath + "/sub/icon.png" }

        init() {
            root.write("sub/icon.png", ConfinedFileOpenerTests.inside)
            root.write("other/icon.png", ConfinedFileOpenerTests.inside)
            outside.write("icon.png", ConfinedFileOpenerTests.secret)
        }

        func key(root: String? = nil) -> FileLocation {
            FileLocation(path: filePath, root: root ?? rootPath)
        }

        /// Replaces `entry` (relative to the root) by a symbolic link to `destination`.
        func replaceWithLink(_ entry: String, to destination: String) throws {
            root.remove(entry)
            try FileManager.default.createSymbolicLink(atPath: rootPath + "/" + entry, withDestinationPath: destination)
        }
    }

    private func assertRefusedAsChanged(_ key: FileLocation, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try reader.read(key), file: file, line: line) { error in
            XCTAssertEqual(
                error as? ImageStoreError,
                .unreadable(path: key.path, reason: ConfinedFileOpener.changedPathReason), file: file, line: line)
        }
    }

    func test_fileBeneathItsRoot_isRead() throws {
        let fixture = Fixture()

        XCTAssertEqual(try [UInt8](reader.read(fixture.key())), Self.inside)
    }

    func test_fileUnderTheFileSystemRoot_isRead_whenItsPathHoldsNoLink() throws {
        let fixture = Fixture()

        XCTAssertEqual(try [UInt8](reader.read(fixture.key(root: "/"))), Self.inside)
    }

    func test_folderReplacedByAnEscapingLink_isRefused() throws {
        let fixture = Fixture()
        let key = fixture.key()
        try fixture.replaceWithLink("sub", to: fixture.outside.path)

        assertRefusedAsChanged(key)
    }

    func test_folderReplacedByALinkThatStaysInside_isRefused_tooUntilResolvedAgain() throws {
        let fixture = Fixture()
        let key = fixture.key()
        try fixture.replaceWithLink("sub", to: "other")

        assertRefusedAsChanged(key)
    }

    func test_fileReplacedByAnEscapingLink_isRefused() throws {
        let fixture = Fixture()
        let key = fixture.key()
        try fixture.replaceWithLink("sub/icon.png", to: fixture.outside.path + "/icon.png")

        assertRefusedAsChanged(key)
    }

    func test_linkSwappedIntoAPathUnderTheFileSystemRoot_isRefused() throws {
        let fixture = Fixture()
        let key = fixture.key(root: "/")
        try fixture.replaceWithLink("sub", to: fixture.outside.path)

        assertRefusedAsChanged(key)
    }

    func test_folderReplacedByAFile_isRefused() throws {
        let fixture = Fixture()
        let key = fixture.key()
        fixture.root.remove("sub")
        fixture.root.write("sub", Self.inside)

        assertRefusedAsChanged(key)
    }

    func test_vanishedFolder_isNotFound() {
        let fixture = Fixture()
        let key = fixture.key()
        fixture.root.remove("sub")

        XCTAssertThrowsError(try reader.read(key)) { error in
            XCTAssertEqual(error as? ImageStoreError, .notFound(name: key.path))
        }
    }

    func test_pathOutsideItsRoot_isRefused() {
        let fixture = Fixture()
        let key = FileLocation(path: fixture.outside.path + "/icon.png", root: fixture.rootPath)

        XCTAssertThrowsError(try reader.read(key)) { error in
            XCTAssertEqual(
                error as? ImageStoreError, .unreadable(path: key.path, reason: "not inside \(fixture.rootPath)"))
        }
    }

    func test_rootIsNotPartOfTheImagesIdentity() {
        func source(root: String) -> ImageLocator {
            let location = FileLocation(path: "/a/b.png", root: root)
            return ImageLocator(.file(realPath: location.path, scale: 2), bytes: .file(location))
        }

        XCTAssertEqual(source(root: "/a"), source(root: "/"))
        XCTAssertEqual(source(root: "/a").key, source(root: "/").key)
    }

    /// Opening by path needs only search permission on folders; the walk must not need more.
    /// Root reads regardless of permissions, so CI runs this as an unprivileged user too.
    func test_folderWithSearchPermissionOnly_isWalked() throws {
        #if os(Linux)
        try XCTSkipIf(getuid() == 0, "root reads files regardless of their mode")
        let fixture = Fixture()
        XCTAssertEqual(chmod(fixture.rootPath + "/sub", 0o311), 0)
        defer { chmod(fixture.rootPath + "/sub", 0o755) }

        XCTAssertEqual(try [UInt8](reader.read(fixture.key())), Self.inside)
        #else
        throw XCTSkip("Apple's platforms have no O_PATH: folders below the root must be readable")
        #endif
    }
}
