import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// In the store a request's key is its source's identity plus the output size: a name, the path
/// it resolves to and that path's `file:` URL are one key, one instance and one load; a cache key
/// stands in for its URL; sources of different kinds never share by accident.
final class RequestIdentityTests: XCTestCase {
    /// `icon@2x.png` (40 bytes of 3) and the three requests that reach it.
    private func makeIcon(_ directory: TestDirectory) -> (path: String, requests: [ImageRequest]) {
        let path = directory.write("icon@2x.png", size: 40, fill: 3)
        return (path, [.named("icon"), .file(path), .url(URL(fileURLWithPath: path))])
    }

    func test_nameFileAndFileURL_shareOneInstance_andOneLoad() throws {
        for policy in [CachePolicy.strong, .retainCountSweep] + weakPolicies {
            let directory = TestDirectory()
            let (_, requests) = makeIcon(directory)
            let decoder = FakeDecoder()
            let store = makeStore(policy: policy, directories: [directory.url], decoder: decoder)

            let images = try requests.map { try store.loadImage(for: $0) }

            for (index, image) in images.enumerated() {
                XCTAssertIdentical(image, images[0], "\(policy): \(requests[index]) got its own instance")
            }
            XCTAssertEqual(images[0].scale, 2, "\(policy)")
            XCTAssertEqual(decoder.calls.count, 1, "\(policy)")
            for request in requests {
                XCTAssertIdentical(store.cachedImage(for: request), images[0], "\(policy): \(request)")
            }
        }
    }

    func test_nameFileAndFileURL_inFlightTogether_shareOneLoad() async throws {
        let directory = TestDirectory()
        let (_, requests) = makeIcon(directory)
        let gate = DecodeGate()
        let decoder = FakeDecoder(gates: [3: gate])
        let store = makeStore(policy: .weak, directories: [directory.url], decoder: decoder)

        let tasks = requests.map { request in Task { try await store.fetchImage(for: request) } }
        XCTAssertTrue(
            eventually { gate.arrived == 1 && store.waitersPerLoadInFlight == [3] }, "\(store.waitersPerLoadInFlight)")
        XCTAssertFalse(eventually(timeout: 0.1) { gate.arrived > 1 }, "a second load of the same file started")
        gate.open()
        var images: [Bitmap] = []
        for task in tasks { images.append(try await task.value) }

        XCTAssertEqual(decoder.calls.count, 1)
        XCTAssertIdentical(images[1], images[0])
        XCTAssertIdentical(images[2], images[0])
        let statistics = store.statistics
        XCTAssertEqual(statistics.decodes, 1)
        XCTAssertEqual(statistics.lookups, 3)
        XCTAssertEqual(statistics.lookups, statistics.misses + statistics.coalescedLoads)
    }

    func test_thumbnailsOfNameFileAndFileURL_shareOneInstancePerSize() throws {
        let directory = TestDirectory()
        let (_, requests) = makeIcon(directory)
        let decoder = FakeDecoder(makesThumbnails: true)
        let store = makeStore(directories: [directory.url], decoder: decoder)

        let thumbnails = try requests.map { try store.loadImage(for: $0.withMaxPixelSize(16)) }
        let full = try store.loadImage(for: requests[2])

        XCTAssertEqual(thumbnails[0].width, 16)
        XCTAssertIdentical(thumbnails[1], thumbnails[0])
        XCTAssertIdentical(thumbnails[2], thumbnails[0])
        XCTAssertEqual(full.width, 40)
        XCTAssertEqual(decoder.log.entries.map(\.maxPixelSize), [16, nil])
    }

