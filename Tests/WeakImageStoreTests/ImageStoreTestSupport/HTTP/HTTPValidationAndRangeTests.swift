import Foundation
import ImageStoreTestSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Validators answer conditional requests with 304, ranges get 206 (or 416, or the whole body
/// when `If-Range` no longer matches), and caching headers go out exactly as scripted.
final class HTTPValidationAndRangeTests: XCTestCase {
    private var server: LoopbackHTTPServer!
    private var client: URLSessionTestClient!
    private let body = [UInt8](0..<100)
    private let lastModified = "Tue, 15 Nov 1994 12:45:26 GMT"

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer()
        client = URLSessionTestClient()
        var response = HTTPScriptedResponse.ok(body, contentType: "image/png")
        response.entityTag = "\"v1\""
        response.lastModified = lastModified
        response.supportsRanges = true
        response.headers += [("Cache-Control", "max-age=60"), ("Expires", "Tue, 15 Nov 1994 13:45:26 GMT")]
        server.respond(to: "/photo", with: response)
    }

    override func tearDown() {
        client = nil
        XCTAssertTrue(server.stop())
        server = nil
    }

    private func fetchPhoto(_ headers: [String: String]) -> URLSessionTestClient.Fetched {
        client.fetch(server.url("/photo"), headers: headers)
    }

    func test_plainGet_carriesTheValidatorsAndCachingHeadersAsScripted() {
        let fetched = fetchPhoto([:])
        XCTAssertEqual(fetched.status, 200)
        XCTAssertEqual(fetched.header("ETag"), "\"v1\"")
        XCTAssertEqual(fetched.header("Last-Modified"), lastModified)
        XCTAssertEqual(fetched.header("Cache-Control"), "max-age=60")
        XCTAssertEqual(fetched.header("Expires"), "Tue, 15 Nov 1994 13:45:26 GMT")
        XCTAssertEqual(fetched.header("Accept-Ranges"), "bytes")
        XCTAssertEqual([UInt8](fetched.body), body)
        XCTAssertEqual(server.statistics.conditionalRequests, 0)
    }

    func test_ifNoneMatch_withTheCurrentTag_gets304_withoutABody() {
        // When
        let fetched = fetchPhoto(["If-None-Match": "\"v0\", W/\"v1\""])
        // Then: a weak match is enough for If-None-Match
        XCTAssertEqual(fetched.status, 304)
        XCTAssertEqual(fetched.body.count, 0)
        XCTAssertEqual(fetched.header("ETag"), "\"v1\"")
        XCTAssertEqual(fetched.header("Cache-Control"), "max-age=60")
        XCTAssertEqual(server.statistics.conditionalRequests, 1)
        XCTAssertEqual(server.statistics.notModifiedResponses, 1)
        XCTAssertEqual(server.statistics.bodyBytesSent, 0)
    }

    func test_ifNoneMatch_withAnOldTag_getsTheBody() {
        let fetched = fetchPhoto(["If-None-Match": "\"v0\""])
        XCTAssertEqual(fetched.status, 200)
        XCTAssertEqual([UInt8](fetched.body), body)
        XCTAssertEqual(server.statistics.conditionalRequests, 1)
        XCTAssertEqual(server.statistics.notModifiedResponses, 0)
    }

    func test_ifModifiedSince_comparesDates() {
        XCTAssertEqual(fetchPhoto(["If-Modified-Since": lastModified]).status, 304)
        XCTAssertEqual(fetchPhoto(["If-Modified-Since": "Wed, 16 Nov 1994 00:00:00 GMT"]).status, 304)
        XCTAssertEqual(fetchPhoto(["If-Modified-Since": "Mon, 14 Nov 1994 00:00:00 GMT"]).status, 200)
    }

    func test_ifNoneMatch_decides_evenWhenIfModifiedSinceWouldMatch() {
        let fetched = fetchPhoto(["If-None-Match": "\"v0\"", "If-Modified-Since": lastModified])
        XCTAssertEqual(fetched.status, 200)
    }

    func test_range_gets206_withTheSliceAndContentRange() {
        // When
        let middle = fetchPhoto(["Range": "bytes=10-19"])
        let tail = fetchPhoto(["Range": "bytes=90-"])
        let suffix = fetchPhoto(["Range": "bytes=-5"])
        // Then
        XCTAssertEqual(middle.status, 206)
        XCTAssertEqual([UInt8](middle.body), Array(body[10...19]))
        XCTAssertEqual(middle.header("Content-Range"), "bytes 10-19/100")
        XCTAssertEqual(middle.header("Content-Length"), "10")
        XCTAssertEqual([UInt8](tail.body), Array(body[90...]))
        XCTAssertEqual([UInt8](suffix.body), Array(body[95...]))
        XCTAssertEqual(server.statistics.rangeRequests, 3)
        XCTAssertEqual(server.statistics.partialContentResponses, 3)
        XCTAssertEqual(server.statistics.bodyBytesSent, 25)
    }

    func test_ifRange_matching_resumes_butAChangedValidator_getsTheWholeBody() {
        XCTAssertEqual(fetchPhoto(["Range": "bytes=50-", "If-Range": "\"v1\""]).status, 206)
        XCTAssertEqual(fetchPhoto(["Range": "bytes=50-", "If-Range": lastModified]).status, 206)
        let changed = fetchPhoto(["Range": "bytes=50-", "If-Range": "\"v0\""])
        XCTAssertEqual(changed.status, 200)
        XCTAssertEqual([UInt8](changed.body), body)
        XCTAssertEqual(
            fetchPhoto(["Range": "bytes=50-", "If-Range": "W/\"v1\""]).status, 200, "If-Range compares strongly")
    }

    func test_rangePastTheEnd_gets416() {
        let fetched = fetchPhoto(["Range": "bytes=100-"])
        XCTAssertEqual(fetched.status, 416)
        XCTAssertEqual(fetched.header("Content-Range"), "bytes */100")
    }

    func test_range_isIgnored_whenTheScriptDoesNotSupportRanges() {
        server.respond(to: "/plain", with: .ok(body))
        let fetched = client.fetch(server.url("/plain"), headers: ["Range": "bytes=10-19"])
        XCTAssertEqual(fetched.status, 200)
        XCTAssertEqual(fetched.body.count, 100)
        XCTAssertNil(fetched.header("Accept-Ranges"))
    }

    func test_resume_afterACutConnection_joinsToTheWholeBody() {
        // Given: the first answer breaks after 40 bytes, the next ones serve ranges
        var broken = HTTPScriptedResponse.ok(body)
        broken.entityTag = "\"v1\""
        broken.supportsRanges = true
        broken.closeAfterBodyBytes = 40
        var whole = broken
        whole.closeAfterBodyBytes = nil
        server.respond(to: "/resumable", withSequence: [broken, whole])
        let raw = RawHTTPClient(port: server.port)
        raw?.send("GET /resumable HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = raw?.readToEnd().bytes ?? []
        // When
        let rest = client.fetch(server.url("/resumable"), headers: ["Range": "bytes=40-", "If-Range": "\"v1\""])
        // Then
        XCTAssertEqual(Array(first.suffix(40)) + [UInt8](rest.body), body)
        XCTAssertEqual(rest.status, 206)
    }
}
