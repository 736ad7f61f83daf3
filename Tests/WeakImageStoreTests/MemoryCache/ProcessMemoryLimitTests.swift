import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class ProcessMemoryLimitTests: XCTestCase {
    private let physicalMemory = 8 << 30
    private let gibibyte = 1 << 30

    /// Writes the cgroup files given (nil: no file) and reads the limit through them.
    private func limit(v2: String?, v1: String?) -> ProcessMemoryLimit {
        let directory = TestDirectory()
        let v2Path = v2.map { directory.write("memory.max", Array($0.utf8)) } ?? directory.path + "/missing-v2"
        let v1Path =
            v1.map { directory.write("memory.limit_in_bytes", Array($0.utf8)) } ?? directory.path + "/missing-v1"
        return ProcessMemoryLimit.fromControlGroups(
            controlGroupV2Path: v2Path, controlGroupV1Path: v1Path, physicalMemory: physicalMemory)
    }

    func test_limit_comesFromCgroupV2_whenItHoldsBytes() {
        XCTAssertEqual(
            limit(v2: "1073741824\n", v1: "536870912\n"), ProcessMemoryLimit(bytes: gibibyte, source: .controlGroupV2))
    }

    func test_limit_fallsBackToCgroupV1_whenV2SaysMax() {
        XCTAssertEqual(
            limit(v2: "max\n", v1: "536870912\n"), ProcessMemoryLimit(bytes: gibibyte / 2, source: .controlGroupV1))
    }

    func test_limit_fallsBackToPhysicalMemory_whenV1IsTheUnlimitedSentinel() {
        XCTAssertEqual(
            limit(v2: "max\n", v1: "9223372036854771712\n"),
            ProcessMemoryLimit(bytes: physicalMemory, source: .physicalMemory))
    }

    func test_limit_fallsThrough_garbageAndEmptyFiles() {
        XCTAssertEqual(
            limit(v2: "12abc\n", v1: "2147483648"), ProcessMemoryLimit(bytes: 2 * gibibyte, source: .controlGroupV1))
        XCTAssertEqual(limit(v2: "", v1: "-5\n"), ProcessMemoryLimit(bytes: physicalMemory, source: .physicalMemory))
        XCTAssertEqual(
            limit(v2: String(repeating: "9", count: 40), v1: nil),
            ProcessMemoryLimit(bytes: physicalMemory, source: .physicalMemory))
    }

    func test_limit_isPhysicalMemory_whenNoCgroupFileExists() {
        XCTAssertEqual(limit(v2: nil, v1: nil), ProcessMemoryLimit(bytes: physicalMemory, source: .physicalMemory))
    }

    func test_limit_isPhysicalMemory_whenCgroupAllowsMoreThanTheMachineHas() {
        XCTAssertEqual(
            limit(v2: "\(physicalMemory * 2)\n", v1: nil),
            ProcessMemoryLimit(bytes: physicalMemory, source: .physicalMemory))
    }

    func test_parseLimit_acceptsDigitsAndOneNewlineOnly() {
        XCTAssertEqual(ProcessMemoryLimit.parseLimit("4096\n"), 4096)
        XCTAssertEqual(ProcessMemoryLimit.parseLimit("4096"), 4096)
        XCTAssertNil(ProcessMemoryLimit.parseLimit("max\n"))
        XCTAssertNil(ProcessMemoryLimit.parseLimit(" 4096"))
        XCTAssertNil(ProcessMemoryLimit.parseLimit("4096\n\n"))
        XCTAssertNil(ProcessMemoryLimit.parseLimit(""))
    }

    func test_liveCostLimit_isTheDocumentedFraction() {
        let limit = ProcessMemoryLimit(bytes: 4 * gibibyte, source: .controlGroupV2)

        XCTAssertEqual(limit.liveCostLimit(), gibibyte)
        XCTAssertEqual(limit.liveCostLimit(fraction: 0.5), 2 * gibibyte)
        XCTAssertEqual(ProcessMemoryLimit.recommendedFraction, 0.25)
    }

    func test_current_isPositive_andNoMoreThanPhysicalMemory() {
        let current = ProcessMemoryLimit.current
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)

        XCTAssertGreaterThan(current.bytes, 0)
        XCTAssertLessThanOrEqual(current.bytes, physical)
        XCTAssertEqual(ProcessMemoryLimit.recommendedLiveCostLimit(), current.liveCostLimit())
    }
}
