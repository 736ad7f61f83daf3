import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The hard limit: bodies plus journal never exceed it once a write returns, the least recently
/// used entries (reads count as use) go first, and a body too large is refused.
final class DiskCacheSizeLimitTests: XCTestCase {
    func test_leastRecentlyUsedEntryIsEvicted_andAReadCountsAsUse() throws {
        // Given: room for about four 10 KB bodies
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url, sizeLimit: 45_000)
        for number in 0..<4 { cache.storeData(seededBytes(10_000, seed: UInt64(number)), for: pictureRequest(number)) }
        XCTAssertEqual(cache.count, 4)
        // When: 0 is read, so 1 is the least recently used
        XCTAssertNotNil(cache.data(for: pictureRequest(0)))
        cache.storeData(seededBytes(10_000, seed: 4), for: pictureRequest(4))
        // Then
        XCTAssertTrue(cache.containsData(for: pictureRequest(0)))
        XCTAssertFalse(cache.containsData(for: pictureRequest(1)))
        XCTAssertTrue(cache.containsData(for: pictureRequest(2)))
        XCTAssertTrue(cache.containsData(for: pictureRequest(4)))
        XCTAssertEqual(cache.statistics.evictions, 1)
        XCTAssertLessThanOrEqual(cache.totalSize, 45_000)
        XCTAssertEqual(cache.totalSize, DiskCacheFolder(url: directory.url).bytesOnDisk)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: DiskCacheFolder(url: directory.url).bodyPath(pictureIdentity(1))))
        cache._checkInvariants()
    }

    func test_useOrder_survivesReopening() throws {
        // Given: 0 read after 1 and 2 were written
        let directory = TestDirectory()
        let first = try makeDiskCache(in: directory.url, sizeLimit: 45_000)
        for number in 0..<3 { first.storeData(seededBytes(10_000, seed: UInt64(number)), for: pictureRequest(number)) }
        XCTAssertNotNil(first.data(for: pictureRequest(0)))
        // A write carries the pending touch into the journal.
        first.storeData(seededBytes(10_000, seed: 3), for: pictureRequest(3))
        // When: reopened, a fifth body needs room
        let cache = try makeDiskCache(in: directory.url, sizeLimit: 45_000)
        cache.storeData(seededBytes(10_000, seed: 4), for: pictureRequest(4))
        // Then: 1 was the least recently used
        XCTAssertTrue(cache.containsData(for: pictureRequest(0)))
        XCTAssertFalse(cache.containsData(for: pictureRequest(1)))
    }

    func test_reopeningWithASmallerLimit_evictsDownToIt() throws {
        let directory = TestDirectory()
        let first = try makeDiskCache(in: directory.url, sizeLimit: 100_000)
        for number in 0..<8 { first.storeData(seededBytes(10_000, seed: UInt64(number)), for: pictureRequest(number)) }
        let cache = try makeDiskCache(in: directory.url, sizeLimit: 35_000)
        XCTAssertLessThanOrEqual(cache.totalSize, 35_000)
        XCTAssertEqual(cache.count, 3)
        XCTAssertTrue(cache.containsData(for: pictureRequest(7)))
        XCTAssertEqual(cache.totalSize, DiskCacheFolder(url: directory.url).bytesOnDisk)
        cache._checkInvariants()
    }

    func test_bodyLargerThanTheLimit_isNotStored_andEvictsNothing() throws {
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url, sizeLimit: 20_000)
        cache.storeData(Data([1]), for: pictureRequest(1))
        XCTAssertFalse(try cache.write(seededBytes(20_000, seed: 1), validity: validity(), for: pictureIdentity(2)))
        cache.storeData(seededBytes(25_000, seed: 1), for: pictureRequest(3))
        XCTAssertEqual(cache.count, 1)
        XCTAssertTrue(cache.containsData(for: pictureRequest(1)))
        XCTAssertEqual(DiskCacheFolder(url: directory.url).temporaryFiles, [])
    }

    func test_bodyFillingTheWholeLimit_evictsEverythingElse() throws {
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url, sizeLimit: 20_000)
        for number in 0..<5 { cache.storeData(seededBytes(1_000, seed: UInt64(number)), for: pictureRequest(number)) }
        let large = seededBytes(19_000, seed: 9)
        cache.storeData(large, for: pictureRequest(9))
        XCTAssertEqual(cache.data(for: pictureRequest(9)), large)
        XCTAssertLessThanOrEqual(cache.totalSize, 20_000)
        XCTAssertEqual(cache.count, 1)
        cache._checkInvariants()
    }

    func test_eightConcurrentWriters_neverLeaveTheTotalOverTheLimit() throws {
        // Given
        let directory = TestDirectory()
        let limit = 200_000
        let cache = try makeDiskCache(in: directory.url, sizeLimit: limit)
        let overruns = Lock([Int]())
        let threads = 8
        let writesPerThread = 150
        // When
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var random = SeededGenerator(seed: UInt64(thread) + 100)
            for write in 0..<writesPerThread {
                let number = random.int(in: 0...199)
                let body = seededBytes(random.int(in: 100...12_000), seed: UInt64(thread * 10_000 + write))
                cache.storeData(body, for: pictureRequest(number))
                let total = cache.totalSize
                if total > limit { overruns.withLock { $0.append(total) } }
            }
        }
        // Then
        XCTAssertEqual(overruns.withLock { $0 }, [])
        XCTAssertEqual(cache.statistics.writes, threads * writesPerThread)
        XCTAssertGreaterThan(cache.statistics.evictions, 0)
        XCTAssertEqual(cache.totalSize, DiskCacheFolder(url: directory.url).bytesOnDisk)
        XCTAssertLessThanOrEqual(DiskCacheFolder(url: directory.url).bytesOnDisk, limit)
        cache._checkInvariants()
    }

    func test_journalOfTinyEntries_isCompacted_soItNeverCrowdsOutTheLimit() throws {
        // Given: bodies smaller than their records, rewritten over and over
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url, sizeLimit: 30_000)
        // When
        for round in 0..<2_000 { cache.storeData(Data([UInt8(round & 0xFF)]), for: pictureRequest(round % 50)) }
        // Then: the journal was rewritten rather than left to grow
        let folder = DiskCacheFolder(url: directory.url)
        XCTAssertLessThanOrEqual(cache.totalSize, 30_000)
        XCTAssertLessThan(folder.journalSize, 2 * 50 * DiskCacheJournalFormat.putRecordSize(validatorLength: 0) + 4_200)
        XCTAssertEqual(cache.count, 50)
        XCTAssertEqual(cache.totalSize, folder.bytesOnDisk)
        let reopened = try makeDiskCache(in: directory.url, sizeLimit: 30_000)
        XCTAssertEqual(reopened.data(for: pictureRequest(49)), Data([UInt8(1_999 & 0xFF)]))
        XCTAssertEqual(reopened.count, 50)
    }
}
