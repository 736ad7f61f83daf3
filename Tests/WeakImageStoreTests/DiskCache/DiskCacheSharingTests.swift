import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Two processes, one folder: with the lock file around every journal change and each process
/// catching up with the other's records, every entry stays whole and the limit holds for both.
final class DiskCacheSharingTests: XCTestCase {
    func test_twoChildWritersAtOnce_leaveWholeEntriesWithinTheLimit() throws {
        // Given
        let directory = TestDirectory()
        let folder = directory.url.appendingPathComponent("cache")
        let sizeLimit = 120_000
        // When
        let children = try (1...2).map { seed in
            try ChildWriterProcess.launch(
                directory: folder, sizeLimit: sizeLimit, seed: UInt64(seed), operations: 250, readyFile: nil)
        }
        for child in children { child.waitUntilExit() }
        // Then: each child's own reads were whole and its view within the limit
        for child in children {
            XCTAssertEqual(child.terminationReason, .exit)
            XCTAssertEqual(child.terminationStatus, 0, "a child writer failed its own checks")
        }
        let cache = try makeDiskCache(in: folder, sizeLimit: sizeLimit)
        XCTAssertEqual(cache.statistics.errors, 0)
        var found = 0
        for picture in 0..<ChildWriterProcess.pictures {
            let data = try cache.read(pictureIdentity(picture))?.data
            if let data {
                found += 1
                XCTAssertTrue(ChildWriterBodies.isWhole(data, picture: picture), "picture \(picture)")
            }
        }
        XCTAssertGreaterThan(found, 0)
        let onDisk = DiskCacheFolder(url: folder)
        XCTAssertLessThanOrEqual(cache.totalSize, sizeLimit)
        XCTAssertEqual(cache.totalSize, onDisk.bytesOnDisk)
        XCTAssertEqual(onDisk.bodyFiles.count, cache.count)
        cache._checkInvariants()
    }

    func test_secondCacheOnTheSameFolder_seesTheFirstsWrites_atItsNextJournalChange() throws {
        // Given: two caches on one folder, as two processes would have
        let directory = TestDirectory()
        let first = try makeDiskCache(in: directory.url, sizeLimit: 50_000)
        let second = try makeDiskCache(in: directory.url, sizeLimit: 50_000)
        for number in 0..<4 { first.storeData(seededBytes(10_000, seed: UInt64(number)), for: pictureRequest(number)) }
        XCTAssertEqual(second.count, 0)
        // When: the second one writes, it catches up first, and evicts on the combined view
        second.storeData(seededBytes(10_000, seed: 9), for: pictureRequest(9))
        // Then
        XCTAssertEqual(second.count, 4)
        XCTAssertFalse(second.containsData(for: pictureRequest(0)))
        XCTAssertEqual(second.data(for: pictureRequest(3)), seededBytes(10_000, seed: 3))
        XCTAssertLessThanOrEqual(second.totalSize, 50_000)
        XCTAssertEqual(second.totalSize, DiskCacheFolder(url: directory.url).bytesOnDisk)
        // The first one's stale view lists the evicted entry; reading it finds no body, catches up
        // under the lock, and reports a miss, not an error, and the second one's entry.
        XCTAssertTrue(first.containsData(for: pictureRequest(0)))
        XCTAssertFalse(first.containsData(for: pictureRequest(9)))
        XCTAssertNil(first.data(for: pictureRequest(0)))
        XCTAssertEqual(first.statistics.errors, 0)
        XCTAssertEqual(first.statistics.misses, 1)
        XCTAssertEqual(first.data(for: pictureRequest(9)), seededBytes(10_000, seed: 9))
        first._checkInvariants()
        second._checkInvariants()
    }
}
