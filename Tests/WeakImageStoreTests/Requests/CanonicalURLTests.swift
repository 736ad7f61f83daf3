import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The one-pass canonical form agrees with `URLComponents` wherever it answers, and answers for
/// the URLs apps use.
final class CanonicalURLTests: XCTestCase {
    func test_commonURLs_takeTheOnePassForm_andMatchURLComponents() throws {
        let rows: [(url: String, canonical: String)] = [
            (
                "https://images.example.com/photos/2026/IMG_1234.jpg?size=large",
                "https://images.example.com/photos/2026/IMG_1234.jpg?size=large"
            ),
            ("HTTPS://Example.COM:443/a.png#top", "https://example.com/a.png"),
            ("http://example.com", "http://example.com/"),
            ("http://example.com:8080/a?w=10", "http://example.com:8080/a?w=10"),
            ("Http://EXAMPLE.com:80/images/a.png#top", "http://example.com/images/a.png"),
            ("https://example.com:80/a.png", "https://example.com:80/a.png"),
            ("http://example.com?q=1", "http://example.com/?q=1"),
            ("http://example.com#frag", "http://example.com/"),
            ("http://192.168.0.1:8000/A%2Fb/C.PNG", "http://192.168.0.1:8000/A%2Fb/C.PNG"),
            (
                "https://cdn.example.com/a/b;v=1/c.png?x=1&y=2,3&z=%20",
                "https://cdn.example.com/a/b;v=1/c.png?x=1&y=2,3&z=%20"
            ),
            (
                "https://example.com/a.png?redirect=https://other.example/b?c",
                "https://example.com/a.png?redirect=https://other.example/b?c"
            ),
            ("http://example.com:0/", "http://example.com:0/"),
        ]
        for (string, canonical) in rows {
            let url = try XCTUnwrap(URL(string: string), string)
            XCTAssertEqual(CanonicalURL.simpleForm(of: url.absoluteString), canonical, string)
            XCTAssertEqual(CanonicalURL.componentsForm(of: url), canonical, string)
            XCTAssertEqual(CanonicalURL.string(for: url), canonical, string)
        }
    }

    func test_unusualURLs_areLeftToURLComponents() throws {
        let unusual = [
            "https://user:secret@example.com/a.png", "http://[::1]:8080/a.png", "http://ex%41mple.com/a.png",
            "http://example.com:/a.png", "http://example.com:0080/a.png", "http://example.com:123456/a.png",
            "http://example.com/a.png?", "ftp://example.com/a.png", "http:///a.png",
        ]
        for string in unusual {
            guard let url = URL(string: string) else { continue }
            XCTAssertNil(CanonicalURL.simpleForm(of: url.absoluteString), string)
            XCTAssertEqual(CanonicalURL.string(for: url), CanonicalURL.componentsForm(of: url), string)
        }
    }

    func test_randomURLs_getTheSameFormBothWays() {
        // Given: URLs put together from pieces in many cases, ports, paths, queries and
        // fragments, some with bytes that are not URL characters
        var random = SeededGenerator(seed: 2_026)
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        let pathAlphabet = Array("abcXYZ019-._~!$&'()*+,;=:@/%2F%41?")
        var fastCount = 0
        var compared = 0
        for _ in 0..<4_000 {
            let scheme = pick(["http", "HTTP", "https", "Https", "HTTPS", "htp", "ftp"])
            let host = pick(["example.com", "Example.COM", "a.b-c.d", "10.0.0.1", "EXAMPLE.com.", "x", "ex_ample.com"])
            let port = pick(["", ":80", ":443", ":8080", ":0", ":08", ":", ":65535", ":99999"])
            let path = String((0..<Int(random.next() % 12)).map { _ in pick(pathAlphabet) })
            let separator = pick(["", "/", "?", "/?", "#"])
            let tail = pick(["", "q=1", "a%20b", "#top", "x?y#z", "é", " ", "{}"])
            let string = scheme + "://" + host + port + separator + path + tail
            // When
            guard let url = URL(string: string) else { continue }
            compared += 1
            guard let fast = CanonicalURL.simpleForm(of: url.absoluteString) else { continue }
            fastCount += 1
            // Then
            XCTAssertEqual(fast, CanonicalURL.componentsForm(of: url), string)
        }
        XCTAssertGreaterThan(compared, 2_000)
        XCTAssertGreaterThan(fastCount, compared / 4, "the one-pass form should answer for most plain URLs")
    }
}
