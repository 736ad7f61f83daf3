import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// HTTP done right: statuses, redirects, refused connections and timeouts each end in a typed
/// error that names the URL the caller asked for.
final class DownloadHTTPFailureTests: DownloaderTestCase {
    func test_statusOtherThan2xx_isAnHTTPStatusError_andNoBodyIsDelivered() {
        // Given
        for status in [404, 500] { server.respond(to: "/\(status).png", with: .status(status)) }
        makeDownloader()
        // When
        download("/404.png")
        download("/500.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/404.png")?.error, .httpStatus(server.url("/404.png"), code: 404))
        XCTAssertEqual(outcomes.outcome("/500.png")?.error, .httpStatus(server.url("/500.png"), code: 500))
        XCTAssertTrue(bodyFiles().isEmpty, "\(bodyFiles())")
    }

    func test_redirects_areFollowed() {
        // Given
        server.respond(to: "/old.png", with: .redirect(to: "/middle.png", status: 301))
        server.respond(to: "/middle.png", with: .redirect(to: server.url("/new.png").absoluteString, status: 307))
        server.respond(to: "/new.png", with: .ok([42]))
        makeDownloader()
        // When
        download("/old.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/old.png")?.bytes, [42])
        XCTAssertEqual(server.receivedRequests.map(\.target), ["/old.png", "/middle.png", "/new.png"])
    }

    func test_tenRedirects_areFollowed_anEleventhFails() {
        // Given: /r0 → /r1 → … → /r10 answers; /s0 → … → /s11 answers
        for hop in 0..<10 { server.respond(to: "/r\(hop)", with: .redirect(to: "/r\(hop + 1)")) }
        server.respond(to: "/r10", with: .ok([10]))
        for hop in 0..<11 { server.respond(to: "/s\(hop)", with: .redirect(to: "/s\(hop + 1)")) }
        server.respond(to: "/s11", with: .ok([11]))
        makeDownloader()
        // When
        download("/r0")
        download("/s0")
        // Then
        XCTAssertEqual(outcomes.outcome("/r0")?.bytes, [10])
        XCTAssertEqual(
            outcomes.outcome("/s0")?.error, .downloadFailed(server.url("/s0"), reason: "more than 10 redirects"))
        XCTAssertEqual(server.statistics.requests(to: "/s11"), 0)
    }

    func test_redirectLoop_failsAfterTenRedirects() {
        // Given
        server.respond(to: "/ping", with: .redirect(to: "/pong"))
        server.respond(to: "/pong", with: .redirect(to: "/ping"))
        makeDownloader()
        // When
        download("/ping")
        // Then
        XCTAssertEqual(
            outcomes.outcome("/ping")?.error, .downloadFailed(server.url("/ping"), reason: "more than 10 redirects"))
        XCTAssertEqual(server.statistics.requests(to: "/ping") + server.statistics.requests(to: "/pong"), 11)
    }

    func test_refusedConnection_isADownloadFailure_namingTheURL() throws {
        // Given: a port nobody listens on
        let port = try XCTUnwrap(Self.closedLoopbackPort())
        let url = URL(string: "http://127.0.0.1:\(port)/nobody.png")!
        makeDownloader()
        // When
        _ = downloader.download(
            URLSource(url, cacheKey: nil), priority: .normal, completion: outcomes.recorder("refused"))
        // Then
        guard case .downloadFailed(let failedURL, let reason) = outcomes.outcome("refused")?.error else {
            return XCTFail("expected a download failure, got \(String(describing: outcomes.outcome("refused")))")
        }
        XCTAssertEqual(failedURL, url)
        XCTAssertTrue(reason.contains("connect"), reason)
    }

    func test_serverTooSlowToAnswer_isADownloadFailure_afterTheTimeout() {
        // Given
        var response = HTTPScriptedResponse.ok([1])
        response.delayBeforeHeaders = 5
        server.respond(to: "/slow.png", with: response)
        makeDownloader(timeout: 0.3)
        // When
        let start = Date()
        download("/slow.png")
        // Then
        guard case .downloadFailed(let url, let reason) = outcomes.outcome("/slow.png")?.error else {
            return XCTFail("expected a download failure, got \(String(describing: outcomes.outcome("/slow.png")))")
        }
        XCTAssertEqual(url, server.url("/slow.png"))
        XCTAssertTrue(reason.contains("timed out"), reason)
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    /// A port on 127.0.0.1 that was free a moment ago: bound, then closed unlistened.
    private static func closedLoopbackPort() -> UInt16? {
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: address.sin_port) : nil
    }
}
