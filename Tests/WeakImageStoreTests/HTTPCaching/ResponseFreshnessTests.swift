import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// RFC 9111's freshness rules for a private cache, one row per rule: what is stored, for how
/// long, the age a response arrives with, and what a 304 changes.
final class ResponseFreshnessTests: XCTestCase {
    /// When the response arrived: Sun, 06 Nov 1994 08:49:37 GMT.
    private let arrival = 784_111_777.0
    private let week = 604_800.0
    /// The disk cache's default maximum lifetime.
    private let month = 30 * 86_400.0

    /// An HTTP date `offset` seconds after ``arrival``.
    private func date(_ offset: Double) -> String {
        HTTPDate.string(from: Date(timeIntervalSince1970: arrival + offset))
    }

    private func validity(_ headers: [String: String], requestDelay: Double = 0) -> ResponseValidity? {
        ResponseFreshness.validity(
            headers: headers, requestTime: arrival - requestDelay, responseTime: arrival, defaultLifetime: week,
            maximumLifetime: month)
    }

    /// Fresh for `lifetime` from ``arrival``, keeping the `max-age` and `Expires` (absolute, as an
    /// offset from ``arrival``) it was computed from.
    private func fresh(
        for lifetime: Double, etag: String? = nil, lastModified: String? = nil, maxAge: Double? = nil,
        expiresIn: Double? = nil
    ) -> ResponseValidity {
        ResponseValidity(
            freshUntil: arrival + lifetime, revalidatesEveryUse: false, entityTag: etag, lastModified: lastModified,
            maxAge: maxAge, expires: expiresIn.map { arrival + $0 })
    }

    func test_storableResponses_getTheirLifetime() {
        let rows: [(rule: String, headers: [String: String], expected: ResponseValidity?)] = [
            ("no freshness information: the default lifetime", [:], fresh(for: week)),
            ("no-store: not stored", ["cache-control": "no-store"], nil),
            ("no-store in any case, among others", ["cache-control": "max-age=60, No-Store"], nil),
            (
                "private is stored: a private cache", ["cache-control": "private, max-age=60"],
                fresh(for: 60, maxAge: 60)
            ),
            ("max-age", ["cache-control": "max-age=60"], fresh(for: 60, maxAge: 60)),
            ("max-age=0: stale at once", ["cache-control": "max-age=0"], fresh(for: 0, maxAge: 0)),
            ("s-maxage is for shared caches", ["cache-control": "s-maxage=600"], fresh(for: week)),
            (
                "s-maxage does not beat max-age", ["cache-control": "s-maxage=600, max-age=60"],
                fresh(for: 60, maxAge: 60)
            ),
            (
                "max-age beats Expires", ["cache-control": "max-age=60", "expires": date(3_600)],
                fresh(for: 60, maxAge: 60, expiresIn: 3_600)
            ),
            (
                "Expires minus Date", ["date": date(0), "expires": date(3_600)],
                fresh(for: 3_600, expiresIn: 3_600)
            ),
            (
                "Expires minus the response time without Date", ["expires": date(3_600)],
                fresh(for: 3_600, expiresIn: 3_600)
            ),
            (
                "Expires measured from Date, not the clock", ["date": date(-100), "expires": date(3_500)],
                fresh(for: 3_500, expiresIn: 3_500)
            ),
            (
                "Expires in an obsolete form", ["expires": "Sunday, 06-Nov-94 09:49:37 GMT"],
                fresh(for: 3_600, expiresIn: 3_600)
            ),
            ("Expires: 0 is already expired", ["expires": "0"], fresh(for: 0, expiresIn: -arrival)),
            (
                "an invalid Expires is already expired", ["expires": "tomorrow"], fresh(for: 0, expiresIn: -arrival)
            ),
            ("Expires before Date", ["date": date(0), "expires": date(-60)], fresh(for: 0, expiresIn: -60)),
            (
                "an invalid max-age is stale", ["cache-control": "max-age=soon", "expires": date(60)],
                fresh(for: 0, maxAge: 0, expiresIn: 60)
            ),
            (
                "repeated max-age: the first", ["cache-control": "max-age=60, max-age=600"],
                fresh(for: 60, maxAge: 60)
            ),
            (
                "no-cache: revalidated on every use", ["cache-control": "no-cache, max-age=60"],
                ResponseValidity(
                    freshUntil: arrival, revalidatesEveryUse: true, entityTag: nil, lastModified: nil, maxAge: 60)
            ),
            (
                "no-cache with field names: the same", ["cache-control": "no-cache=\"Set-Cookie\""],
                ResponseValidity(freshUntil: arrival, revalidatesEveryUse: true, entityTag: nil, lastModified: nil)
            ),
            (
                "must-revalidate records nothing", ["cache-control": "must-revalidate, max-age=60"],
                fresh(for: 60, maxAge: 60)
            ),
            (
                "validators kept as sent", ["etag": "W/\"v1\"", "last-modified": date(-86_400)],
                fresh(for: week, etag: "W/\"v1\"", lastModified: date(-86_400))
            ),
        ]
        for (rule, headers, expected) in rows {
            XCTAssertEqual(validity(headers), expected, rule)
        }
    }

