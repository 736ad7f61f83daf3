import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// `.url` requests through a store with a ``DiskImageCache``, against a real HTTP server on
/// loopback: memory → disk → network, HTTP freshness and revalidation, stale pictures when the
/// network fails, and faults that fall back to the network.
final class DiskCacheStoreTests: XCTestCase {
    private var server: LoopbackHTTPServer!
    private var directory: URL!

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("disk-cache-store-\(UUID())")
    }

    override func tearDown() {
        _ = server.stop()
        server = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// A body the fake decoder reads as a `size` × 1 image of `fill`.
    private func body(size: Int, fill: UInt8) -> [UInt8] {
        [UInt8](repeating: fill, count: size)
    }

    private func response(
        _ bytes: [UInt8], cacheControl: String? = nil, entityTag: String? = nil, lastModified: String? = nil
    ) -> HTTPScriptedResponse {
        var response = HTTPScriptedResponse.ok(bytes, contentType: "image/png")
        if let cacheControl { response.headers.append((name: "Cache-Control", value: cacheControl)) }
        response.entityTag = entityTag
        response.lastModified = lastModified
        return response
    }

    /// A store over the test's cache folder: a new one is a relaunched app, memory empty.
    private func makeStore(
        decoder: FakeDecoder = FakeDecoder(), defaultLifetime: TimeInterval = 7 * 24 * 3600,
        maximumLifetime: TimeInterval = 30 * 24 * 3600
    ) throws -> (ImageStore<Bitmap>, DiskImageCache) {
        let cache = try DiskImageCache(
            directory: directory, defaultLifetime: defaultLifetime, maximumLifetime: maximumLifetime)
        var configuration = ImageStore<Bitmap>.Configuration(directories: [], decoder: decoder)
        configuration.policy = .weak
        configuration.maximumConcurrentLoads = 2
        configuration.downloader = ImageDownloader(failureBackoff: 0)
        configuration.diskCache = cache
        let store = ImageStore(configuration)
        return (store, cache)
    }

    func test_aSmallBodyUnderWay_whoseLastWaiterLeaves_finishesIntoTheDiskCache() async throws {
        // A 60 KB body dripping in: too small to keep as a partial body, so cut it would be sent
        // whole again by the next lookup.
        var dripping = response(body(size: 60_000, fill: 3), cacheControl: "max-age=3600", entityTag: "\"a\"")
        dripping.drip = .init(bytesPerPiece: 4_000, interval: 0.02)
        server.respond(to: "/avatar", with: dripping)
        let request = ImageRequest.url(server.url("/avatar"))
        let (store, cache) = try makeStore()

        let cell = Task { try await store.fetchImage(for: request) }
        // Headers in, a fifth of the body counted: the rest is within a partial body's length, and
        // finishing it costs less than sending it all again.
        XCTAssertTrue(eventually { self.server.statistics.bodyBytesSent >= 12_000 }, "the body did not come")
        cell.cancel()
        _ = await cell.result

        XCTAssertTrue(server.waitUntil(timeout: 5) { $0.completedResponses == 1 }, "the transfer was cut")
        XCTAssertEqual(server.statistics.responsesAbortedByClient, 0)
        XCTAssertTrue(eventually { store.statistics.diskWrites == 1 }, "the finished body was not kept")
        let image = try await store.fetchImage(for: request)
        XCTAssertEqual(image.width, 60_000)
        XCTAssertEqual(server.statistics.requests(to: "/avatar"), 1, "the next lookup sent it again")
        XCTAssertEqual(store.statistics.downloadsCancelled, 0)
        _ = cache
    }

    func test_relaunchedStore_servesFreshEntriesFromDisk_withoutARequest() async throws {
        server.respond(to: "/a", with: response(body(size: 40, fill: 1), cacheControl: "max-age=3600"))
        let request = ImageRequest.url(server.url("/a"))
        let (first, _) = try makeStore()
        _ = try await first.fetchImage(for: request)
        XCTAssertEqual(first.statistics.diskWrites, 1)

        let decoder = FakeDecoder()
        let (relaunched, cache) = try makeStore(decoder: decoder)
        XCTAssertTrue(cache.containsData(for: request))
        XCTAssertNil(relaunched.cachedImage(for: request), "cachedImage(for:) never reads the disk")
        let image = try await relaunched.fetchImage(for: request)

        XCTAssertEqual(image.width, 40)
        XCTAssertEqual(server.statistics.requests(to: "/a"), 1, "a disk hit makes no request")
        XCTAssertEqual(relaunched.statistics.diskHits, 1)
        XCTAssertEqual(relaunched.statistics.downloadsStarted, 0)
        XCTAssertEqual(decoder.log.entries.count, 1)
        XCTAssertFalse(decoder.log.entries[0].onMainThread)
    }

    func test_synchronousLookup_answersFromAFreshDiskEntry_butNeverFromTheNetwork() async throws {
        server.respond(to: "/fresh", with: response(body(size: 20, fill: 2), cacheControl: "max-age=3600"))
        server.respond(to: "/stale", with: response(body(size: 21, fill: 3), cacheControl: "max-age=0"))
        let (first, _) = try makeStore()
        _ = try await first.fetchImage(for: .url(server.url("/fresh")))
        _ = try await first.fetchImage(for: .url(server.url("/stale")))

        let (relaunched, _) = try makeStore()
        XCTAssertEqual(try relaunched.loadImage(for: .url(server.url("/fresh"))).width, 20)
        XCTAssertThrowsError(try relaunched.loadImage(for: .url(server.url("/stale")))) { error in
            XCTAssertEqual(error as? ImageStoreError, .notInMemoryOrOnDisk(server.url("/stale")))
        }
        XCTAssertEqual(server.statistics.totalRequests, 2, "synchronous lookups send nothing")
    }

    func test_noStore_isNeverWritten() async throws {
        server.respond(to: "/private", with: response(body(size: 30, fill: 4), cacheControl: "no-store"))
        let request = ImageRequest.url(server.url("/private"))
        let (store, cache) = try makeStore()
        _ = try await store.fetchImage(for: request)

        XCTAssertFalse(cache.containsData(for: request))
        XCTAssertEqual(store.statistics.diskWrites, 0)
        let (relaunched, _) = try makeStore()
        _ = try await relaunched.fetchImage(for: request)
        XCTAssertEqual(server.statistics.requests(to: "/private"), 2)
    }

    func test_staleEntryWithETag_isRevalidated_304RefreshesWithoutWritingTheBody() async throws {
        server.respond(
            to: "/etag", with: response(body(size: 50, fill: 5), cacheControl: "max-age=0", entityTag: "\"v1\""))
        let request = ImageRequest.url(server.url("/etag"))
        let (first, _) = try makeStore()
        _ = try await first.fetchImage(for: request)

        let (relaunched, _) = try makeStore()
        let image = try await relaunched.fetchImage(for: request)

        XCTAssertEqual(image.width, 50)
        XCTAssertEqual(server.statistics.conditionalRequests, 1)
        XCTAssertEqual(server.statistics.notModifiedResponses, 1)
        XCTAssertEqual(relaunched.statistics.revalidations, 1)
        XCTAssertEqual(relaunched.statistics.diskWrites, 0, "a 304 writes no body")
        XCTAssertEqual(relaunched.statistics.diskHits, 1, "the body is read from disk")
    }

    func test_a304WithoutCacheControl_leavesTheStoredMaxAgeInForce() async throws {
        // Given: a picture sent with max-age=0, then confirmed by 304s that repeat only its ETag
        let picture = body(size: 20, fill: 4)
        server.respond(
            to: "/kept",
            withSequence: [
                response(picture, cacheControl: "max-age=0", entityTag: "\"k\""),
                response(picture, entityTag: "\"k\""), response(picture, entityTag: "\"k\""),
            ])
        let request = ImageRequest.url(server.url("/kept"))
        // When: three launches load it
        for _ in 0..<3 {
            let (store, _) = try makeStore()
            _ = try await store.fetchImage(for: request)
        }
        // Then: max-age=0 still holds after the first 304, so the third launch asks again
        XCTAssertEqual(server.statistics.requests(to: "/kept"), 3)
        XCTAssertEqual(server.statistics.notModifiedResponses, 2)
    }

    func test_staleEntryWithLastModified_replacedByA200() async throws {
        let old = HTTPDate.string(from: Date(timeIntervalSince1970: 1_700_000_000))
        let new = HTTPDate.string(from: Date(timeIntervalSince1970: 1_800_000_000))
        server.respond(
            to: "/modified",
            withSequence: [
                response(body(size: 10, fill: 6), cacheControl: "max-age=0", lastModified: old),
                response(body(size: 12, fill: 7), cacheControl: "max-age=3600", lastModified: new),
            ])
        let request = ImageRequest.url(server.url("/modified"))
        let (first, _) = try makeStore()
        _ = try await first.fetchImage(for: request)

        let (second, cache) = try makeStore()
        let image = try await second.fetchImage(for: request)

        XCTAssertEqual(image.width, 12, "the new body")
        XCTAssertEqual(server.statistics.conditionalRequests, 1)
        XCTAssertEqual(cache.data(for: request), Data(body(size: 12, fill: 7)))
        let (third, _) = try makeStore()
        _ = try await third.fetchImage(for: request)
        XCTAssertEqual(server.statistics.requests(to: "/modified"), 2, "the replacement is fresh")
    }

    func test_noCache_revalidatesEveryUseFromDisk() async throws {
        server.respond(
            to: "/nocache", with: response(body(size: 15, fill: 8), cacheControl: "no-cache", entityTag: "\"n\""))
        let request = ImageRequest.url(server.url("/nocache"))
        let (first, _) = try makeStore()
        _ = try await first.fetchImage(for: request)
        for _ in 0..<3 {
            let (relaunched, _) = try makeStore()
            _ = try await relaunched.fetchImage(for: request)
        }
        XCTAssertEqual(server.statistics.requests(to: "/nocache"), 4)
        XCTAssertEqual(server.statistics.notModifiedResponses, 3)
    }

    func test_noFreshnessInformation_usesTheDefaultLifetime() async throws {
        server.respond(to: "/plain", with: response(body(size: 9, fill: 9)))
        let request = ImageRequest.url(server.url("/plain"))
        let (immediate, _) = try makeStore(defaultLifetime: 0)
        _ = try await immediate.fetchImage(for: request)
        let (stillImmediate, _) = try makeStore(defaultLifetime: 0)
        _ = try await stillImmediate.fetchImage(for: request)
        XCTAssertEqual(server.statistics.requests(to: "/plain"), 2, "a zero default lifetime asks again")

        let (week, _) = try makeStore()
        _ = try await week.fetchImage(for: request)
        let (weekLater, _) = try makeStore()
        _ = try await weekLater.fetchImage(for: request)
        XCTAssertEqual(server.statistics.requests(to: "/plain"), 3, "stored fresh for the default 7 days")
    }

    func test_entryFreshBeyondTheMaximumLifetime_isRevalidated() async throws {
        // Given: an entry whose index says it is fresh for a century, as an altered index would
        server.respond(to: "/century", with: response(body(size: 8, fill: 8), cacheControl: "max-age=60"))
        let request = ImageRequest.url(server.url("/century"))
        let (_, cache) = try makeStore()
        let source = try XCTUnwrap(DiskImageCache.storedSource(of: request))
        let century = ResponseValidity(
            freshUntil: Date().timeIntervalSince1970 + 100 * 365 * 86_400, revalidatesEveryUse: false,
            entityTag: nil, lastModified: nil)
        _ = try cache.write(Data(body(size: 7, fill: 7)), validity: century, for: source.identity)
        // When
        let (store, _) = try makeStore()
        let image = try await store.fetchImage(for: request)
        // Then: asked the server
        XCTAssertEqual(server.statistics.requests(to: "/century"), 1, "a century's freshness was believed")
        XCTAssertEqual(image.width, 8)
    }

    func test_aServersLongMaxAge_isFreshForTheMaximumLifetime_only() async throws {
        // Given: a response fresh for 68 years, a cache whose maximum is one second
        server.respond(to: "/forever", with: response(body(size: 6, fill: 6), cacheControl: "max-age=2147483647"))
        let request = ImageRequest.url(server.url("/forever"))
        let (first, _) = try makeStore(maximumLifetime: 1)
        _ = try await first.fetchImage(for: request)
        // When: two seconds later, after a relaunch
        try await Task.sleep(nanoseconds: 2_000_000_000)
        let (later, _) = try makeStore(maximumLifetime: 1)
        _ = try await later.fetchImage(for: request)
        // Then
        XCTAssertEqual(server.statistics.requests(to: "/forever"), 2, "held for 68 years without asking")
    }

    func test_downloadsInProgress_countAgainstTheSizeLimit() async throws {
        // Given: a cache of 64 KiB, a body of 200 000 bytes
        server.respond(to: "/big", with: response(body(size: 200_000, fill: 4), cacheControl: "max-age=60"))
        let cache = try DiskImageCache(directory: directory, sizeLimit: 64 * 1024)
        var configuration = ImageStore<Bitmap>.Configuration(directories: [], decoder: FakeDecoder())
        configuration.policy = .weak
        configuration.maximumConcurrentLoads = 2
        configuration.downloader = ImageDownloader(failureBackoff: 0)
        configuration.diskCache = cache
        let store = ImageStore(configuration)
        // When
        do {
            _ = try await store.fetchImage(for: .url(server.url("/big")))
            XCTFail("200 000 bytes were kept in the folder of a 64 KiB cache")
        } catch {
            // Then
            guard case .downloadFailed(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("room for downloads"), reason)
        }
        // Given back when the session lets go of the stream, which may come after the delivery.
        XCTAssertTrue(
            eventually { cache.temporaryBudget.reservedBytes == 0 }, "the refused download's bytes were not given back")
        XCTAssertEqual(cache.temporaryBudget.refusals, 1)
    }

    func test_lockHeldByAnotherProcess_theStoreGoesOnFromTheNetwork_andCountsTheTimeouts() async throws {
        // Given: the cache's lock held elsewhere (flock locks belong to an open file description)
        server.respond(to: "/locked", with: response(body(size: 12, fill: 3), cacheControl: "max-age=60"))
        _ = try makeStore()
        let descriptor = open(directory.appendingPathComponent("lock").path, O_RDWR)
        defer { close(descriptor) }
        XCTAssertEqual(flock(descriptor, LOCK_EX | LOCK_NB), 0)
        let cache = try DiskImageCache(
            directory: directory, sizeLimit: 1 << 20, fileSystem: .posix, lockTimeout: 0.2)
        var configuration = ImageStore<Bitmap>.Configuration(directories: [], decoder: FakeDecoder())
        configuration.policy = .weak
        configuration.maximumConcurrentLoads = 2
        configuration.downloader = ImageDownloader(failureBackoff: 0)
        configuration.diskCache = cache
        let store = ImageStore(configuration)
        // When
        let image = try await store.fetchImage(for: .url(server.url("/locked")))
        // Then
        XCTAssertEqual(image.width, 12)
        XCTAssertGreaterThanOrEqual(store.statistics.diskLockTimeouts, 1)
        XCTAssertEqual(store.statistics.diskWrites, 0)
    }

    func test_networkFailure_servesTheStaleEntry() async throws {
        server.respond(to: "/offline", with: response(body(size: 33, fill: 10), cacheControl: "max-age=0"))
        let request = ImageRequest.url(server.url("/offline"))
        let (first, _) = try makeStore()
        _ = try await first.fetchImage(for: request)
        _ = server.stop()

        let (relaunched, _) = try makeStore()
        let image = try await relaunched.fetchImage(for: request)

        XCTAssertEqual(image.width, 33, "offline scrolling still shows the picture")
        XCTAssertEqual(relaunched.statistics.diskHits, 1)
    }

    func test_notFound_afterExpiry_isAnError_notTheStaleEntry() async throws {
        server.respond(
            to: "/gone",
            withSequence: [response(body(size: 14, fill: 11), cacheControl: "max-age=0"), .status(404)])
        let request = ImageRequest.url(server.url("/gone"))
        let (first, _) = try makeStore()
        _ = try await first.fetchImage(for: request)

        let (relaunched, _) = try makeStore()
        do {
            _ = try await relaunched.fetchImage(for: request)
            XCTFail("a 404 is the server's answer, not a network failure")
        } catch {
            XCTAssertEqual(error, .httpStatus(server.url("/gone"), code: 404))
        }
    }

    func test_entryAlteredBehindTheCache_isDropped_andDownloadedAgain() async throws {
        server.respond(to: "/altered", with: response(body(size: 64, fill: 12), cacheControl: "max-age=3600"))
        let request = ImageRequest.url(server.url("/altered"))
        let (first, _) = try makeStore()
        _ = try await first.fetchImage(for: request)
        try alterEveryBody(in: directory)

        let decoder = FakeDecoder()
        let (relaunched, _) = try makeStore(decoder: decoder)
        let image = try await relaunched.fetchImage(for: request)

        XCTAssertEqual(image.width, 64)
        XCTAssertEqual(decoder.log.fills, [12], "the altered bytes were never decoded")
        XCTAssertEqual(relaunched.statistics.diskErrors, 1)
        XCTAssertEqual(server.statistics.requests(to: "/altered"), 2)
    }

    func test_twoSizesOfOnePicture_shareOneTransferAndOneEntry() async throws {
        server.respond(to: "/photo", with: response(body(size: 300, fill: 13), cacheControl: "max-age=3600"))
        var decoder = FakeDecoder()
        decoder.makesThumbnails = true
        let (store, cache) = try makeStore(decoder: decoder)
        let url = server.url("/photo")

        async let full = store.fetchImage(for: .url(url))
        async let thumbnail = store.fetchImage(for: .url(url, maxPixelSize: 100))
        let (fullImage, thumbnailImage) = try await (full, thumbnail)

        XCTAssertEqual([fullImage.width, thumbnailImage.width], [300, 100])
        XCTAssertEqual(server.statistics.requests(to: "/photo"), 1)
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(store.statistics.diskWrites, 1)
    }

    func test_synchronousThumbnail_isDecodedFromDisk_atItsSize() async throws {
        server.respond(to: "/big", with: response(body(size: 500, fill: 14), cacheControl: "max-age=3600"))
        let (first, _) = try makeStore()
        _ = try await first.fetchImage(for: .url(server.url("/big")))

        var decoder = FakeDecoder()
        decoder.makesThumbnails = true
        let (relaunched, _) = try makeStore(decoder: decoder)
        let thumbnail = try relaunched.loadImage(for: .url(server.url("/big"), maxPixelSize: 50))
        let full = try relaunched.loadImage(for: .url(server.url("/big"), maxPixelSize: 900))

        XCTAssertEqual([thumbnail.width, full.width], [50, 500], "a size past the image's is the full image")
        XCTAssertIdentical(try relaunched.loadImage(for: .url(server.url("/big"), maxPixelSize: 50)), thumbnail)
        XCTAssertEqual(decoder.log.entries.map(\.maxPixelSize), [50, nil])
        XCTAssertEqual(server.statistics.totalRequests, 1)
    }

    func test_synchronousLookup_neverJoinsADownloadInFlight() async throws {
        var gated = response(body(size: 40, fill: 15), cacheControl: "max-age=3600")
        gated.gate = "hold"
        server.respond(to: "/held", with: gated)
        let (store, _) = try makeStore()
        let request = ImageRequest.url(server.url("/held"))
        let download = Task { try await store.fetchImage(for: request) }
        XCTAssertTrue(server.waitForRequests(to: "/held", count: 1))

        XCTAssertThrowsError(try store.loadImage(for: request)) { error in
            XCTAssertEqual(error as? ImageStoreError, .notInMemoryOrOnDisk(server.url("/held")))
        }
        server.openGate("hold")
        let image = try await download.value
        XCTAssertIdentical(try store.loadImage(for: request), image)
    }

    func test_fullDisk_theStoreGoesOnFromTheNetwork_andCountsTheError() async throws {
        server.respond(to: "/full", with: response(body(size: 70, fill: 16), cacheControl: "max-age=3600"))
        let disk = FillableFileSystem()
        let cache = try DiskImageCache(directory: directory, sizeLimit: 1 << 20, fileSystem: disk.fileSystem)
        disk.isFull = true
        var configuration = ImageStore<Bitmap>.Configuration(directories: [], decoder: FakeDecoder())
        configuration.policy = .weak
        configuration.downloader = ImageDownloader(failureBackoff: 0)
        configuration.diskCache = cache
        let store = ImageStore(configuration)

        let image = try await store.fetchImage(for: .url(server.url("/full")))

        XCTAssertEqual(image.width, 70)
        XCTAssertEqual(store.statistics.diskErrors, 1)
        XCTAssertEqual(store.statistics.diskWrites, 0)
        XCTAssertEqual(cache.count, 0, "nothing partial kept")
    }

    /// Flips one byte in the middle of every file whose name looks like a body (not the index,
    /// the lock file or temporary files), as a disk or another program might.
    private func alterEveryBody(in directory: URL) throws {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        var altered = 0
        while let file = enumerator?.nextObject() as? URL {
            guard try file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true,
                let data = try? Data(contentsOf: file), data.count == 64
            else { continue }
            var changed = data
            changed[32] ^= 0xFF
            try changed.write(to: file)
            altered += 1
        }
        XCTAssertEqual(altered, 1, "one body of 64 bytes")
    }
}
