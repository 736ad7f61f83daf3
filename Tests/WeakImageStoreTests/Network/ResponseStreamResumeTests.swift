import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One response's handling of revalidation and resumption alone: 304s, 206s that do or do not
/// continue a partial body, 416s, and which bodies cut short are kept.
final class ResponseStreamResumeTests: XCTestCase {
    private let url = URL(string: "https://example.com/big.png")!
    private var directory: TestDirectory!
    private let total = 100_000
    private let kept = 70_000

    override func setUp() {
        directory = TestDirectory(name)
    }

    override func tearDown() {
        directory = nil
    }

    private var identity: SourceIdentity { URLSource(url, cacheKey: nil).identity }

    private func body(_ range: Range<Int>) -> Data {
        Data(range.map { UInt8(truncatingIfNeeded: $0 * 7) })
    }

    private func files() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    private func response(status: Int, headers: [String: String] = [:]) -> HTTPURLResponse {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
    }

    /// A partial body of the first ``kept`` bytes, in a file of the test's folder.
    private func makePartialBody(validator: String = "\"v1\"", totalLength: Int? = 100_000) throws -> PartialBody {
        let path = directory.url.appendingPathComponent("kept.partial").path
        try body(0..<kept).write(to: URL(fileURLWithPath: path))
        return PartialBody(
            identity: identity, path: path, length: kept, validator: validator, totalLength: totalLength)
    }

    private func makeStream(
        limit: Int = 1 << 20, isConditional: Bool = false, resuming: PartialBody? = nil
    ) -> ResponseStream {
        ResponseStream(
            url: url, identity: identity, limit: limit, bodyDirectory: directory.url, isConditional: isConditional,
            resuming: resuming, requestTime: 1_000)
    }

    private var continuation: [String: String] {
        ["Content-Range": "bytes 70000-99999/100000", "Content-Length": "30000", "ETag": "\"v1\""]
    }

    // MARK: Conditional requests