    func test_theLifetime_countsFromTheAgeTheResponseArrivedWith() {
        let rows: [(rule: String, headers: [String: String], requestDelay: Double, lifetimeLeft: Double)] = [
            ("Date 10 s ago: 10 s old", ["date": date(-10)], 0, 90),
            ("Age", ["date": date(0), "age": "30"], 0, 70),
            ("Age plus the round trip", ["age": "30"], 5, 65),
            ("the round trip alone", [:], 5, 95),
            ("the larger of Date's and Age's", ["date": date(-50), "age": "30"], 5, 50),
            ("a Date ahead of the clock ages nothing", ["date": date(50)], 0, 100),
            ("an invalid Age is ignored", ["age": "old"], 0, 100),
            ("repeated Age lines: the first", ["age": "30, 40"], 0, 70),
            ("an invalid Date is ignored", ["date": "yesterday"], 0, 100),
            ("older than its lifetime: stale", ["age": "250"], 0, -150),
        ]
        for (rule, headers, requestDelay, lifetimeLeft) in rows {
            var withMaxAge = headers
            withMaxAge["cache-control"] = "max-age=100"
            XCTAssertEqual(validity(withMaxAge, requestDelay: requestDelay)?.freshUntil, arrival + lifetimeLeft, rule)
        }
        // Expires and Date: the lifetime is Expires − Date, less the age Date implies.
        XCTAssertEqual(validity(["date": date(-10), "expires": date(3_590)])?.freshUntil, arrival + 3_590)
    }

    func test_aNotModifiedResponse_refreshesTheStoredValidity() {
        let lastModified = date(-86_400)
        let stored = ResponseValidity(
            freshUntil: 1, revalidatesEveryUse: false, entityTag: "\"v1\"", lastModified: lastModified)
        var storedNoCache = stored
        storedNoCache.revalidatesEveryUse = true
        let revalidating = ResponseValidity(
            freshUntil: arrival, revalidatesEveryUse: true, entityTag: "\"v1\"", lastModified: lastModified)
        let rows: [(rule: String, stored: ResponseValidity, headers: [String: String], expected: ResponseValidity)] = [
            (
                "no freshness information: the default", stored, [:],
                fresh(for: week, etag: "\"v1\"", lastModified: lastModified)
            ),
            (
                "max-age", stored, ["cache-control": "max-age=60"],
                fresh(for: 60, etag: "\"v1\"", lastModified: lastModified, maxAge: 60)
            ),
            (
                "Expires minus Date", stored, ["date": date(0), "expires": date(600)],
                fresh(for: 600, etag: "\"v1\"", lastModified: lastModified, expiresIn: 600)
            ),
            (
                "the 304's age counts", stored, ["cache-control": "max-age=60", "age": "10"],
                fresh(for: 50, etag: "\"v1\"", lastModified: lastModified, maxAge: 60)
            ),
            (
                "new validators replace the old", stored, ["etag": "\"v2\""],
                fresh(for: week, etag: "\"v2\"", lastModified: lastModified)
            ),
            (
                "both validators replaced", stored, ["etag": "\"v2\"", "last-modified": date(-60)],
                fresh(for: week, etag: "\"v2\"", lastModified: date(-60))
            ),
            (
                "no-cache kept without Cache-Control", storedNoCache, ["expires": date(600)],
                withFields(revalidating, expiresIn: 600)
            ),
            (
                "no-cache dropped by a Cache-Control without it", storedNoCache, ["cache-control": "max-age=60"],
                fresh(for: 60, etag: "\"v1\"", lastModified: lastModified, maxAge: 60)
            ),
            ("no-cache added", stored, ["cache-control": "no-cache"], revalidating),
            ("no-store on a 304 reads as no-cache", stored, ["cache-control": "no-store"], revalidating),
        ]
        for (rule, stored, headers, expected) in rows {
            let refreshed = ResponseFreshness.refreshed(
                stored, by: headers, requestTime: arrival, responseTime: arrival, defaultLifetime: week,
                maximumLifetime: month)
            XCTAssertEqual(refreshed, expected, rule)
        }
    }

