import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Which validator a body cut short is kept under, for `If-Range`.
final class PartialBodyTests: XCTestCase {
    func test_rangeValidator_isAStrongEntityTag_elseAnHTTPDate() {
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        let cases: [(label: String, headers: [String: String], validator: String?)] = [
            ("strong tag", ["etag": "\"v1\"", "last-modified": date], "\"v1\""),
            ("weak tag, a date", ["etag": "W/\"v1\"", "last-modified": date], date),
            ("a date alone", ["last-modified": date], date),
            ("coded", ["etag": "\"v1\"", "content-encoding": "gzip"], nil),
            ("nothing", [:], nil),
            // Found by Scripts/fuzz.sh http: a Last-Modified that reads as a weak tag.
            ("a Last-Modified like a weak tag", ["etag": "W/\"v1\"", "last-modified": "W/Sat, 05 Nov 1994"], nil),
            ("a Last-Modified like a strong tag", ["last-modified": "\"v1\""], nil),
            ("a Last-Modified that is no date", ["last-modified": "yesterday"], nil),
        ]
        for (label, headers, validator) in cases {
            XCTAssertEqual(PartialBody.rangeValidator(of: headers), validator, label)
        }
    }
}
