import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One response's checks alone: redirects, statuses, lengths, and which error wins. (Resuming is
/// in ``ResponseStreamResumeTests``.)
final class ResponseStreamTests: XCTestCase {
    private let url = URL(string: "https://example.com/a.png")!
    private var directory: TestDirectory!

    override func setUp() {
        directory = TestDirectory(name)
    }

    override func tearDown() {
        directory = nil
    }

    private func response(status: Int = 200, headers: [String: String] = [:]) -> HTTPURLResponse {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
    }

    private func makeStream(
        url: URL? = nil, limit: Int = 100, directory: URL? = nil, isConditional: Bool = false
    ) -> ResponseStream {
        ResponseStream(
            url: url ?? self.url, identity: URLSource(url ?? self.url, cacheKey: nil).identity, limit: limit,
            bodyDirectory: directory ?? self.directory.url, isConditional: isConditional)
    }

    func test_aRedirectFromHTTPSToHTTP_isRefused() {
        // Given
        var stream = makeStream()
        // When
        let allowed = stream.allowsRedirect(from: url, to: URL(string: "http://example.com/a.png"))
        // Then
        XCTAssertFalse(allowed)
        XCTAssertEqual(
            stream.finish(transportError: URLError(.cancelled)).error,
            .downloadFailed(url, reason: "refused a redirect from https to http (http://example.com/a.png)"))
    }

    func test_redirectsWithinHTTPS_orUpToIt_areAllowed_tenTimes() {
        // Given
        var stream = makeStream(url: URL(string: "http://example.com/a.png")!)
        let secure = URL(string: "https://example.com/b.png")
        // When
        let allowed = (0..<11).map { _ in stream.allowsRedirect(from: secure, to: secure) }
        // Then
        XCTAssertEqual(allowed, Array(repeating: true, count: 10) + [false])
    }

    func test_aStatusOutside2xx_isRefused_beforeAnyFile() {
        // Given
        var stream = makeStream()
        // When
        let accepted = stream.accepts(response(status: 304))
        // Then
        XCTAssertFalse(accepted)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
        XCTAssertEqual(stream.finish(transportError: URLError(.cancelled)).error, .httpStatus(url, code: 304))
    }

    func test_aDeclaredLengthOverTheLimit_isRefused() {
        // Given
        var stream = makeStream()
        // When
        let accepted = stream.accepts(response(headers: ["Content-Length": "101"]))
        // Then
        XCTAssertFalse(accepted)
        XCTAssertEqual(stream.finish(transportError: nil).error, .responseTooLarge(url, limit: 100))
    }

    func test_aBodyPastTheLimit_isRefused_andTheFileDeleted() {
        // Given
        var stream = makeStream()
        XCTAssertTrue(stream.accepts(response()))
        XCTAssertTrue(stream.append(Data(count: 60)))
        // When
        let goesOn = stream.append(Data(count: 41))
        // Then
        XCTAssertFalse(goesOn)
        XCTAssertEqual(stream.finish(transportError: URLError(.cancelled)).error, .responseTooLarge(url, limit: 100))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func test_aCompleteBody_isDelivered_andTheFileDeleted() {
        // Given
        var stream = makeStream()
        XCTAssertTrue(stream.accepts(response(headers: ["Content-Length": "5"])))
        XCTAssertTrue(stream.append(Data([1, 2])))
        XCTAssertTrue(stream.append(Data([3, 4, 5])))
        // When
        let outcome = stream.finish(transportError: nil)
        // Then
        XCTAssertEqual(outcome.bytes, [1, 2, 3, 4, 5])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func test_anEmptyBody_isDelivered() {
        var stream = makeStream()
        XCTAssertTrue(stream.accepts(response(status: 204)))
        XCTAssertEqual(stream.finish(transportError: nil).bytes, [])
    }

    func test_aShortBody_isTruncated_unlessATimeoutExplainsIt() {
        for (error, expected) in [
            (nil, ImageStoreError.responseTruncated(url, expected: 10, received: 4)),
            (URLError(.networkConnectionLost), .responseTruncated(url, expected: 10, received: 4)),
            (URLError(.timedOut), .downloadFailed(url, reason: "the request timed out (URLError -1001)")),
        ] {
            var stream = makeStream()
            XCTAssertTrue(stream.accepts(response(headers: ["Content-Length": "10"])))
            XCTAssertTrue(stream.append(Data([1, 2, 3, 4])))
            XCTAssertEqual(stream.finish(transportError: error).error, expected, "\(String(describing: error))")
        }
    }

    func test_anEncodedBody_isNotHeldToItsDeclaredLength() {
        // Given: Content-Length counts the gzip bytes; URLSession delivers them decoded
        var stream = makeStream()
        let encoded = response(headers: ["Content-Length": "10", "Content-Encoding": "gzip"])
        XCTAssertTrue(stream.accepts(encoded))
        XCTAssertTrue(stream.append(Data(count: 30)))
        // When
        let outcome = stream.finish(transportError: nil)
        // Then
        XCTAssertEqual(outcome.bytes?.count, 30)
    }

    func test_aCancellationNobodyAskedForHere_isCancelled() {
        var stream = makeStream()
        XCTAssertTrue(stream.accepts(response()))
        XCTAssertEqual(stream.finish(transportError: URLError(.cancelled)).error, .cancelled)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func test_aFolderThatCannotHoldFiles_isADownloadFailure() {
        // Given
        let missing = directory.url.appendingPathComponent("missing")
        var stream = makeStream(directory: missing)
        // When
        let accepted = stream.accepts(response())
        // Then
        XCTAssertFalse(accepted)
        guard case .downloadFailed(url, let reason) = stream.finish(transportError: URLError(.cancelled)).error else {
            return XCTFail("expected a download failure")
        }
        XCTAssertTrue(reason.contains("cannot create the temporary file"), reason)
    }
}
