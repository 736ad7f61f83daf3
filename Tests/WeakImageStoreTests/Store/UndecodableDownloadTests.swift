import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A body that does not decode (a captive portal's page, a server's mistake) is never kept as if
/// it were an image: its disk entry goes, and the URL is not downloaded again before the
/// back-off ends, with a disk cache or without one.
final class UndecodableDownloadTests: XCTestCase {
    private var server: LoopbackHTTPServer!
    private var directory: URL!

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("undecodable-\(UUID())")
    }

    override func tearDown() {
        _ = server.stop()
        server = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// A captive portal's answer to any URL: a login page, fresh for 68 years.
    private var portalPage: HTTPScriptedResponse {
        var response = HTTPScriptedResponse.ok(
            Array("<html><body>Sign in to the hotel Wi-Fi</body></html>".utf8), contentType: "text/html")
        response.headers.append((name: "Cache-Control", value: "max-age=2147483647"))
        return response
    }

    private var picture: HTTPScriptedResponse {
        let bitmap = Bitmap(width: 2, height: 1, format: .gray8, pixels: [10, 200])
        var response = HTTPScriptedResponse.ok(Array(PNGEncoder.encode(bitmap)), contentType: "image/png")
        response.headers.append((name: "Cache-Control", value: "max-age=3600"))
        return response
    }

    private func makeStore(diskCache: DiskImageCache?, failureBackoff: TimeInterval) -> ImageStore<Bitmap> {
        var configuration = ImageStore<Bitmap>.Configuration(directories: [])
        configuration.policy = .weak
        configuration.maximumConcurrentLoads = 2
        configuration.downloader = ImageDownloader(failureBackoff: failureBackoff)
        configuration.diskCache = diskCache
        return ImageStore(configuration)
    }

    func test_portalPage_isRemovedFromDisk_andNotServedAgain() async throws {
        // Given
        server.respond(to: "/photo.png", with: portalPage)
        let cache = try DiskImageCache(directory: directory)
        let store = makeStore(diskCache: cache, failureBackoff: 0)
        let request = ImageRequest.url(server.url("/photo.png"))
        // When
        await assertUndecodable(try await store.fetchImage(for: request))
        // Then
        XCTAssertFalse(cache.containsData(for: request), "the portal's page was kept as the picture")
        XCTAssertNil(cache.data(for: request))
        // When: the network is back, and the app relaunched
        server.respond(to: "/photo.png", with: picture)
        let relaunched = makeStore(diskCache: try DiskImageCache(directory: directory), failureBackoff: 0)
        // Then: the picture, from the network
        let image = try await relaunched.fetchImage(for: request)
        XCTAssertEqual(image.width, 2)
        XCTAssertEqual(server.statistics.requests(to: "/photo.png"), 2)
    }

    func test_undecodableBody_isNotDownloadedAgain_withinTheBackoff_withoutADiskCache() async throws {
        // Given
        server.respond(to: "/photo.png", with: portalPage)
        let store = makeStore(diskCache: nil, failureBackoff: 60)
        let request = ImageRequest.url(server.url("/photo.png"))
        await assertUndecodable(try await store.fetchImage(for: request))
        // When
        for _ in 0..<3 {
            await assertUndecodable(try await store.fetchImage(for: request))
        }
        // Then
        XCTAssertEqual(server.statistics.requests(to: "/photo.png"), 1, "every lookup downloaded the page again")
    }

    func test_undecodableBody_isNotDownloadedAgain_withinTheBackoff_withADiskCache() async throws {
        // Given
        server.respond(to: "/photo.png", with: portalPage)
        let cache = try DiskImageCache(directory: directory)
        let store = makeStore(diskCache: cache, failureBackoff: 60)
        let request = ImageRequest.url(server.url("/photo.png"))
        await assertUndecodable(try await store.fetchImage(for: request))
        // When
        await assertUndecodable(try await store.fetchImage(for: request))
        // Then
        XCTAssertEqual(server.statistics.requests(to: "/photo.png"), 1)
        XCTAssertFalse(cache.containsData(for: request))
    }

    func test_undecodableFreshEntry_onDisk_isRemoved() async throws {
        // Given: a fresh entry that is no image, as an older version wrote it
        let cache = try DiskImageCache(directory: directory)
        let request = ImageRequest.url(server.url("/photo.png"))
        cache.storeData(Data("not a picture".utf8), for: request)
        server.respond(to: "/photo.png", with: picture)
        let store = makeStore(diskCache: cache, failureBackoff: 0)
        // When
        await assertUndecodable(try await store.fetchImage(for: request))
        // Then: gone from disk; the next lookup downloads the picture
        XCTAssertFalse(cache.containsData(for: request))
        let image = try await store.fetchImage(for: request)
        XCTAssertEqual(image.width, 2)
        XCTAssertEqual(server.statistics.requests(to: "/photo.png"), 1)
    }

    func test_imageRefusedForItsSize_staysOnDisk_forItsThumbnails() async throws {
        // Given: a picture too large to decode at full size, small enough as a thumbnail
        var bomb = HTTPScriptedResponse.ok(
            Array(DecompressionBombs.interlacedPNG(side: 1024)), contentType: "image/png")
        bomb.headers.append((name: "Cache-Control", value: "max-age=3600"))
        server.respond(to: "/large.png", with: bomb)
        let cache = try DiskImageCache(directory: directory)
        var configuration = ImageStore<Bitmap>.Configuration(
            directories: [], decoder: BitmapDecoder(pngDecoder: PNGDecoder(maximumDecodingBytes: 4 * 1024 * 1024)))
        configuration.policy = .weak
        configuration.maximumConcurrentLoads = 2
        configuration.downloader = ImageDownloader(failureBackoff: 60)
        configuration.diskCache = cache
        let store = ImageStore(configuration)
        let fullSize = ImageRequest.url(server.url("/large.png"))
        await assertUndecodable(try await store.fetchImage(for: fullSize))
        // When
        let thumbnail = try await store.fetchImage(for: .url(server.url("/large.png"), maxPixelSize: 64))
        // Then: from the disk entry, which stayed
        XCTAssertEqual(thumbnail.width, 64)
        XCTAssertTrue(cache.containsData(for: fullSize))
        XCTAssertEqual(server.statistics.requests(to: "/large.png"), 1)
    }

    private func assertUndecodable(
        _ load: @autoclosure () async throws -> Bitmap, file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            _ = try await load()
            XCTFail("the page decoded", file: file, line: line)
        } catch let error as ImageStoreError {
            guard case .undecodable = error else {
                return XCTFail("\(error)", file: file, line: line)
            }
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }
}
