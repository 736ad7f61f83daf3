import Foundation
import ImageStoreTestSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each scripted fault reaches the client as scripted: delays, drips, lying lengths,
/// close-delimited bodies, connections closed mid-body, statuses, redirects and loops, and a
/// client that gives up.
final class HTTPScriptedFaultTests: XCTestCase {
    private var server: LoopbackHTTPServer!
    private var client: URLSessionTestClient!

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer()
        client = URLSessionTestClient()
    }

    override func tearDown() {
        client = nil
        XCTAssertTrue(server.stop())
        server = nil
    }

    private func script(_ body: [UInt8] = Array("hello".utf8), _ change: (inout HTTPScriptedResponse) -> Void)
        -> HTTPScriptedResponse
    {
        var response = HTTPScriptedResponse.ok(body)
        change(&response)
        return response
    }

    /// Sends a GET for `target` on a raw connection and reads until the server closes.
    private func rawGet(_ target: String) throws -> (head: String, body: [UInt8], closedByServer: Bool) {
        let raw = try XCTUnwrap(RawHTTPClient(port: server.port))
        raw.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
        let (bytes, closed) = raw.readToEnd()
        let headEnd = try XCTUnwrap(
            bytes.indices.first { bytes[$0...].starts(with: Array("\r\n\r\n".utf8)) }, "no end of headers")
        return (String(decoding: bytes[..<headEnd], as: UTF8.self), Array(bytes[(headEnd + 4)...]), closed)
    }

    func test_delayBeforeHeaders_holdsTheWholeResponse() {
        // Given
        server.respond(to: "/late", with: script { $0.delayBeforeHeaders = 0.3 })
        // When
        let start = Date()
        let fetched = client.fetch(server.url("/late"))
        // Then
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.3)
        XCTAssertEqual(String(decoding: fetched.body, as: UTF8.self), "hello")
    }

    func test_drip_sendsTheBodyInTimedPieces_andTheCounterFollowsThem() {
        // Given: 5 pieces of 2 bytes, 0.1 s apart
        server.respond(to: "/drip", with: script([UInt8](0..<10)) { $0.drip = .init(bytesPerPiece: 2, interval: 0.1) })
        // When
        let start = Date()
        _ = client.start(server.url("/drip"))
        // Then: the counter shows the first piece before the rest arrive
        XCTAssertTrue(server.waitUntil { $0.bodyBytesSent == 2 })
        XCTAssertTrue(server.waitUntil { $0.completedResponses == 1 })
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.4)
        XCTAssertEqual(server.statistics.bodyBytesSent, 10)
    }

    func test_bodyShorterThanContentLength_isSentAsScripted_thenTheConnectionCloses() throws {
        // Given: Content-Length says 10, the body has 4 bytes
        server.respond(to: "/short", with: script([1, 2, 3, 4]) { $0.contentLength = .declared(10) })
        // When
        let (head, body, closed) = try rawGet("/short")
        // Then
        XCTAssertTrue(head.contains("Content-Length: 10"), head)
        XCTAssertEqual(body, [1, 2, 3, 4])
        XCTAssertTrue(closed)
    }

    func test_bodyShorterThanContentLength_isAnErrorForURLSession() {
        server.respond(to: "/short", with: script([1, 2, 3, 4]) { $0.contentLength = .declared(10) })
        XCTAssertNotNil(client.fetch(server.url("/short")).error)
    }

    func test_bodyLongerThanContentLength_sendsTheExtraBytes() throws {
        // Given: Content-Length says 2, the body has 6 bytes
        server.respond(to: "/long", with: script([1, 2, 3, 4, 5, 6]) { $0.contentLength = .declared(2) })
        // When
        let (head, body, closed) = try rawGet("/long")
        // Then
        XCTAssertTrue(head.contains("Content-Length: 2"), head)
        XCTAssertEqual(body, [1, 2, 3, 4, 5, 6])
        XCTAssertTrue(closed)
    }

    func test_omittedContentLength_endsTheBodyByClosingTheConnection() throws {
        // Given
        server.respond(to: "/open-ended", with: script { $0.contentLength = .omitted })
        // When
        let (head, body, closed) = try rawGet("/open-ended")
        let fetched = client.fetch(server.url("/open-ended"))
        // Then
        XCTAssertFalse(head.lowercased().contains("content-length"), head)
        XCTAssertTrue(head.contains("Connection: close"), head)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "hello")
        XCTAssertTrue(closed)
        XCTAssertEqual(String(decoding: fetched.body, as: UTF8.self), "hello", "URLSession reads to the close")
    }

    func test_closeAfterBodyBytes_cutsTheBody_andURLSessionFails() throws {
        // Given
        server.respond(to: "/cut", with: script([UInt8](repeating: 9, count: 1_000)) { $0.closeAfterBodyBytes = 300 })
        // When
        let (head, body, closed) = try rawGet("/cut")
        let fetched = client.fetch(server.url("/cut"))
        // Then
        XCTAssertTrue(head.contains("Content-Length: 1000"), head)
        XCTAssertEqual(body.count, 300)
        XCTAssertTrue(closed)
        XCTAssertNotNil(fetched.error)
        XCTAssertEqual(server.statistics.responsesCutShortByScript, 2)
        XCTAssertEqual(server.statistics.bodyBytesSent, 600)
    }

    func test_statusCodes_reachTheClient() {
        for status in [200, 204, 400, 403, 404, 429, 500, 503] {
            server.respond(to: "/\(status)", with: .status(status))
            XCTAssertEqual(client.fetch(server.url("/\(status)")).status, status)
        }
    }

    func test_redirects_areFollowedByURLSession() {
        // Given
        server.respond(to: "/old", with: .redirect(to: "/middle", status: 301))
        server.respond(to: "/middle", with: .redirect(to: server.url("/new").absoluteString, status: 307))
        server.respond(to: "/new", with: .ok([42]))
        // When
        let fetched = client.fetch(server.url("/old"))
        // Then
        XCTAssertEqual(fetched.status, 200)
        XCTAssertEqual([UInt8](fetched.body), [42])
        XCTAssertEqual(fetched.response?.url?.path, "/new")
        XCTAssertEqual(server.receivedRequests.map(\.target), ["/old", "/middle", "/new"])
    }

    func test_redirectLoop_bouncesUntilTheClientGivesUp() {
        // Given
        server.respond(to: "/ping", with: .redirect(to: "/pong"))
        server.respond(to: "/pong", with: .redirect(to: "/ping"))
        // When
        let fetched = client.fetch(server.url("/ping"))
        // Then: the client gives up after a bounded number of hops (21 requests on Linux)
        XCTAssertEqual(fetched.error?.code, .httpTooManyRedirects)
        let hops = server.statistics.requests(to: "/ping") + server.statistics.requests(to: "/pong")
        XCTAssertGreaterThan(hops, 2)
        XCTAssertLessThan(hops, 100)
    }

    func test_cancelledTask_isSeenAsAResponseAbortedByTheClient() {
        // Given: a body that takes seconds to drip
        server.respond(
            to: "/big",
            with: script([UInt8](repeating: 0, count: 1_000)) {
                $0.drip = .init(bytesPerPiece: 10, interval: 0.05)
            })
        let task = client.start(server.url("/big"))
        XCTAssertTrue(server.waitUntil { $0.bodyBytesSent >= 10 })
        // When
        task.cancel()
        // Then
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
        XCTAssertEqual(server.statistics.abortedResponsesByTarget["/big"], 1)
        XCTAssertEqual(server.statistics.completedResponses, 0)
        XCTAssertLessThan(server.statistics.bodyBytesSent, 1_000)
    }

    func test_clientClosingDuringTheDelay_isAnAbortToo() throws {
        // Given
        server.respond(to: "/late", with: script { $0.delayBeforeHeaders = 5 })
        let raw = try XCTUnwrap(RawHTTPClient(port: server.port))
        raw.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(server.waitForRequests(to: "/late", count: 1))
        // When
        raw.closeNow()
        // Then
        XCTAssertTrue(server.waitForAbortedResponses(count: 1, timeout: 2))
    }

    func test_gate_holdsTheResponse_untilOpened() {
        // Given
        server.respond(to: "/held", with: script { $0.gate = "release" })
        let statuses = StatusLog()
        let done = DispatchSemaphore(value: 0)
        _ = client.start(server.url("/held")) { fetched in
            statuses.append(fetched.status)
            done.signal()
        }
        XCTAssertTrue(server.waitForRequests(to: "/held", count: 1))
        XCTAssertEqual(done.wait(timeout: .now() + 0.2), .timedOut, "held at the gate")
        // When
        server.openGate("release")
        // Then
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(statuses.values, [200])
    }
}
