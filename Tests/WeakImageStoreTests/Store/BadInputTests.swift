import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Hostile names and files get a typed error (and nil from `image(named:)`), never a crash, a
/// hang, or a read outside the directories.
final class BadInputTests: XCTestCase {
    private func assertError(
        _ expression: @autoclosure () throws -> Bitmap, matches predicate: (ImageStoreError) -> Bool,
        _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), message, file: file, line: line) { error in
            guard let error = error as? ImageStoreError, predicate(error) else {
                return XCTFail("\(message): unexpected \(error)", file: file, line: line)
            }
        }
    }

    func test_hostileNames_areInvalid_andReadNothing() {
        let outside = TestDirectory()
        outside.write("secret.png", size: 10)
        let directory = TestDirectory()
        let decoder = FakeDecoder()
        let store = makeStore(directories: [directory.url], decoder: decoder)
        let escape = "../" + outside.url.lastPathComponent + "/secret"

        for name in [
            "", escape, outside.path + "/secret", "icon\u{0}.png", "./icon",
            String(repeating: "a/", count: 600) + "icon",
        ] {
            assertError(
                try store.loadImage(named: name),
                matches: {
                    if case .invalidName = $0 { true } else { false }
                }, name.debugDescription)
            XCTAssertNil(store.image(named: name))
        }
        XCTAssertEqual(decoder.calls.count, 0)
    }

    func test_symbolicLinkLeavingTheDirectory_isInvalid() throws {
        let outside = TestDirectory()
        outside.write("secret.png", size: 10)
        let directory = TestDirectory()
        try FileManager.default.createSymbolicLink(
            atPath: directory.path + "/icon.png", withDestinationPath: outside.path + "/secret.png"
        )
        try FileManager.default.createSymbolicLink(
            atPath: directory.path + "/linked", withDestinationPath: outside.path
        )
        let decoder = FakeDecoder()
        let store = makeStore(directories: [directory.url], decoder: decoder)

        for name in ["icon", "linked/secret"] {
            assertError(
                try store.loadImage(named: name),
                matches: {
                    if case .invalidName = $0 { true } else { false }
                }, name)
        }
        XCTAssertEqual(decoder.calls.count, 0, "a file outside the directory was read")
    }

    func test_directoryNamedLikeAnImage_isNotAnImage() {
        let directory = TestDirectory()
        _ = directory.makeDirectory("icon.png")
        let store = makeStore(directories: [directory.url])

        XCTAssertThrowsError(try store.loadImage(named: "icon")) { error in
            XCTAssertNotFound(error, name: "icon")
        }
        assertError(
            try store.loadImage(contentsOfFile: directory.path + "/icon.png"),
            matches: {
                if case .unreadable = $0 { true } else { false }
            }, "contentsOfFile on a directory")
    }

    func test_fifoNamedLikeAnImage_isRefused_withoutBlocking() throws {
        let directory = TestDirectory()
        XCTAssertEqual(mkfifo(directory.path + "/icon.png", 0o644), 0)
        let store = makeStore(directories: [directory.url])

        // Opening a FIFO for reading without a writer would block forever.
        XCTAssertNil(store.image(named: "icon"))
        assertError(
            try store.loadImage(contentsOfFile: directory.path + "/icon.png"),
            matches: {
                if case .unreadable(_, "not a regular file") = $0 { true } else { false }
            }, "contentsOfFile on a FIFO")
    }

    func test_fileOverTheSizeLimit_isRefusedBeforeReading() throws {
        let directory = TestDirectory()
        directory.write("huge.png", size: 2000)
        let decoder = FakeDecoder()
        let store = makeStore(directories: [directory.url], maximumFileSize: 1000, decoder: decoder)

        assertError(
            try store.loadImage(named: "huge"),
            matches: {
                if case .fileTooLarge(_, 2000, 1000) = $0 { true } else { false }
            }, "huge")
        XCTAssertEqual(decoder.calls.count, 0)
    }

    func test_decoderError_becomesDecodingFailed_withTheDecodersMessage() throws {
        let directory = TestDirectory()
        directory.write("broken.png", Array("FAIL".utf8))
        let store = makeStore(directories: [directory.url])

        assertError(
            try store.loadImage(named: "broken"),
            matches: {
                if case .decodingFailed(let path, "fake decoder refused the file") = $0 {
                    path.hasSuffix("/broken.png")
                } else {
                    false
                }
            }, "broken")
        XCTAssertNil(store.image(named: "broken"))
    }

    /// Root reads files regardless of their mode, so this skips as root; CI runs it as `nobody`
    /// through `Scripts/test-unprivileged.sh`, which fails if it skips there.
    func test_unreadableFile_isUnreadable() throws {
        try XCTSkipIf(getuid() == 0, "root reads files regardless of their mode")
        let directory = TestDirectory()
        let path = directory.write("locked.png", size: 10)
        XCTAssertEqual(chmod(path, 0), 0)
        let decoder = FakeDecoder()
        let store = makeStore(directories: [directory.url], decoder: decoder)
        let realPath = try XCTUnwrap(FileSystem.realPath(path))

        XCTAssertThrowsError(try store.loadImage(named: "locked")) { error in
            XCTAssertEqual(
                error as? ImageStoreError, .unreadable(path: realPath, reason: FileSystem.errorDescription(EACCES)))
        }
        XCTAssertEqual(decoder.calls.count, 0)
    }

    func test_missingPath_isNotFound() {
        let store = makeStore(directories: [])
        XCTAssertThrowsError(try store.loadImage(contentsOfFile: "/nonexistent/file.png")) { error in
            XCTAssertEqual(error as? ImageStoreError, .notFound(name: "/nonexistent/file.png"))
        }
    }

    func test_errors_describeThemselves() {
        XCTAssertEqual(
            ImageStoreError.fileTooLarge(path: "/a.png", size: 9, limit: 5).description,
            "/a.png is 9 bytes, over the limit of 5 bytes"
        )
        XCTAssertEqual(
            ImageStoreError.notFound(name: "/x").description, "no file at \"/x\"")
    }
}