    func test_a304ToAConditionalRequest_isNotModified_withItsHeaders_andNoFile() {
        // Given
        var stream = makeStream(isConditional: true)
        // When
        let accepted = stream.accepts(
            response(status: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=9"]), at: 1_002)
        // Then
        XCTAssertTrue(accepted)
        XCTAssertEqual(files(), [])
        guard case .success(let answer) = stream.finish(transportError: nil).result else {
            return XCTFail("no response")
        }
        guard case .notModified = answer.content else { return XCTFail("expected notModified") }
        XCTAssertEqual(answer.headers["etag"], "\"v1\"")
        XCTAssertEqual(answer.headers["cache-control"], "max-age=9")
        XCTAssertEqual(answer.requestTime, 1_000)
        XCTAssertEqual(answer.responseTime, 1_002)
    }

    func test_a304ToAPlainRequest_isAnHTTPFailure() {
        var stream = makeStream()
        XCTAssertFalse(stream.accepts(response(status: 304)))
        XCTAssertEqual(stream.finish(transportError: URLError(.cancelled)).error, .httpStatus(url, code: 304))
    }

    // MARK: Continuing a partial body

    func test_a206ThatContinuesThePartialBody_completesItByteForByte() throws {
        // Given
        var stream = makeStream(resuming: try makePartialBody())
        // When
        XCTAssertTrue(stream.accepts(response(status: 206, headers: continuation)))
        XCTAssertTrue(stream.append(body(kept..<90_000)))
        XCTAssertTrue(stream.append(body(90_000..<total)))
        let ending = stream.finish(transportError: nil)
        // Then
        XCTAssertEqual(ending.bytes, [UInt8](body(0..<total)))
        guard case .finished(_, nil, let resumedBytes) = ending else { return XCTFail("\(ending)") }
        XCTAssertEqual(resumedBytes, kept)
        XCTAssertEqual(files(), [])
    }

    func test_aContinuedBodyCutShort_isTruncatedAgainstTheWholeLength_andKeptLonger() throws {
        // Given
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        var stream = makeStream(resuming: try makePartialBody(validator: date))
        // A 206 that repeats no validator: the partial body's date still holds (a strong entity
        // tag would have to be repeated).
        let bare = ["Content-Range": "bytes 70000-99999/100000", "Content-Length": "30000"]
        XCTAssertTrue(stream.accepts(response(status: 206, headers: bare)))
        XCTAssertTrue(stream.append(body(kept..<80_000)))
        // When
        let ending = stream.finish(transportError: URLError(.networkConnectionLost))
        // Then
        XCTAssertEqual(ending.error, .responseTruncated(url, expected: total, received: 80_000))
        XCTAssertEqual(ending.keptPartialBody?.length, 80_000)
        XCTAssertEqual(ending.keptPartialBody?.totalLength, total)
        XCTAssertEqual(ending.keptPartialBody?.validator, date)
        XCTAssertEqual(files(), ["kept.partial"])
    }

    func test_answersThatDoNotContinueThePartialBody_restartWithoutIt() throws {
        var wrong: [(String, Int, [String: String])] = [
            ("416", 416, ["Content-Range": "bytes */100000"]),
            ("no Content-Range", 206, ["Content-Length": "30000"]),
            ("another start", 206, ["Content-Range": "bytes 0-99999/100000"]),
            ("another total", 206, ["Content-Range": "bytes 70000-119999/120000"]),
            ("not to the end", 206, ["Content-Range": "bytes 70000-79999/100000"]),
            ("a total nobody knows", 206, ["Content-Range": "bytes 70000-99999/*", "ETag": "\"v1\""]),
            ("another entity tag", 206, ["Content-Range": "bytes 70000-99999/100000", "ETag": "\"v2\""]),
            ("no entity tag", 206, ["Content-Range": "bytes 70000-99999/100000"]),
            ("the weak form of it", 206, ["Content-Range": "bytes 70000-99999/100000", "ETag": "W/\"v1\""]),
            ("coded", 206, ["Content-Range": "bytes 70000-99999/100000", "Content-Encoding": "gzip"]),
            ("a length that disagrees", 206, ["Content-Range": "bytes 70000-99999/100000", "Content-Length": "5"]),
            ("garbage", 206, ["Content-Range": "bytes 70000-99999/lots"]),
        ]
        wrong.append(("the file changed", 206, continuation))
        for (label, status, headers) in wrong {
            // Given
            let partial = try makePartialBody(totalLength: label == "a total nobody knows" ? nil : total)
            if label == "the file changed" { try body(0..<10).write(to: URL(fileURLWithPath: partial.path)) }
            var stream = makeStream(resuming: partial)
            // When
            let accepted = stream.accepts(response(status: status, headers: headers))
            // Then
            XCTAssertFalse(accepted, label)
            guard case .restartWithoutRange = stream.finish(transportError: URLError(.cancelled)) else {
                return XCTFail("expected a restart: \(label)")
            }
            XCTAssertEqual(files(), [], label)
        }
    }

    func test_anUnknownTotal_isTakenFromThePartialBody_whenItKnowsIt() throws {
        var stream = makeStream(resuming: try makePartialBody())
        let headers = ["Content-Range": "bytes 70000-99999/*", "ETag": "\"v1\""]
        XCTAssertTrue(stream.accepts(response(status: 206, headers: headers)))
        XCTAssertTrue(stream.append(body(kept..<total)))
        XCTAssertEqual(stream.finish(transportError: nil).bytes?.count, total)
    }

    func test_a200_replacesThePartialBody() throws {
        // Given
        var stream = makeStream(resuming: try makePartialBody())
        // When
        XCTAssertTrue(stream.accepts(response(status: 200, headers: ["Content-Length": "3"])))
        // Then
        XCTAssertFalse(files().contains("kept.partial"))
        XCTAssertTrue(stream.append(Data([1, 2, 3])))
        XCTAssertEqual(stream.finish(transportError: nil).bytes, [1, 2, 3])
        XCTAssertEqual(files(), [])
    }

    func test_a206ToAPlainRequest_isAnHTTPFailure() {
        var stream = makeStream()
        XCTAssertFalse(stream.accepts(response(status: 206, headers: continuation)))
        XCTAssertEqual(stream.finish(transportError: URLError(.cancelled)).error, .httpStatus(url, code: 206))
    }

    func test_aPartialBodyNoAnswerTouched_isHandedBack() throws {
        for (label, status) in [("404", 404), ("no response", 0)] {
            // Given
            let partial = try makePartialBody()
            var stream = makeStream(resuming: partial)
            // When
            if status != 0 { XCTAssertFalse(stream.accepts(response(status: status))) }
            let ending = stream.finish(transportError: URLError(status == 0 ? .cannotConnectToHost : .cancelled))
            // Then
            XCTAssertNotNil(ending.error, label)
            XCTAssertEqual(ending.keptPartialBody, partial, label)
            XCTAssertEqual(files(), ["kept.partial"], label)
            partial.delete()
        }
    }

    func test_discarding_deletesThePartialBodyToo() throws {
        var stream = makeStream(resuming: try makePartialBody())
        stream.discard()
        XCTAssertEqual(files(), [])
    }

    // MARK: Keeping bodies cut short

    func test_onlyResumableBodiesCutShort_areKept() {
        let strong = ["Content-Length": "100000", "ETag": "\"v1\""]
        let rows: [(label: String, headers: [String: String], received: Int, error: URLError?, validator: String?)] = [
            ("lost connection, strong ETag", strong, 70_000, URLError(.networkConnectionLost), "\"v1\""),
            ("cancelled", strong, 70_000, URLError(.cancelled), "\"v1\""),
            ("timed out", strong, 70_000, URLError(.timedOut), "\"v1\""),
            ("closed early without an error", strong, 70_000, nil, "\"v1\""),
            ("exactly 64 KiB", strong, 65_536, URLError(.cancelled), "\"v1\""),
            (
                "Last-Modified alone", ["Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"], 70_000,
                URLError(.networkConnectionLost), "Sun, 06 Nov 1994 08:49:37 GMT"
            ),
            (
                "weak ETag beats Last-Modified",
                ["ETag": "W/\"v1\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"],
                70_000, URLError(.cancelled), "Sun, 06 Nov 1994 08:49:37 GMT"
            ),
            ("weak ETag alone", ["ETag": "W/\"v1\""], 70_000, URLError(.cancelled), nil),
            ("no validator", ["Content-Length": "100000"], 70_000, URLError(.cancelled), nil),
            ("under 64 KiB", strong, 65_535, URLError(.cancelled), nil),
            ("coded", ["ETag": "\"v1\"", "Content-Encoding": "gzip"], 70_000, URLError(.cancelled), nil),
            ("complete", strong, 100_000, nil, nil),
        ]
        for row in rows {
            // Given
            var stream = makeStream()
            XCTAssertTrue(stream.accepts(response(status: 200, headers: row.headers)), row.label)
            XCTAssertTrue(stream.append(body(0..<row.received)), row.label)
            // When
            let ending = stream.finish(transportError: row.error)
            // Then
            XCTAssertEqual(ending.keptPartialBody?.validator, row.validator, row.label)
            if let partial = ending.keptPartialBody {
                XCTAssertNotNil(ending.error, row.label)
                XCTAssertEqual(partial.length, row.received, row.label)
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: partial.path)), body(0..<row.received))
                partial.delete()
            }
            XCTAssertEqual(files(), [], row.label)
        }
    }

    func test_aBodyRefusedForItsSize_isNotKept() {
        var stream = makeStream(limit: 80_000)
        XCTAssertTrue(stream.accepts(response(status: 200, headers: ["ETag": "\"v1\""])))
        XCTAssertTrue(stream.append(body(0..<70_000)))
        XCTAssertFalse(stream.append(body(0..<20_000)))
        let ending = stream.finish(transportError: URLError(.cancelled))
        XCTAssertEqual(ending.error, .responseTooLarge(url, limit: 80_000))
        XCTAssertNil(ending.keptPartialBody)
        XCTAssertEqual(files(), [])
    }

    // MARK: Content-Range

    func test_contentRange_isParsed() {
        let rows: [(String, [Int?]?)] = [
            ("bytes 0-9/10", [0, 9, 10]),
            ("bytes 70000-99999/100000", [70_000, 99_999, 100_000]),
            ("  BYTES 5-5/*", [5, 5, nil]),
            ("bytes 5-4/10", nil),
            ("bytes 0-10/10", nil),
            ("bytes */10", nil),
            ("bytes -1-9/10", nil),
            ("bytes 0-9", nil),
            ("items 0-9/10", nil),
            ("bytes 0-9/+10", nil),
            ("", nil),
        ]
        for (value, expected) in rows {
            let parsed = ResponseStream.contentRange(value).map { [$0.first, $0.last, $0.total] as [Int?] }
            XCTAssertEqual(parsed, expected, value)
        }
    }
}
