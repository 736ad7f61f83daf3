import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Downloads bound for the cache keep at most its size limit in `tmp/` at once, whatever their
/// number and size: six 60 MiB downloads into a 10 MiB cache hold 10 MiB, not 360.
final class DiskCacheTemporaryBudgetTests: XCTestCase {
    private let chunk = 64 * 1024

    func test_sixLargeDownloads_neverReserveMoreThanTheLimit_andEachIsRefusedInTime() throws {
        // Given: a 10 MiB cache, and six downloads of 60 MiB arriving in 64 KiB pieces, in turn
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url, sizeLimit: 10 << 20)
        let budget = cache.temporaryBudget
        let downloads = (0..<6).map { _ in budget.makeReservation() }
        var refused = Set<Int>()
        var peak = 0
        // When
        for _ in 0..<(60 << 20) / chunk {
            for (number, download) in downloads.enumerated() where !refused.contains(number) {
                if !download.grow(by: chunk) { refused.insert(number) }
                peak = max(peak, budget.reservedBytes)
            }
        }
        // Then
        XCTAssertEqual(refused.count, 6)
        XCTAssertEqual(peak, 10 << 20)
        XCTAssertEqual(budget.reservedBytes, downloads.map(\.bytes).reduce(0, +))
        XCTAssertEqual(budget.refusals, 6)
        // When: the files are deleted
        for download in downloads { download.release() }
        // Then: the whole budget is free again
        XCTAssertEqual(budget.reservedBytes, 0)
        XCTAssertTrue(budget.makeReservation().grow(by: 10 << 20))
    }

    func test_droppedReservation_releasesItsBytes_andARefusedGrowthReservesNothing() {
        let budget = DiskCacheTemporaryBudget(limit: 1_000)
        var reservation: DiskCacheTemporaryBudget.Reservation? = budget.makeReservation()
        XCTAssertEqual(reservation?.grow(by: 600), true)
        XCTAssertEqual(reservation?.grow(by: 401), false)
        XCTAssertEqual(budget.reservedBytes, 600)
        XCTAssertEqual(reservation?.bytes, 600)
        reservation = nil
        XCTAssertEqual(budget.reservedBytes, 0)
    }

    func test_concurrentDownloads_reserveExactlyWhatWasGranted() {
        // Given: eight threads growing their own reservation 2,000 times by 1 to 8 bytes
        let budget = DiskCacheTemporaryBudget(limit: 50_000)
        let granted = Lock(0)
        let reservations = (0..<8).map { _ in budget.makeReservation() }
        // When
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var mine = 0
            for step in 0..<2_000 where reservations[thread].grow(by: 1 + (step + thread) % 8) {
                mine += 1 + (step + thread) % 8
            }
            granted.withLock { $0 += mine }
        }
        // Then: within the limit, and every granted byte accounted for
        let total = granted.withLock { $0 }
        XCTAssertLessThanOrEqual(total, 50_000)
        XCTAssertEqual(budget.reservedBytes, total)
        XCTAssertEqual(reservations.map(\.bytes).reduce(0, +), total)
        for reservation in reservations { reservation.release() }
        XCTAssertEqual(budget.reservedBytes, 0)
    }
}
