import XCTest

@testable import WeakImageStore

/// The meter's latencies: the average follows every response, the fastest latency (how soon a
/// response may come, which the downloader holds a cancelled transfer by) barely moves for a
/// slow one.
final class LoadMeterTests: XCTestCase {
    func test_fastestLatency_dropsToAFasterResponse_andBarelyRisesForASlowOne() throws {
        let meter = LoadMeter()
        XCTAssertNil(meter.fastestLatency(host: "a"))

        meter.recordTransfer(host: "a", latency: 0.05, bodySeconds: 0.1, bytes: 1_000)
        meter.recordTransfer(host: "a", latency: 0.04, bodySeconds: 0.1, bytes: 1_000)
        XCTAssertEqual(meter.fastestLatency(host: "a"), 0.04)

        meter.recordTransfer(host: "a", latency: 0.4, bodySeconds: 0.1, bytes: 1_000)
        XCTAssertEqual(try XCTUnwrap(meter.fastestLatency(host: "a")), 0.04 + 0.36 / 64, accuracy: 1e-9)
        XCTAssertGreaterThan(try XCTUnwrap(meter.estimate(host: "a").latency), 0.08, "the average follows it")
        XCTAssertNil(meter.fastestLatency(host: "b"), "per host")
    }
}