    func test_fileURLSpellings_ofOneFile_shareOneInstance() throws {
        let directory = TestDirectory()
        let (path, _) = makeIcon(directory)
        _ = directory.makeDirectory("sub")
        // The scale comes from the name given, as UIImage(contentsOfFile:) takes it: a link named
        // without "@2x" would be another image (scale 1) of the same file.
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/alias@2x.png", withDestinationPath: path)
        let store = makeStore(directories: [directory.url])

        let image = try store.loadImage(for: .url(URL(fileURLWithPath: path)))

        XCTAssertIdentical(
            try store.loadImage(for: .url(URL(fileURLWithPath: directory.path + "/sub/../icon@2x.png"))), image)
        XCTAssertIdentical(
            try store.loadImage(for: .url(URL(fileURLWithPath: directory.path + "/alias@2x.png"))), image)
        XCTAssertIdentical(try store.loadImage(for: .file(directory.path + "/sub/../icon@2x.png")), image)
        XCTAssertEqual(store.statistics.decodes, 1)
    }

    /// A file's real path is its identity (documented on `ImageRequest.url`): a cache key given
    /// with a `file:` URL changes nothing, so two files never pass for one.
    func test_cacheKey_isIgnored_forAFileURL() throws {
        let directory = TestDirectory()
        let first = directory.write("first.png", size: 10, fill: 1)
        let second = directory.write("second.png", size: 20, fill: 2)
        let decoder = FakeDecoder()
        let store = makeStore(policy: .weak, directories: [directory.url], decoder: decoder)

        let image = try store.loadImage(for: .url(URL(fileURLWithPath: first), cacheKey: "avatar"))
        let other = try store.loadImage(for: .url(URL(fileURLWithPath: second), cacheKey: "avatar"))
        let byPath = try store.loadImage(for: .file(first))

        XCTAssertNotIdentical(other, image, "two files are two images whatever the cache key")
        XCTAssertIdentical(byPath, image, "the file URL with a cache key is the file's request")
        XCTAssertEqual(ImageRequest.url(URL(fileURLWithPath: first), cacheKey: "avatar"), .file(first))
        XCTAssertEqual(decoder.log.fills, [1, 2])
    }

    func test_providerWhoseIdentityIsAPath_doesNotShareWithThatFile() throws {
        let directory = TestDirectory()
        let (path, requests) = makeIcon(directory)
        let store = makeStore(policy: .weak, directories: [directory.url])
        let file = try store.loadImage(for: requests[1])

        let provided = try store.loadImage(
            for: .provider(TestDataProvider(identity: FileSystem.realPath(path)!, size: 25, fill: 9)))
        let namedLikeIt = try store.loadImage(for: .provider(TestDataProvider(identity: "icon", size: 30, fill: 8)))

        XCTAssertNotIdentical(provided, file)
        XCTAssertNotIdentical(namedLikeIt, file)
        XCTAssertEqual(provided.cost, 25)
        XCTAssertEqual(namedLikeIt.cost, 30)
        XCTAssertIdentical(try store.loadImage(for: requests[0]), file)
    }

    // MARK: Schemes the store cannot fetch

    func test_unsupportedScheme_failsWithUnsupportedURL_everyWay_withoutIO() async throws {
        let url = URL(string: "ftp://example.invalid/images/a.png")!
        let request = ImageRequest.url(url)
        let decoder = FakeDecoder()
        let store = makeStore(directories: [], decoder: decoder)

        var errors: [ImageStoreError] = []
        do throws(ImageStoreError) {
            _ = try store.loadImage(for: request)
        } catch {
            errors.append(error)
        }
        do throws(ImageStoreError) {
            _ = try await store.fetchImage(for: request.withMaxPixelSize(64))
        } catch {
            errors.append(error)
        }
        let prefetch = store.prefetch([request])
        await prefetch.finished()
        errors.append(contentsOf: prefetch.errors.values)

        XCTAssertEqual(errors.count, 3, "\(errors)")
        for error in errors {
            guard case .unsupportedURL(let failedURL, _) = error else {
                XCTFail("expected unsupportedURL, got \(error)")
                continue
            }
            XCTAssertEqual(failedURL, url)
        }
        func syncImage() -> Bitmap? { store.image(for: request) }
        XCTAssertNil(syncImage())
        XCTAssertNil(store.cachedImage(for: request))
        XCTAssertEqual(decoder.calls.count, 0)
        XCTAssertEqual(store.statistics.decodes, 0)
    }
}
