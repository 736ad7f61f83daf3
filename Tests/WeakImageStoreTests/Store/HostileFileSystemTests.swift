import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Files that change between resolution and reading: the checks are made on the opened file, so
/// a swap can only produce a typed error, never a blocked thread or an unbounded read.
final class HostileFileSystemTests: XCTestCase {
    /// Resolves "icon" (remembered), then lets `swap` replace the file before the next read.
    private func lookUpAfterSwap(
        policy: CachePolicy = .uncached, maximumFileSize: Int = 1000, _ swap: (TestDirectory) throws -> Void
    ) throws -> Result<Bitmap, ImageStoreError> {
        let directory = TestDirectory()
        directory.write("icon.png", size: 10)
        let store = makeStore(policy: policy, directories: [directory.url], maximumFileSize: maximumFileSize)
        XCTAssertNotNil(store.image(named: "icon"))
        try swap(directory)
        return Result { () throws(ImageStoreError) in try store.loadImage(named: "icon") }
    }

    func test_fileSwappedForAFIFO_isRefused_withoutBlocking() throws {
        let result = try lookUpAfterSwap { directory in
            directory.remove("icon.png")
            XCTAssertEqual(mkfifo(directory.path + "/icon.png", 0o644), 0)
        }
        guard case .failure(.unreadable(_, "not a regular file")) = result else {
            return XCTFail("expected unreadable, got \(result)")
        }
    }

    func test_fileSwappedForADirectory_isRefused() throws {
        let result = try lookUpAfterSwap { directory in
            directory.remove("icon.png")
            _ = directory.makeDirectory("icon.png")
        }
        guard case .failure(.unreadable) = result else { return XCTFail("expected unreadable, got \(result)") }
    }

    func test_fileGrownPastTheLimit_isRefused() throws {
        let result = try lookUpAfterSwap { directory in
            directory.write("icon.png", size: 5000)
        }
        guard case .failure(.fileTooLarge(_, 5000, 1000)) = result else {
            return XCTFail("expected fileTooLarge, got \(result)")
        }
    }

    func test_fileReplacedInPlace_isReadAsItIsNow() throws {
        let result = try lookUpAfterSwap { directory in
            directory.write("icon.png", size: 20)
        }
        XCTAssertEqual(try result.get().cost, 20)
    }

    /// Resolves "sub/icon" (remembered), replaces the folder `sub` by a symbolic link to
    /// `destination` (relative to the directory, or absolute), then loads twice more.
    private func loadsAfterFolderSwap(
        linkingTo destination: (TestDirectory) -> String
    ) throws -> (first: Result<Bitmap, ImageStoreError>, second: Result<Bitmap, ImageStoreError>, decoder: FakeDecoder)
    {
        let directory = TestDirectory()
        directory.write("sub/icon.png", size: 10)
        directory.write("other/icon.png", size: 20)
        let decoder = FakeDecoder()
        let store = makeStore(policy: .uncached, directories: [directory.url], decoder: decoder)
        XCTAssertEqual(try store.loadImage(named: "sub/icon").cost, 10)
        directory.remove("sub")
        try FileManager.default.createSymbolicLink(
            atPath: directory.path + "/sub", withDestinationPath: destination(directory))

        let first = Result { () throws(ImageStoreError) in try store.loadImage(named: "sub/icon") }
        let second = Result { () throws(ImageStoreError) in try store.loadImage(named: "sub/icon") }
        return (first, second, decoder)
    }

    func test_folderSwappedForAnEscapingLink_isRefused_thenInvalidOnceResolvedAgain() throws {
        let outside = TestDirectory()
        outside.write("icon.png", size: 30)

        let (first, second, decoder) = try loadsAfterFolderSwap { _ in outside.path }

        guard case .failure(.unreadable(_, ConfinedFileOpener.changedPathReason)) = first else {
            return XCTFail("expected the remembered resolution's read to be refused, got \(first)")
        }
        guard case .failure(.invalidName("sub/icon", _)) = second else {
            return XCTFail("expected the fresh resolution to see the escape, got \(second)")
        }
        XCTAssertEqual(decoder.calls.count, 1, "only the file inside the directory was decoded")
    }

    func test_folderSwappedForALinkInside_isRefusedOnce_thenReadThroughTheLink() throws {
        let (first, second, _) = try loadsAfterFolderSwap { _ in "other" }

        guard case .failure(.unreadable(_, ConfinedFileOpener.changedPathReason)) = first else {
            return XCTFail("expected the remembered resolution's read to be refused, got \(first)")
        }
        XCTAssertEqual(try second.get().cost, 20)
    }

    func test_zeroByteFile_reachesTheDecoderAsEmptyData() throws {
        let directory = TestDirectory()
        directory.write("empty.png", [])
        let decoder = FakeDecoder()
        let store = makeStore(directories: [directory.url], decoder: decoder)

        XCTAssertEqual(try store.loadImage(named: "empty").cost, 0)
        XCTAssertEqual(decoder.calls.count, 1)
    }

    func test_veryLongButValidName_isNotFound_notACrash() {
        let directory = TestDirectory()
        let store = makeStore(directories: [directory.url])
        let name = String(repeating: "n", count: 250)  // one component under NAME_MAX

        XCTAssertThrowsError(try store.loadImage(named: name)) { error in
            XCTAssertNotFound(error, name: name)
        }
    }

    func test_componentLongerThanTheFileSystemAllows_isNotFound() {
        let directory = TestDirectory()
        let store = makeStore(directories: [directory.url])
        let name = String(repeating: "n", count: 300)  // over NAME_MAX: realpath fails

        XCTAssertNil(store.image(named: name))
    }
}
