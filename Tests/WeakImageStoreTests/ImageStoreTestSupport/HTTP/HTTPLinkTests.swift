import Foundation
import ImageStoreTestSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A server-wide link slows every response like a phone's network: latency before each
/// response, a bandwidth cap on each connection.
final class HTTPLinkTests: XCTestCase {
    private func timeToFetch(_ target: String, from server: LoopbackHTTPServer) -> (seconds: Double, bytes: Int) {
        let client = URLSessionTestClient()
        let start = Date()
        let fetched = client.fetch(server.url(target))
        return (Date().timeIntervalSince(start), fetched.body.count)
    }

    func test_latency_delaysEveryResponse() throws {
        // Given
        let server = try LoopbackHTTPServer(link: HTTPLink(latency: 0.3))
        defer { XCTAssertTrue(server.stop()) }
        server.respond(to: "/a", with: .ok([1]))
        // When
        let first = timeToFetch("/a", from: server)
        server.link = .unlimited
        let second = timeToFetch("/a", from: server)
        // Then
        XCTAssertGreaterThanOrEqual(first.seconds, 0.3)
        XCTAssertLessThan(second.seconds, 0.3)
    }

    func test_bandwidthCap_pacesTheBytes() throws {
        // Given: 30 000 bytes at 100 000 bytes/s take about 0.3 s
        let server = try LoopbackHTTPServer(link: HTTPLink(bytesPerSecond: 100_000))
        defer { XCTAssertTrue(server.stop()) }
        server.respond(to: "/photo", with: .ok([UInt8](repeating: 3, count: 30_000)))
        // When
        let capped = timeToFetch("/photo", from: server)
        // Then
        XCTAssertEqual(capped.bytes, 30_000)
        XCTAssertGreaterThanOrEqual(capped.seconds, 0.25)
        XCTAssertLessThan(capped.seconds, 2)
    }
}
