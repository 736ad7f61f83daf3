import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// `Cache-Control` field values split into directives the way RFC 9110 §5.6 lists and RFC 9111
/// §5.2 directives read: case, quotes, commas, whitespace and repeats.
final class CacheControlTests: XCTestCase {
    func test_directives_areParsed() {
        let cases: [(field: String, directives: [String], values: [String?])] = [
            ("", [], []),
            ("no-store", ["no-store"], [nil]),
            ("No-Store", ["no-store"], [nil]),
            ("MAX-AGE=60", ["max-age"], ["60"]),
            ("max-age=\"60\"", ["max-age"], ["60"]),
            ("max-age = 60", ["max-age"], ["60"]),
            ("public, max-age=60", ["public", "max-age"], [nil, "60"]),
            ("  public ,\tmax-age=60  ,", ["public", "max-age"], [nil, "60"]),
            (",,, private,,", ["private"], [nil]),
            ("no-cache=\"Set-Cookie, Vary\", max-age=5", ["no-cache", "max-age"], ["Set-Cookie, Vary", "5"]),
            ("ext=\"a \\\"quoted\\\" word\", max-age=1", ["ext", "max-age"], ["a \"quoted\" word", "1"]),
            ("ext=\"unterminated, max-age=1", ["ext"], ["unterminated, max-age=1"]),
            ("max-age=5 junk, no-cache", ["max-age", "no-cache"], ["5", nil]),
            ("=5, no-cache", ["no-cache"], [nil]),
            ("max-age=", ["max-age"], [""]),
        ]
        for (field, names, values) in cases {
            let parsed = CacheControl(field)
            XCTAssertEqual(parsed.directives.map(\.name), names, field)
            XCTAssertEqual(parsed.directives.map(\.value), values, field)
        }
    }

    func test_maxAge_readsDeltaSeconds_andFlagsInvalidValues() {
        let cases: [(field: String, maxAge: CacheControl.Lifetime?)] = [
            ("public", nil),
            ("max-age=0", .seconds(0)),
            ("max-age=3600", .seconds(3_600)),
            ("max-age=\"3600\"", .seconds(3_600)),
            ("max-age=5, max-age=9", .seconds(5)),
            ("s-maxage=10", nil),
            ("s-maxage=10, max-age=20", .seconds(20)),
            ("max-age=99999999999999999999999", .seconds(2_147_483_648)),
            ("max-age", .invalid),
            ("max-age=", .invalid),
            ("max-age=-1", .invalid),
            ("max-age=1.5", .invalid),
            ("max-age=soon", .invalid),
            ("max-age=\" 60\"", .invalid),
        ]
        for (field, maxAge) in cases {
            XCTAssertEqual(CacheControl(field).maxAge, maxAge, field)
        }
    }

    func test_flags_matchDirectiveNames_notSubstrings() {
        XCTAssertTrue(CacheControl("private, NO-CACHE").noCache)
        XCTAssertTrue(CacheControl("no-cache=\"set-cookie\"").noCache)
        XCTAssertTrue(CacheControl("max-age=1,no-store").noStore)
        XCTAssertFalse(CacheControl("no-cache-please").noCache)
        XCTAssertFalse(CacheControl("ext=\"no-store\"").noStore)
        XCTAssertFalse(CacheControl("ext=\"x, no-store\"").noStore, "a comma inside quotes splits nothing")
    }
}
