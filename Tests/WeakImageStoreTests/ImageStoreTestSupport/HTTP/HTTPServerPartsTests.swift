import Foundation
import XCTest

@testable import ImageStoreTestSupport

/// The server's pure parts: HTTP dates, request parsing and its limits.
final class HTTPServerPartsTests: XCTestCase {
    func test_httpDate_formatsAndParsesIMFFixdate() {
        // RFC 9110's example, and dates around leap days and the epoch.
        XCTAssertEqual(HTTPDate.string(from: Date(timeIntervalSince1970: 784_111_777)), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.date(from: "Sun, 06 Nov 1994 08:49:37 GMT")?.timeIntervalSince1970, 784_111_777)
        for seconds in [0, 951_782_400, 951_868_799, 4_107_542_400, 1_700_000_000] {
            let date = Date(timeIntervalSince1970: Double(seconds))
            XCTAssertEqual(HTTPDate.date(from: HTTPDate.string(from: date)), date, "\(seconds)")
        }
        XCTAssertEqual(HTTPDate.string(from: Date(timeIntervalSince1970: 951_782_400)), "Tue, 29 Feb 2000 00:00:00 GMT")
        XCTAssertNil(HTTPDate.date(from: "Sunday, 06-Nov-94 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.date(from: "Sun, 06 Nov 1994 25:49:37 GMT"))
    }

    private let parser = HTTPRequestParser(maximumHeaderBytes: 64, maximumBodyBytes: 8)

    private func parse(_ text: String) -> HTTPRequestParser.Outcome {
        parser.parse(Array(text.utf8))
    }

    func test_parser_readsARequest_andLeavesThePipelinedRest() throws {
        let text = "GET /a?b=1 HTTP/1.1\r\nHost: x\r\nX-A:  one \r\nx-a: two\r\n\r\nGET /next"
        guard case .request(let request, let byteCount) = parse(text) else { return XCTFail("\(parse(text))") }
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.target, "/a?b=1")
        XCTAssertEqual(request.path, "/a")
        XCTAssertEqual(request.value(forHeader: "X-A"), "one, two")
        XCTAssertEqual(byteCount, text.utf8.count - "GET /next".utf8.count)
    }

    func test_parser_waitsForTheWholeHeaderAndBody() {
        guard case .incomplete = parse("GET / HTTP/1.1\r\nHost: x\r\n") else { return XCTFail() }
        guard case .incomplete = parse("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nab") else { return XCTFail() }
        guard case .request(let request, _) = parse("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd") else {
            return XCTFail()
        }
        XCTAssertEqual(request.body, Array("abcd".utf8))
    }

    func test_parser_takesTheOriginFormOfAnAbsoluteTarget() {
        guard case .request(let request, _) = parse("GET http://host:8/p?q HTTP/1.1\r\n\r\n") else { return XCTFail() }
        XCTAssertEqual(request.target, "/p?q")
    }

    func test_parser_refusesWhatItCannotOrWillNotRead() {
        let cases: [(String, Int)] = [
            ("GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 80))\r\n\r\n", 431),
            ("GET /\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\n\r\n", 505),
            ("GET / HTTP/1.1\r\nNo colon\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nA: 1\r\n folded\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\n", 413),
            ("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
        ]
        for (text, status) in cases {
            guard case .refused(let refusal) = parse(text) else {
                XCTFail("\(text.debugDescription): \(parse(text))")
                continue
            }
            XCTAssertEqual(refusal, status, text.debugDescription)
        }
    }
}
