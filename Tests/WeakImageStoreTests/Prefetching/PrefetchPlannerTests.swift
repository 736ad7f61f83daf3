import XCTest

@testable import WeakImageStore

/// The planner looks ahead by the scroll's speed and a row's load time, one screen in a fling,
/// in the scroll's direction, within the list.
final class PrefetchPlannerTests: XCTestCase {
    /// A planner of 100 rows that saw the list move `rowsPerSecond` for a second, 6 rows visible,
    /// ending with `visible`.
    private func planner(movingAt rowsPerSecond: Double, endingAt top: Int) -> PrefetchPlanner {
        var planner = PrefetchPlanner(rowCount: 100)
        for step in 0...10 {
            let seconds = Double(step) / 10
            let row = top - Int((rowsPerSecond * (1 - seconds)).rounded())
            planner.visibleRowsChanged(row..<(row + 6), at: seconds)
        }
        return planner
    }

    func test_stillList_loadsTheVisibleRows_aScreenAhead_andOneBehind() {
        var planner = PrefetchPlanner(rowCount: 100)
        planner.visibleRowsChanged(10..<16, at: 0)
        planner.visibleRowsChanged(10..<16, at: 0.5)

        let plan = planner.plan(secondsPerRow: 0.4)

        XCTAssertEqual(plan.rowsPerSecond, 0)
        XCTAssertFalse(plan.isFling)
        XCTAssertEqual(plan.rowsAhead, 6)
        XCTAssertEqual(plan.rows.map(\.index), Array(10..<16) + Array(16..<22) + [9])
        XCTAssertEqual(plan.rows.filter { $0.priority == .normal }.map(\.index), Array(10..<17))
        XCTAssertTrue(plan.keptRows.contains(9) && plan.keptRows.contains(21))
        XCTAssertFalse(plan.keptRows.contains(8), "a row two behind is cancelled")
    }

    func test_browsing_looksAheadByTheLoadTime_urgentRowsFirst() {
        let plan = planner(movingAt: 10, endingAt: 30).plan(secondsPerRow: 0.4)

        XCTAssertEqual(plan.rowsPerSecond, 10, accuracy: 0.01)
        // A screen + 10 rows/s × 0.4 s × 2.
        XCTAssertEqual(plan.rowsAhead, 14)
        let ahead = plan.rows.filter { $0.index >= 36 }
        XCTAssertEqual(ahead.map(\.index), Array(36..<50), "nearest first")
        // The 4 rows that appear within one load's time, and one more, are needed first.
        XCTAssertEqual(ahead.map(\.priority), Array(repeating: .normal, count: 5) + Array(repeating: .low, count: 9))
    }

    func test_slowerLoads_lookFurtherAhead() {
        let fast = planner(movingAt: 10, endingAt: 30).plan(secondsPerRow: 0.2)
        let slow = planner(movingAt: 10, endingAt: 30).plan(secondsPerRow: 0.8)

        XCTAssertLessThan(fast.rowsAhead, slow.rowsAhead)
    }

    func test_fling_fallsBackToOneScreen_atLowPriority() {
        let plan = planner(movingAt: 60, endingAt: 70).plan(secondsPerRow: 0.4)

        XCTAssertTrue(plan.isFling, "60 rows/s × 0.4 s × 2 is past 3 screens")
        XCTAssertEqual(plan.rowsAhead, 6)
        XCTAssertEqual(plan.rows.filter { $0.index >= 76 }.map(\.priority), Array(repeating: .low, count: 6))
    }

    func test_scrollingUp_looksAbove_andKeepsOneBelow() {
        let plan = planner(movingAt: -10, endingAt: 50).plan(secondsPerRow: 0.4)

        XCTAssertLessThan(plan.rowsPerSecond, 0)
        XCTAssertEqual(plan.rows.filter { $0.index < 50 }.map(\.index), Array((36..<50).reversed()))
        XCTAssertEqual(plan.rows.filter { $0.index >= 56 }.map(\.index), [56])
    }

    func test_planStaysWithinTheList() {
        var planner = PrefetchPlanner(rowCount: 20)
        planner.visibleRowsChanged(0..<6, at: 0)
        planner.visibleRowsChanged(14..<20, at: 1)

        let plan = planner.plan(secondsPerRow: 0.4)

        XCTAssertEqual(plan.rows.map(\.index).sorted(), Array(13..<20))
        XCTAssertEqual(plan.keptRows.upperBound, 20)
        XCTAssertEqual(PrefetchPlanner(rowCount: 0).plan(secondsPerRow: 1).rows, [])
    }

    func test_speedWindow_forgetsOldMovement() {
        var planner = PrefetchPlanner(rowCount: 1000)
        planner.visibleRowsChanged(0..<6, at: 0)
        planner.visibleRowsChanged(100..<106, at: 0.5)
        XCTAssertEqual(planner.rowsPerSecond, 200, accuracy: 0.01)

        planner.visibleRowsChanged(100..<106, at: 2)
        planner.visibleRowsChanged(100..<106, at: 3.1)

        XCTAssertEqual(planner.rowsPerSecond, 0, "a list still for over a window is still")
    }

    func test_aScrollThatStarts_looksAheadWithinAQuarterWindow_andSlowsDownOverTheWindow() {
        var planner = PrefetchPlanner(rowCount: 1000)
        planner.visibleRowsChanged(0..<6, at: 0)
        planner.visibleRowsChanged(0..<6, at: 1)
        planner.visibleRowsChanged(3..<9, at: 1.25)
        XCTAssertEqual(planner.rowsPerSecond, 12, accuracy: 0.01, "the last quarter second counts at once")

        planner.visibleRowsChanged(3..<9, at: 1.6)
        XCTAssertEqual(planner.rowsPerSecond, 3 / 1.6, accuracy: 0.01, "a pause keeps the window's speed")
    }

    func test_loadEstimate_addsTransferAndDecode_andFillsTheGaps() {
        let measured = LoadEstimate(
            latency: 0.04, bytesPerSecond: 1_000_000, bytesPerImage: 300_000, decodeSeconds: 0.02)
        XCTAssertEqual(measured.secondsToImage(), 0.36, accuracy: 1e-9)
        XCTAssertEqual(LoadEstimate().secondsToImage(unmeasured: (1, 0.5)), 1.5)
        XCTAssertEqual(LoadEstimate(decodeSeconds: 0.1).secondsToImage(unmeasured: (1, 0.5)), 1.1, accuracy: 1e-9)
        XCTAssertEqual(
            LoadEstimate(decodeSeconds: 0.1, comesOverNetwork: false).secondsToImage(unmeasured: (1, 0.5)), 0.1,
            "a file or a data provider has no transfer")
    }
}
