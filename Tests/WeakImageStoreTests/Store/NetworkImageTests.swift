import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// `.url` requests through the whole store, against a real HTTP server on loopback: one transfer
/// per URL, cancellation down to the socket, downloads that hold no loading thread, synchronous
/// lookups that never wait on the network, and failures that reach everyone and are not kept.
final class NetworkImageTests: XCTestCase {
    private var server: LoopbackHTTPServer!

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer()
    }

    override func tearDown() {
        _ = server.stop()
        server = nil
    }

    /// A body the fake decoder reads as a `size` × 1 image of `fill`.
    private func body(size: Int, fill: UInt8) -> [UInt8] {
        [UInt8](repeating: fill, count: size)
    }

    private func makeStore(
        decoder: FakeDecoder = FakeDecoder(), maximumConcurrentLoads: Int = 2,
        downloader: ImageDownloader = ImageDownloader(failureBackoff: 0)
    ) -> ImageStore<Bitmap> {
        var configuration = ImageStore<Bitmap>.Configuration(directories: [], decoder: decoder)
        configuration.policy = .weak
        configuration.maximumConcurrentLoads = maximumConcurrentLoads
        configuration.downloader = downloader
        return ImageStore(configuration)
    }

    func test_concurrentRequestsForOneURL_makeOneGET_andOneDecodePerSize() async throws {
        // Held long enough for every load (one per size, on two loading threads) to join the
        // transfer: a load that starts after it ended would rightly send a second GET (a CI run
        // on a busy machine saw 2).
        var response = HTTPScriptedResponse.ok(body(size: 400, fill: 7))
        response.delayBeforeHeaders = 0.3
        server.respond(to: "/photo", with: response)
        var decoder = FakeDecoder()
        decoder.makesThumbnails = true
        let store = makeStore(decoder: decoder)
        let url = server.url("/photo")

        let images = try await withThrowingTaskGroup(of: Bitmap.self) { group in
            for index in 0..<100 {
                let size: Int? = [nil, 100, 200][index % 3]
                group.addTask { try await store.fetchImage(for: .url(url, maxPixelSize: size), priority: .normal) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let prefetch = store.prefetch([.url(url), .url(url, maxPixelSize: 100)])
        await prefetch.finished()

        XCTAssertEqual(images.count, 100)
        XCTAssertEqual(server.statistics.requests(to: "/photo"), 1, "one transfer, whoever asks")
        XCTAssertEqual(Set(images.map(\.width)), [400, 100, 200])
        XCTAssertEqual(decoder.log.entries.map(\.maxPixelSize).sorted { ($0 ?? 0) < ($1 ?? 0) }, [nil, 100, 200])
        XCTAssertEqual(store.statistics.downloadsStarted, 1)
        XCTAssertEqual(store.statistics.downloadsCompleted, 1)
        XCTAssertEqual(store.statistics.bytesDownloaded, 400)
    }

    func test_synchronousLookup_neverWaitsOnTheNetwork_andAnswersFromMemoryOnceLoaded() async throws {
        server.respond(to: "/icon", with: .ok(body(size: 30, fill: 3)))
        let store = makeStore()
        let request = ImageRequest.url(server.url("/icon"))

        XCTAssertThrowsError(try store.loadImage(for: request)) { error in
            XCTAssertEqual(error as? ImageStoreError, .notInMemoryOrOnDisk(server.url("/icon")))
        }
        let synchronousImage: (ImageRequest) -> Bitmap? = store.image(for:)
        XCTAssertNil(synchronousImage(request))
        XCTAssertEqual(server.statistics.totalRequests, 0, "a synchronous lookup sends nothing")

        let loaded = try await store.fetchImage(for: request)
        XCTAssertIdentical(try store.loadImage(for: request), loaded)
        XCTAssertIdentical(store.cachedImage(for: request), loaded)
        XCTAssertEqual(server.statistics.requests(to: "/icon"), 1)
    }

    func test_lastWaiterLeaving_stopsTheTransferAtTheSocket_andKeepsNothing() async throws {
        var slow = HTTPScriptedResponse.ok(body(size: 200_000, fill: 5))
        slow.drip = .init(bytesPerPiece: 1_000, interval: 0.01)
        server.respond(to: "/slow", with: slow)
        let decoder = FakeDecoder()
        let store = makeStore(decoder: decoder)
        let request = ImageRequest.url(server.url("/slow"))

        let task = Task { try await store.fetchImage(for: request) }
        XCTAssertTrue(server.waitForRequests(to: "/slow", count: 1))
        task.cancel()

        let result = await task.result
        XCTAssertEqual(result.failure as? ImageStoreError, .cancelled)
        XCTAssertTrue(server.waitForAbortedResponses(count: 1), "the server saw the connection closed mid-body")
        XCTAssertTrue(eventually { store.statistics.downloadsCancelled == 1 })
        XCTAssertEqual(decoder.calls.count, 0, "nothing partial is decoded")
        XCTAssertNil(store.cachedImage(for: request))
    }

    func test_aTransferSomeoneStillWaitsFor_goesOn() async throws {
        var gated = HTTPScriptedResponse.ok(body(size: 50, fill: 4))
        gated.gate = "body"
        server.respond(to: "/shared", with: gated)
        let store = makeStore()
        let request = ImageRequest.url(server.url("/shared"))

        let leaving = Task { try await store.fetchImage(for: request) }
        let staying = Task { try await store.fetchImage(for: request, priority: .high) }
        XCTAssertTrue(server.waitForRequests(to: "/shared", count: 1))
        leaving.cancel()
        _ = await leaving.result
        server.openGate("body")

        let image = try await staying.value
        XCTAssertEqual(image.width, 50)
        XCTAssertEqual(server.statistics.requests(to: "/shared"), 1)
        XCTAssertEqual(server.statistics.responsesAbortedByClient, 0)
    }

    func test_waitingOnTheNetwork_holdsNoLoadingThread() async throws {
        var gated = HTTPScriptedResponse.ok(body(size: 60, fill: 6))
        gated.gate = "never-before-the-file"
        server.respond(to: "/stalled", with: gated)
        let directory = TestDirectory()
        directory.write("local.png", size: 10, fill: 1)
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url], decoder: FakeDecoder())
        configuration.policy = .weak
        configuration.maximumConcurrentLoads = 1
        configuration.downloader = ImageDownloader(failureBackoff: 0)
        let store = ImageStore(configuration)

        let stalledURL = server.url("/stalled")
        let stalled = Task { try await store.fetchImage(for: .url(stalledURL), priority: .veryHigh) }
        XCTAssertTrue(server.waitForRequests(to: "/stalled", count: 1))
        let local = try await store.fetchImage(for: .named("local"), priority: .low)

        XCTAssertEqual(local.width, 10, "the only loading thread was free while the download waited")
        server.openGate("never-before-the-file")
        let remote = try await stalled.value
        XCTAssertEqual(remote.width, 60)
    }

    func test_manyCancelledBeforeTheirTurn_neverReachTheServer() async throws {
        var held = HTTPScriptedResponse.ok(body(size: 10, fill: 1))
        held.gate = "turn"
        for index in 0..<200 { server.respond(to: "/p\(index)", with: held) }
        let store = makeStore(downloader: ImageDownloader(maximumConcurrentDownloads: 6, failureBackoff: 0))
        let urls = (0..<200).map { server.url("/p\($0)") }

        let tasks = urls.map { url in Task { try await store.fetchImage(for: .url(url)) } }
        XCTAssertTrue(server.waitUntil { $0.totalRequests == 6 }, "the first six transfers are under way")
        let running = Set(server.receivedRequests.map(\.path))
        XCTAssertEqual(running.count, 6)
        let queued = urls.indices.filter { !running.contains("/p\($0)") }
        // 190 of the queued ones leave before their turn; 4 queued ones and the 6 running stay.
        for index in queued.prefix(190) { tasks[index].cancel() }
        for index in queued.prefix(190) { _ = await tasks[index].result }
        server.openGate("turn")
        let wanted = Set(urls.indices).subtracting(queued.prefix(190))
        for index in wanted { _ = try await tasks[index].value }

        XCTAssertLessThanOrEqual(server.statistics.totalRequests, 16)
        XCTAssertEqual(server.statistics.totalRequests, 10, "only the transfers still wanted reached the server")
        XCTAssertEqual(store.statistics.downloadsCompleted, 10)
    }

    func test_networkPictures_countAsLiveBytes_andSurviveMemoryPressureWhileHeld() async throws {
        server.respond(to: "/held", with: .ok(body(size: 100, fill: 8)))
        server.respond(to: "/icon", with: .ok(body(size: 10, fill: 9)))
        var configuration = ImageStore<Bitmap>.Configuration(directories: [], decoder: FakeDecoder())
        configuration.policy = .weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 50)
        configuration.downloader = ImageDownloader(failureBackoff: 0)
        let store = ImageStore(configuration)
        let heldRequest = ImageRequest.url(server.url("/held"))
        let iconRequest = ImageRequest.url(server.url("/icon"))

        let held = try await store.fetchImage(for: heldRequest)
        _ = try await store.fetchImage(for: iconRequest)
        XCTAssertEqual(store.statistics.liveCost, 110, "the held picture and the icon the LRU keeps")
        store.handleMemoryPressure(.critical)

        // The loading thread that delivered the icon may hold it for a moment longer.
        XCTAssertTrue(
            eventually { store.statistics.liveCost == 100 }, "the LRU let the icon go; the held picture lives")
        XCTAssertIdentical(store.cachedImage(for: heldRequest), held, "what is on screen is never dropped")
        XCTAssertNil(store.cachedImage(for: iconRequest))
        XCTAssertEqual(server.statistics.requests(to: "/held"), 1)
    }

    func test_failures_reachEveryWaiter_andAreNotCachedAsImages() async throws {
        server.respond(to: "/missing", withSequence: [.status(404), .ok(body(size: 20, fill: 2))])
        let store = makeStore()
        let request = ImageRequest.url(server.url("/missing"))

        let errors = await withTaskGroup(of: ImageStoreError?.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    do {
                        _ = try await store.fetchImage(for: request)
                        return nil
                    } catch {
                        return error as? ImageStoreError
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        XCTAssertEqual(errors, [ImageStoreError?](repeating: .httpStatus(server.url("/missing"), code: 404), count: 5))
        XCTAssertEqual(server.statistics.requests(to: "/missing"), 1)
        let second = try await store.fetchImage(for: request)
        XCTAssertEqual(second.width, 20, "without a back-off the next lookup asks again")
        XCTAssertEqual(server.statistics.requests(to: "/missing"), 2)
    }

    func test_undecodableBody_isATypedErrorThatNamesTheRequest() async {
        server.respond(to: "/garbage", with: .ok(Array("FAIL: not an image".utf8)))
        let store = makeStore()
        let url = server.url("/garbage")

        do {
            _ = try await store.fetchImage(for: .url(url))
            XCTFail("decoded garbage")
        } catch {
            XCTAssertEqual(error, .undecodable(.url(url), reason: "fake decoder refused the file"))
        }
    }

    func test_removeAll_cancelsTransfersNobodyElseNeeds() async throws {
        var gated = HTTPScriptedResponse.ok(body(size: 80_000, fill: 9))
        gated.drip = .init(bytesPerPiece: 1_000, interval: 0.01)
        server.respond(to: "/big", with: gated)
        let store = makeStore()

        let bigURL = server.url("/big")
        let task = Task { try await store.fetchImage(for: .url(bigURL)) }
        XCTAssertTrue(server.waitForRequests(to: "/big", count: 1))
        XCTAssertTrue(eventually { store.engine._withState { !$0.loads.inFlight.operations.isEmpty } })
        store.removeAll()

        let result = await task.result
        XCTAssertEqual(result.failure as? ImageStoreError, .cancelled)
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
    }

    func test_statistics_addUp_forURLs() async throws {
        server.respond(to: "/a", with: .ok(body(size: 10, fill: 1)))
        server.respond(to: "/b", with: .ok(body(size: 12, fill: 2)))
        let store = makeStore()

        let first = try await store.fetchImage(for: .url(server.url("/a")))
        _ = try await store.fetchImage(for: .url(server.url("/a")))
        _ = try await store.fetchImage(for: .url(server.url("/b")))
        _ = first

        let statistics = store.statistics
        XCTAssertEqual(
            statistics.lookups,
            statistics.strongHits + statistics.weakHits + statistics.misses + statistics.coalescedLoads)
        XCTAssertEqual(statistics.weakHits, 1)
        XCTAssertEqual(statistics.downloadsStarted, 2)
        XCTAssertEqual(statistics.downloadsCompleted, 2)
        XCTAssertEqual(statistics.bytesDownloaded, 22)
        XCTAssertEqual(statistics.decodes, 2)
    }
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
