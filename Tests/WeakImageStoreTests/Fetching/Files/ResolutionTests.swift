import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Resolution like `UIImage(named:)`: scale suffixes, extensions, directory order, remembered results.
final class ResolutionTests: XCTestCase {
    func test_plainName_prefersScalesInOrder_thenThePlainFile() throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 1)
        directory.write("icon@3x.png", size: 3)
        let store = makeStore(directories: [directory.url])

        let icon = try store.loadImage(named: "icon")

        XCTAssertEqual(icon.scale, 3, "icon@3x.png should win over icon.png when @2x is missing")
        XCTAssertEqual(icon.cost, 3)
        XCTAssertThrowsError(try store.loadImage(named: "icon@1x"), "an explicit @1x names icon@1x.png only")
    }

    #if os(Linux)
    /// Linux file names are bytes: a name spelled in another Unicode normalization is another file,
    /// whichever spelling was looked up first (a `Dictionary` of names would find the first
    /// spelling's image for the second).
    func test_namesMatchByBytes_notByCanonicalEquivalence() throws {
        let directory = TestDirectory()
        directory.write("caf\u{E9}.png", size: 4)
        let store = makeStore(directories: [directory.url])

        XCTAssertEqual(try store.loadImage(named: "caf\u{E9}").cost, 4)
        XCTAssertThrowsError(try store.loadImage(named: "cafe\u{301}")) { error in
            guard case ImageStoreError.notFound = error else { return XCTFail("\(error)") }
        }
        XCTAssertNil(store.cachedImage(named: "cafe\u{301}"))
    }
    #endif

    func test_plainFile_isScaleOne() throws {
        let directory = TestDirectory()
        directory.write("badge.png", size: 5)
        let store = makeStore(directories: [directory.url])

        XCTAssertEqual(try store.loadImage(named: "badge").scale, 1)
    }

    func test_nameWithExtensionOrScale_findsTheMatchingFile() throws {
        let directory = TestDirectory()
        directory.write("icon@2x.png", size: 2)
        directory.write("icon@3x.png", size: 3)
        directory.write("icon.png", size: 1)
        let store = makeStore(directories: [directory.url])

        XCTAssertEqual(try store.loadImage(named: "icon.png").scale, 2)
        XCTAssertEqual(try store.loadImage(named: "icon@3x").scale, 3)
        XCTAssertEqual(try store.loadImage(named: "icon@3x.png").scale, 3)
    }

    func test_laterExtensions_areTriedAfterEveryScaleOfEarlierOnes() throws {
        let directory = TestDirectory()
        directory.write("photo.jpg", size: 9)
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url], decoder: FakeDecoder())
        configuration.extensions = ["png", "jpg"]
        let store = ImageStore(configuration)

        XCTAssertEqual(try store.loadImage(named: "photo").cost, 9)
    }

    func test_firstDirectoryWins() throws {
        let first = TestDirectory()
        let second = TestDirectory()
        first.write("icon.png", size: 1)
        second.write("icon@2x.png", size: 2)
        let store = makeStore(directories: [first.url, second.url])

        XCTAssertEqual(try store.loadImage(named: "icon").cost, 1)
    }

    func test_namesInSubdirectories_resolveInsideTheDirectory() throws {
        let directory = TestDirectory()
        directory.write("toolbar/back@2x.png", size: 4)
        let store = makeStore(directories: [directory.url])

        XCTAssertEqual(try store.loadImage(named: "toolbar/back").scale, 2)
    }

    func test_missingImage_throwsNotFound() {
        let directory = TestDirectory()
        let store = makeStore(directories: [directory.url])

        XCTAssertThrowsError(try store.loadImage(named: "ghost")) { error in
            XCTAssertNotFound(error, name: "ghost")
        }
        XCTAssertNil(store.image(named: "ghost"))
    }

    func test_resolutions_areRemembered_untilRemoveAll() throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 1)
        let store = makeStore(directories: [directory.url])
        XCTAssertNil(store.image(named: "late"))
        XCTAssertEqual(try store.loadImage(named: "icon").scale, 1)

        // Files added after the first lookups are not seen: the store does not look again.
        directory.write("late.png", size: 1)
        directory.write("icon@2x.png", size: 2)
        XCTAssertNil(store.image(named: "late"))
        XCTAssertEqual(try store.loadImage(named: "icon").scale, 1)

        store.removeAll()
        XCTAssertNotNil(store.image(named: "late"))
        XCTAssertEqual(try store.loadImage(named: "icon").scale, 2)
    }

    func test_staleResolution_isForgotten_whenTheFileVanishes() throws {
        let directory = TestDirectory()
        directory.write("icon@2x.png", size: 2)
        directory.write("icon.png", size: 1)
        let store = makeStore(policy: .uncached, directories: [directory.url])
        XCTAssertEqual(try store.loadImage(named: "icon").scale, 2)

        directory.remove("icon@2x.png")

        XCTAssertThrowsError(try store.loadImage(named: "icon"), "the remembered file is gone")
        XCTAssertEqual(try store.loadImage(named: "icon").scale, 1, "resolved again after the failure")
    }

    func test_contentsOfFile_takesItsScaleFromTheFileName() throws {
        let directory = TestDirectory()
        let path = directory.write("elsewhere@3x.png", size: 3)
        let store = makeStore(directories: [])

        XCTAssertEqual(try store.loadImage(contentsOfFile: path).scale, 3)
    }

    func test_contentsOfFile_readsAnyPath_evenOutsideTheDirectories_whileNamesStayInside() throws {
        let directory = TestDirectory()
        let outside = TestDirectory()
        let secret = outside.write("secret.png", size: 5)
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/link.png", withDestinationPath: secret)
        let store = makeStore(directories: [directory.url])
        let upAndOver = directory.path + "/../" + outside.url.lastPathComponent + "/secret.png"

        // The path is the caller's: outside the directories, through `..` or a link, it is read.
        for path in [secret, upAndOver, directory.path + "/link.png"] {
            XCTAssertEqual(try store.loadImage(contentsOfFile: path).cost, 5, path)
        }
        // A name is confined: the same link is refused.
        XCTAssertThrowsError(try store.loadImage(named: "link")) { error in
            guard case .invalidName("link", _) = error as? ImageStoreError else {
                return XCTFail("expected invalidName, got \(error)")
            }
        }
    }

    func test_directoryGivenThroughASymbolicLink_isReadBeneathItsRealPath() throws {
        let directory = TestDirectory()
        directory.write("real/sub/icon.png", size: 6)
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/alias", withDestinationPath: "real")
        let store = makeStore(directories: [directory.url.appendingPathComponent("alias")])

        XCTAssertEqual(try store.loadImage(named: "sub/icon").cost, 6)
    }
}
