import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Conditional requests: a stored response's validators go out as `If-None-Match` and
/// `If-Modified-Since`; a 304 completes with `.notModified` and no body file; a changed picture
/// comes back whole; the response carries its headers and times for the freshness rules.
final class DownloadRevalidationTests: DownloaderTestCase {
    private let lastModified = "Sun, 06 Nov 1994 08:49:37 GMT"

    private func stored(entityTag: String? = nil, lastModified: String? = nil) -> ResponseValidity {
        ResponseValidity(freshUntil: 0, revalidatesEveryUse: false, entityTag: entityTag, lastModified: lastModified)
    }

    private func lastRequest(to target: String) -> HTTPRequest? {
        server.receivedRequests.last { $0.target == target }
    }

    func test_anUnchangedPicture_withAnEntityTag_isNotModified() throws {
        // Given
        var picture = HTTPScriptedResponse.ok(bytes(5_000))
        picture.entityTag = "\"v1\""
        picture.headers.append(("Cache-Control", "max-age=60"))
        server.respond(to: "/a.png", with: picture)
        makeDownloader()
        // When
        let before = Date().timeIntervalSince1970
        download("/a.png", revalidating: stored(entityTag: "\"v1\""))
        // Then
        let response = try XCTUnwrap(outcomes.outcome("/a.png")?.get())
        guard case .notModified = response.content else { return XCTFail("expected notModified: \(response)") }
        XCTAssertEqual(lastRequest(to: "/a.png")?.value(forHeader: "If-None-Match"), "\"v1\"")
        XCTAssertNil(lastRequest(to: "/a.png")?.value(forHeader: "If-Modified-Since"))
        XCTAssertEqual(server.statistics.conditionalRequests, 1)
        XCTAssertEqual(server.statistics.notModifiedResponses, 1)
        XCTAssertEqual(response.headers["etag"], "\"v1\"")
        XCTAssertEqual(response.headers["cache-control"], "max-age=60")
        XCTAssertGreaterThanOrEqual(response.requestTime, before)
        XCTAssertGreaterThanOrEqual(response.responseTime, response.requestTime)
        XCTAssertLessThanOrEqual(response.responseTime, Date().timeIntervalSince1970)
        XCTAssertEqual(server.statistics.bodyBytesSent, 0)
        XCTAssertEqual(bodyFiles(), [])
        XCTAssertEqual(downloader.statistics.downloadsCompleted, 1)
    }

    func test_anUnchangedPicture_withALastModifiedDate_isNotModified() throws {
        // Given
        var picture = HTTPScriptedResponse.ok(bytes(5_000))
        picture.lastModified = lastModified
        server.respond(to: "/a.png", with: picture)
        makeDownloader()
        // When
        download("/a.png", revalidating: stored(lastModified: lastModified))
        // Then
        XCTAssertTrue(
            outcomes.outcome("/a.png")?.isNotModified ?? false, "\(String(describing: outcomes.outcome("/a.png")))")
        XCTAssertEqual(lastRequest(to: "/a.png")?.value(forHeader: "If-Modified-Since"), lastModified)
        XCTAssertNil(lastRequest(to: "/a.png")?.value(forHeader: "If-None-Match"))
        XCTAssertEqual(server.statistics.notModifiedResponses, 1)
    }

    func test_aChangedPicture_comesBackWhole() throws {
        // Given: the server has "v2" now
        var picture = HTTPScriptedResponse.ok(bytes(5_000))
        picture.entityTag = "\"v2\""
        picture.lastModified = lastModified
        server.respond(to: "/a.png", with: picture)
        makeDownloader()
        // When
        download("/a.png", revalidating: stored(entityTag: "\"v1\"", lastModified: "Sat, 05 Nov 1994 08:49:37 GMT"))
        // Then
        let response = try XCTUnwrap(outcomes.outcome("/a.png")?.get())
        XCTAssertEqual(response.body.map { [UInt8]($0) }, bytes(5_000))
        XCTAssertEqual(response.headers["etag"], "\"v2\"")
        XCTAssertEqual(response.headers["last-modified"], lastModified)
        XCTAssertEqual(lastRequest(to: "/a.png")?.value(forHeader: "If-None-Match"), "\"v1\"")
        XCTAssertEqual(server.statistics.notModifiedResponses, 0)
        XCTAssertEqual(bodyFiles(), [])
    }

    func test_aValidityWithoutValidators_makesAPlainRequest() {
        // Given
        server.respond(to: "/a.png", with: .ok([1, 2, 3]))
        makeDownloader()
        // When
        download("/a.png", revalidating: stored())
        // Then
        XCTAssertEqual(outcomes.outcome("/a.png")?.bytes, [1, 2, 3])
        XCTAssertEqual(server.statistics.conditionalRequests, 0)
    }

    func test_a304ToAPlainRequest_isAnHTTPFailure() {
        // Given
        server.respond(to: "/odd.png", with: HTTPScriptedResponse(status: 304))
        makeDownloader()
        // When
        download("/odd.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/odd.png")?.error, .httpStatus(server.url("/odd.png"), code: 304))
    }

    func test_aTicketJoiningAConditionalTransfer_getsItsNotModified() {
        // Given: a conditional transfer held at a gate
        var picture = HTTPScriptedResponse.ok(bytes(100))
        picture.entityTag = "\"v1\""
        picture.gate = "go"
        server.respond(to: "/a.png", with: picture)
        makeDownloader()
        download("/a.png", label: "revalidating", revalidating: stored(entityTag: "\"v1\""))
        XCTAssertTrue(server.waitForRequests(to: "/a.png", count: 1))
        // When: a plain ticket joins it
        download("/a.png", label: "joining")
        server.openGate("go")
        // Then: one request, and both tickets get the 304
        XCTAssertTrue(outcomes.wait(forCount: 2))
        XCTAssertTrue(outcomes.outcome("revalidating")?.isNotModified ?? false)
        XCTAssertTrue(outcomes.outcome("joining")?.isNotModified ?? false)
        XCTAssertEqual(server.statistics.totalRequests, 1)
    }

    func test_responseHeaders_areLowercased_andAllThere() throws {
        // Given
        var picture = HTTPScriptedResponse.ok([1])
        picture.headers += [("Cache-Control", "no-cache"), ("X-Custom", "Yes"), ("Age", "12")]
        server.respond(to: "/a.png", with: picture)
        makeDownloader()
        // When
        download("/a.png")
        // Then
        let headers = try XCTUnwrap(outcomes.outcome("/a.png")?.get()).headers
        XCTAssertEqual(headers["cache-control"], "no-cache")
        XCTAssertEqual(headers["x-custom"], "Yes")
        XCTAssertEqual(headers["age"], "12")
        XCTAssertEqual(headers["content-length"], "1")
        XCTAssertTrue(headers.keys.allSatisfy { $0 == $0.lowercased() }, "\(headers.keys)")
    }
}