    func test_aNotModifiedResponseWithoutFreshness_keepsTheStoredMaxAgeAndExpires() {
        // Given: responses stored with max-age=60, with Expires 600 s after their arrival, and
        // with both, then revalidated by a 304 that arrives at `arrival`
        let lastModified = date(-86_400)
        let maxAgeStored = fresh(for: 60, lastModified: lastModified, maxAge: 60)
        let expiresStored = fresh(for: 600, lastModified: lastModified, expiresIn: 600)
        let bothStored = fresh(for: 60, lastModified: lastModified, maxAge: 60, expiresIn: 600)
        let rows: [(rule: String, stored: ResponseValidity, headers: [String: String], expected: ResponseValidity)] = [
            ("the stored max-age, from the 304", maxAgeStored, [:], maxAgeStored),
            (
                "the stored max-age, less the 304's age", maxAgeStored, ["date": date(-10)],
                fresh(for: 50, lastModified: lastModified, maxAge: 60)
            ),
            (
                "a Cache-Control without max-age replaces the stored one", maxAgeStored,
                ["cache-control": "public"], fresh(for: week, lastModified: lastModified)
            ),
            (
                "the stored Expires, measured from the 304's Date", expiresStored, ["date": date(100)],
                fresh(for: 500, lastModified: lastModified, expiresIn: 600)
            ),
            (
                "a new Expires replaces the stored one", expiresStored, ["expires": date(60)],
                fresh(for: 60, lastModified: lastModified, expiresIn: 60)
            ),
            (
                "the stored max-age beats a new Expires", maxAgeStored, ["expires": date(600)],
                fresh(for: 60, lastModified: lastModified, maxAge: 60, expiresIn: 600)
            ),
            (
                "a new max-age beats the stored Expires", bothStored, ["cache-control": "max-age=300"],
                fresh(for: 300, lastModified: lastModified, maxAge: 300, expiresIn: 600)
            ),
        ]
        for (rule, stored, headers, expected) in rows {
            // When
            let refreshed = ResponseFreshness.refreshed(
                stored, by: headers, requestTime: arrival, responseTime: arrival, defaultLifetime: week,
                maximumLifetime: month)
            // Then
            XCTAssertEqual(refreshed, expected, rule)
        }
    }

    /// `validity` with an `Expires` `offset` seconds after ``arrival``.
    private func withFields(_ validity: ResponseValidity, expiresIn offset: Double) -> ResponseValidity {
        var result = validity
        result.expires = arrival + offset
        return result
    }

    func test_theDefaultLifetime_isTheCallers() {
        let validity = ResponseFreshness.validity(
            headers: [:], requestTime: arrival, responseTime: arrival, defaultLifetime: 42, maximumLifetime: month)
        XCTAssertEqual(validity?.freshUntil, arrival + 42)
        XCTAssertEqual(validity?.isFresh(at: arrival + 41, maximumLifetime: month), true)
        XCTAssertEqual(validity?.isFresh(at: arrival + 42, maximumLifetime: month), false)
    }

    func test_lifetimes_areCappedAtTheMaximum() {
        let rows: [(rule: String, headers: [String: String])] = [
            ("max-age of 68 years", ["cache-control": "max-age=2147483647"]),
            ("Expires in 9999", ["expires": "Fri, 31 Dec 9999 23:59:59 GMT", "date": date(0)]),
        ]
        for (rule, headers) in rows {
            let validity = ResponseFreshness.validity(
                headers: headers, requestTime: arrival, responseTime: arrival, defaultLifetime: week,
                maximumLifetime: month)
            XCTAssertEqual(validity?.freshUntil, arrival + month, rule)
        }
        let refreshed = ResponseFreshness.refreshed(
            fresh(for: 60, etag: "\"v1\"", maxAge: 60), by: ["cache-control": "max-age=2147483647"],
            requestTime: arrival, responseTime: arrival, defaultLifetime: week, maximumLifetime: month)
        XCTAssertEqual(refreshed.freshUntil, arrival + month, "a 304's lifetime")
        let defaulted = ResponseFreshness.validity(
            headers: [:], requestTime: arrival, responseTime: arrival, defaultLifetime: week, maximumLifetime: 60)
        XCTAssertEqual(defaulted?.freshUntil, arrival + 60, "the default lifetime")
    }

    func test_storedFreshness_thatNoResponseCouldHave_isStale() {
        // Given: validities as an altered index, or a clock set back, would give them
        let rows: [(rule: String, freshUntil: Double)] = [
            ("NaN", .nan), ("infinite", .infinity), ("beyond the maximum", arrival + month + 1),
            ("68 years", arrival + 2_147_483_647),
        ]
        for (rule, freshUntil) in rows {
            let validity = ResponseValidity(
                freshUntil: freshUntil, revalidatesEveryUse: false, entityTag: nil, lastModified: nil)
            XCTAssertFalse(validity.isFresh(at: arrival, maximumLifetime: month), rule)
        }
        let honest = ResponseValidity(
            freshUntil: arrival + month, revalidatesEveryUse: false, entityTag: nil, lastModified: nil)
        XCTAssertTrue(honest.isFresh(at: arrival, maximumLifetime: month))
    }
}
