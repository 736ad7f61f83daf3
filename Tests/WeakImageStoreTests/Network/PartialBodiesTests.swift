import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The table of partial bodies kept for resuming: one per identity, the oldest dropped first to
/// stay within the count and the byte limit; files are never touched, the dropped are returned.
final class PartialBodiesTests: XCTestCase {
    private func partial(_ name: String, length: Int = 100, path: String? = nil) -> PartialBody {
        PartialBody(
            identity: URLSource(URL(string: "https://example.com/\(name)")!, cacheKey: nil).identity,
            path: path ?? "/tmp/\(name).partial", length: length, validator: "\"v\"", totalLength: nil)
    }

    func test_keepingASecondBodyOfAnIdentity_replacesTheFirst() {
        var table = PartialBodies(maximumTotalLength: 1_000)
        XCTAssertEqual(table.keep(partial("a", path: "/tmp/a1")), [])
        let dropped = table.keep(partial("a", length: 200, path: "/tmp/a2"))
        XCTAssertEqual(dropped.map(\.path), ["/tmp/a1"])
        XCTAssertEqual(table.bodies.map(\.path), ["/tmp/a2"])
    }

    func test_theOldest_goFirst_pastTheCount() {
        var table = PartialBodies(maximumTotalLength: 1 << 30)
        var dropped: [PartialBody] = []
        for index in 0..<(PartialBodies.maximumCount + 2) { dropped += table.keep(partial("\(index)")) }
        XCTAssertEqual(dropped.map(\.path), ["/tmp/0.partial", "/tmp/1.partial"])
        XCTAssertEqual(table.bodies.count, PartialBodies.maximumCount)
    }

    func test_theOldest_goFirst_pastTheByteLimit_andABodyOverItAlone_isNotKept() {
        var table = PartialBodies(maximumTotalLength: 250)
        XCTAssertEqual(table.keep(partial("a")), [])
        XCTAssertEqual(table.keep(partial("b")), [])
        XCTAssertEqual(table.keep(partial("c")).map(\.path), ["/tmp/a.partial"])
        XCTAssertEqual(table.totalLength, 200)
        XCTAssertEqual(
            table.keep(partial("huge", length: 251)).map(\.path),
            ["/tmp/b.partial", "/tmp/c.partial", "/tmp/huge.partial"])
        XCTAssertEqual(table.bodies, [])
    }

    func test_take_andRemoveAll_emptyTheTable() {
        var table = PartialBodies(maximumTotalLength: 1_000)
        _ = table.keep(partial("a"))
        _ = table.keep(partial("b"))
        XCTAssertEqual(table.take(partial("a").identity)?.path, "/tmp/a.partial")
        XCTAssertNil(table.take(partial("a").identity))
        XCTAssertEqual(table.removeAll().map(\.path), ["/tmp/b.partial"])
        XCTAssertEqual(table.bodies, [])
    }
}
