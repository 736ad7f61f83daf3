import Foundation
import ImageStoreTestSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server's life and bookkeeping: scripted answers, counters, keep-alive, concurrency,
/// waiting for events, and a stop that leaves nothing behind.
final class LoopbackHTTPServerTests: XCTestCase {
    private var server: LoopbackHTTPServer!
    private var client: URLSessionTestClient!

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer()
        client = URLSessionTestClient()
    }

    override func tearDown() {
        client = nil
        XCTAssertTrue(server.stop(), "every server thread ends")
        server = nil
    }

    func test_scriptedResponse_isServed_withItsStatusHeadersAndBody() {
        // Given
        server.respond(
            to: "/a.png",
            with: HTTPScriptedResponse(status: 203, headers: [("X-Test", "yes")], body: [1, 2, 3, 4]))
        // When
        let fetched = client.fetch(server.url("/a.png"))
        // Then
        XCTAssertNotEqual(server.port, 0)
        XCTAssertEqual(fetched.status, 203)
        XCTAssertEqual(fetched.header("X-Test"), "yes")
        XCTAssertEqual(fetched.header("Content-Length"), "4")
        XCTAssertEqual([UInt8](fetched.body), [1, 2, 3, 4])
        XCTAssertEqual(server.statistics.bodyBytesSent, 4)
        XCTAssertEqual(server.statistics.bodyBytesSentByTarget["/a.png"], 4)
        XCTAssertEqual(server.statistics.completedResponses, 1)
    }

    func test_unscriptedTarget_gets404() {
        let fetched = client.fetch(server.url("/missing"))
        XCTAssertEqual(fetched.status, 404)
        XCTAssertEqual(server.statistics.requests(to: "/missing"), 1)
    }

    func test_requests_areCountedPerTargetAndMethod_andTheQueryIsPartOfTheTarget() {
        // Given: a script for the path, which queries fall back to
        server.respond(to: "/img", with: .ok([9]))
        // When
        _ = client.fetch(server.url("/img"))
        _ = client.fetch(server.url("/img"), method: "HEAD")
        _ = client.fetch(server.url("/img?w=10"))
        // Then
        let statistics = server.statistics
        XCTAssertEqual(statistics.requests(to: "/img"), 2)
        XCTAssertEqual(statistics.requests(to: "/img", method: "GET"), 1)
        XCTAssertEqual(statistics.requests(to: "/img", method: "HEAD"), 1)
        XCTAssertEqual(statistics.requests(to: "/img?w=10", method: "GET"), 1)
        XCTAssertEqual(statistics.totalRequests, 3)
        XCTAssertEqual(server.receivedRequests.map(\.target), ["/img", "/img", "/img?w=10"])
        XCTAssertEqual(server.receivedRequests.last?.path, "/img")
    }

    func test_headRequest_getsTheHeadersOfAGet_andNoBody() throws {
        // Given
        server.respond(to: "/a", with: .ok([UInt8](repeating: 7, count: 100)))
        let raw = try XCTUnwrap(RawHTTPClient(port: server.port))
        // When
        raw.send("HEAD /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let (bytes, closed) = raw.readToEnd()
        // Then
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 OK\r\n"), text)
        XCTAssertTrue(text.contains("Content-Length: 100\r\n"), text)
        XCTAssertTrue(text.hasSuffix("\r\n\r\n"), "no body follows: \(text)")
        XCTAssertTrue(closed)
        XCTAssertEqual(server.statistics.bodyBytesSent, 0)
    }

    func test_sequence_answersInOrder_thenRepeatsTheLast() {
        // Given
        server.respond(to: "/flaky", withSequence: [.status(503), .ok([1]), .ok([2])])
        // When
        let fetched = (0..<4).map { _ in client.fetch(server.url("/flaky")) }
        // Then
        XCTAssertEqual(fetched.map(\.status), [503, 200, 200, 200])
        XCTAssertEqual(fetched.map { [UInt8]($0.body) }.dropFirst(), [[1], [2], [2]])
    }

    func test_sequentialRequests_shareOneKeepAliveConnection() {
        // Given
        server.respond(to: "/a", with: .ok([1]))
        // When
        for _ in 0..<5 { XCTAssertEqual(client.fetch(server.url("/a")).status, 200) }
        // Then
        XCTAssertEqual(server.statistics.requests(to: "/a"), 5)
        XCTAssertEqual(server.statistics.connectionsOpened, 1)
    }

    func test_smallResponses_onAKeepAliveConnection_takeWellUnderNaglesDelay() {
        // Given: with Nagle's algorithm and split writes every answer waits ~40 ms for an ACK
        server.respond(to: "/tiny", with: .ok([1]))
        _ = client.fetch(server.url("/tiny"))
        // When
        let durations = (0..<20).map { _ in
            let start = Date()
            _ = client.fetch(server.url("/tiny"))
            return Date().timeIntervalSince(start)
        }
        // Then: the fastest answer, since a loaded machine (CI under TSan) can slow any of them.
        // Nagle's delay is a 40 ms timer on every answer (44-48 ms measured); without it, an
        // answer takes about 1 ms, 17 ms under TSan, and 23-26 ms under TSan in a CI run.
        XCTAssertLessThan(durations.min() ?? .infinity, 0.035, "\(durations)")
        XCTAssertEqual(server.statistics.connectionsOpened, 1)
    }

    func test_pipelinedRequests_onOneConnection_areAnsweredInOrder() throws {
        // Given
        server.respond(to: "/1", with: .ok(Array("one".utf8)))
        server.respond(to: "/2", with: .ok(Array("two".utf8)))
        let raw = try XCTUnwrap(RawHTTPClient(port: server.port))
        // When
        raw.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let text = String(decoding: raw.readToEnd().bytes, as: UTF8.self)
        // Then
        let one = try XCTUnwrap(text.range(of: "\r\n\r\none"))
        let two = try XCTUnwrap(text.range(of: "\r\n\r\ntwo"))
        XCTAssertLessThan(one.lowerBound, two.lowerBound)
        XCTAssertEqual(server.statistics.connectionsOpened, 1)
    }

    func test_mostConcurrentConnections_countsConnectionsOpenAtOnce() {
        // Given: four requests held at a gate, so they are all open at once
        server.respond(
            to: "/held",
            with: {
                var response = HTTPScriptedResponse.ok([1])
                response.gate = "go"
                return response
            }())
        let finished = DispatchGroup()
        let statuses = StatusLog()
        for _ in 0..<4 {
            finished.enter()
            _ = client.start(server.url("/held")) { fetched in
                statuses.append(fetched.status)
                finished.leave()
            }
        }
        XCTAssertTrue(server.waitForRequests(to: "/held", count: 4))
        XCTAssertEqual(statuses.values, [], "nothing is answered before the gate opens")
        // When
        server.openGate("go")
        // Then
        XCTAssertEqual(finished.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(statuses.values, [200, 200, 200, 200])
        XCTAssertEqual(server.statistics.mostConcurrentConnections, 4)
        XCTAssertEqual(server.statistics.connectionsOpened, 4)
    }

    func test_waitUntil_returnsFalse_whenTheConditionNeverHolds() {
        let start = Date()
        XCTAssertFalse(server.waitUntil(timeout: 0.1) { $0.totalRequests > 0 })
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.1)
    }

    func test_resetStatistics_zeroesTheCounters() {
        server.respond(to: "/a", with: .ok([1]))
        _ = client.fetch(server.url("/a"))
        server.resetStatistics()
        XCTAssertEqual(server.statistics.totalRequests, 0)
        XCTAssertEqual(server.statistics.bodyBytesSent, 0)
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    func test_oversizedRequestHeaders_get431_andTheConnectionCloses() throws {
        // Given
        let server = try LoopbackHTTPServer(
            configuration: {
                var limits = LoopbackHTTPServer.Configuration()
                limits.maximumHeaderBytes = 1_024
                return limits
            }())
        defer { server.stop() }
        let raw = try XCTUnwrap(RawHTTPClient(port: server.port))
        // When
        raw.send("GET / HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: 2_000))\r\n\r\n")
        let (bytes, closed) = raw.readToEnd()
        // Then
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 431 "))
        XCTAssertTrue(closed)
    }

    func test_stop_endsResponsesUnderWay_closesEveryDescriptor_andRefusesNewConnections() throws {
        // Given: a second server in the middle of a slow response
        let descriptorsBefore = Self.openDescriptors()
        let slow = try LoopbackHTTPServer()
        var response = HTTPScriptedResponse.ok([UInt8](repeating: 1, count: 100))
        response.drip = .init(bytesPerPiece: 1, interval: 1)
        slow.respond(to: "/slow", with: response)
        let raw = try XCTUnwrap(RawHTTPClient(port: slow.port))
        raw.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(slow.waitUntil { $0.bodyBytesSent == 1 })
        // When
        let start = Date()
        let stopped = slow.stop()
        // Then
        XCTAssertTrue(stopped)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "stopping does not wait out the drip")
        XCTAssertTrue(raw.readToEnd().closedByServer)
        XCTAssertNil(RawHTTPClient(port: slow.port), "nothing listens any more")
        XCTAssertTrue(slow.stop(), "a second stop does nothing")
        XCTAssertEqual(slow.statistics.openConnections, 0)
        let opened = Self.openDescriptors().subtracting(descriptorsBefore)
        XCTAssertEqual(opened.count, 1, "only the raw client's socket is left: \(opened)")
    }

    /// The process's open file descriptors, each with what it refers to (`socket:[inode]`, a
    /// path): what earlier tests' sessions close meanwhile does not count, and a descriptor
    /// number reused for a new socket does.
    private static func openDescriptors() -> Set<String> {
        let numbers = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd")) ?? []
        return Set(
            numbers.compactMap { number in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/dev/fd/\(number)")).map {
                    "\(number) \($0)"
                }
            })
    }
}

/// Statuses collected from completion handlers on URLSession's threads.
final class StatusLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Int?] = []

    func append(_ status: Int?) {
        lock.withLock { statuses.append(status) }
    }

    var values: [Int?] {
        lock.withLock { statuses }
    }
}
