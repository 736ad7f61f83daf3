import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The three HTTP-date forms of RFC 9110 §5.6.7 read to the second, and everything else refused.
final class HTTPDateParserTests: XCTestCase {
    /// 2024-01-01 00:00:00 UTC: decides the century of two-digit years.
    private let now = 1_704_067_200.0
    /// Sun, 06 Nov 1994 08:49:37 GMT.
    private let rfcExample = 784_111_777.0

    func test_everyForm_readsTheSameInstant() {
        let forms: [(String, Double)] = [
            ("Sun, 06 Nov 1994 08:49:37 GMT", rfcExample),
            ("Sunday, 06-Nov-94 08:49:37 GMT", rfcExample),
            ("Sun Nov  6 08:49:37 1994", rfcExample),
            ("Sun Nov 16 08:49:37 1994", rfcExample + 10 * 86_400),
            ("  Sun, 06 Nov 1994 08:49:37 GMT\t", rfcExample),
            ("sun, 06 nov 1994 08:49:37 gmt", rfcExample),
            ("Tue, 29 Feb 2000 00:00:00 GMT", 951_782_400),
            ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
            ("Wed, 31 Dec 1969 23:59:59 GMT", -1),
            ("Sat, 31 Dec 2016 23:59:60 GMT", 1_483_228_800),
            // The weekday names a day, not necessarily the right one: the date counts.
            ("Mon, 06 Nov 1994 08:49:37 GMT", rfcExample),
        ]
        for (text, expected) in forms {
            XCTAssertEqual(HTTPDateParser.secondsSince1970(text, now: now), expected, text)
        }
    }

    func test_rfc850TwoDigitYears_areAtMost50YearsAhead() {
        // 2024: "69" is 2069 (45 years ahead), "75" is 1975 (2075 would be 51 ahead).
        XCTAssertEqual(
            HTTPDateParser.secondsSince1970("Wednesday, 06-Nov-69 08:49:37 GMT", now: now), 3_150_953_377)
        XCTAssertEqual(
            HTTPDateParser.secondsSince1970("Thursday, 06-Nov-75 08:49:37 GMT", now: now), 184_495_777)
        // 1970: "94" is 1994, 24 years ahead.
        XCTAssertEqual(HTTPDateParser.secondsSince1970("Sunday, 06-Nov-94 08:49:37 GMT", now: 0), rfcExample)
    }

    func test_garbage_isNoDate() {
        let garbage = [
            "", "0", "-1", "never", "Sun, 06 Nov 1994", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Nov 1994 08:49:37 GMT+1", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
            "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT",
            "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:61 GMT", "Sunday, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06-Nov-94 08:49:37 GMT", "Sun Nov 6 08:49:37 1994", "Sun Nov  6 08:49:37 94",
            "Funday, 06-Nov-94 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT",
            "1994-11-06T08:49:37Z", "Sun,06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT x",
            "Sun, 06 Nov 1994 08:49:37 GMTX", "Sun, 06  Nov 1994 08:49:37 GMT", "Sun, ٠٦ Nov 1994 08:49:37 GMT",
        ]
        for text in garbage {
            XCTAssertNil(HTTPDateParser.secondsSince1970(text, now: now), text)
        }
    }
}
