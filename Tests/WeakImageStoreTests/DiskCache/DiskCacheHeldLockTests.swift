import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Another process holding the folder's lock never hangs the cache: opening and writing wait a
/// bounded time, then the cache serves misses and skips writes, counts it, and works again once
/// the lock is free.
final class DiskCacheHeldLockTests: XCTestCase {
    /// Holds the lock file's `flock` as another process would: `flock` locks belong to an open
    /// file description, so this one excludes the cache's own.
    private final class LockHolder {
        private let descriptor: Int32

        init(_ folder: URL) throws {
            descriptor = open(folder.appendingPathComponent("lock").path, O_RDWR)
            XCTAssertGreaterThanOrEqual(descriptor, 0)
            XCTAssertEqual(flock(descriptor, LOCK_EX | LOCK_NB), 0)
        }

        deinit {
            close(descriptor)
        }
    }

    private func openCache(_ folder: URL, lockTimeout: TimeInterval = 0.2) throws -> DiskImageCache {
        try DiskImageCache(directory: folder, sizeLimit: 1 << 20, fileSystem: .posix, lockTimeout: lockTimeout)
    }

    func test_lockHeldByAnotherProcess_opensWithinTheDeadline_asAMiss_andRecoversOnceReleased() throws {
        // Given: an entry stored, then the lock held elsewhere
        let directory = TestDirectory()
        try openCache(directory.url).storeData(Data([1]), for: pictureRequest(1))
        var holder: LockHolder? = try LockHolder(directory.url)
        // When
        let started = DispatchTime.now().uptimeNanoseconds
        let cache = try openCache(directory.url)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        // Then: it opened (well within a generous bound; the deadline is 0.2 s), lookups miss,
        // writes are skipped, and the timeouts are counted
        XCTAssertLessThan(seconds, 10)
        XCTAssertFalse(cache.containsData(for: pictureRequest(1)))
        XCTAssertNil(cache.data(for: pictureRequest(1)))
        XCTAssertThrowsError(try cache.write(Data([2]), validity: validity(), for: pictureIdentity(2)))
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.statistics.lockTimeouts, 2)
        XCTAssertEqual(cache.statistics.errors, 0)
        XCTAssertEqual(DiskCacheFolder(url: directory.url).bodyFiles.count, 1)
        XCTAssertEqual(DiskCacheFolder(url: directory.url).temporaryFiles, [])
        // When: released
        holder = nil
        cache.storeData(Data([2]), for: pictureRequest(2))
        // Then: the write read the index whole first, and both entries are there
        XCTAssertEqual(cache.data(for: pictureRequest(1)), Data([1]))
        XCTAssertEqual(cache.data(for: pictureRequest(2)), Data([2]))
        XCTAssertEqual(cache.count, 2)
        XCTAssertEqual(cache.statistics.lockTimeouts, 2)
        cache._checkInvariants()
        _ = holder
    }

    func test_lockHeldDuringAWrite_skipsIt_thenTriesWithoutWaiting_untilReleased() throws {
        // Given
        let directory = TestDirectory()
        let cache = try openCache(directory.url, lockTimeout: 0.05)
        cache.storeData(Data([1]), for: pictureRequest(1))
        var holder: LockHolder? = try LockHolder(directory.url)
        // When: two writes while held
        cache.storeData(Data([2]), for: pictureRequest(2))
        cache.storeData(Data([3]), for: pictureRequest(3))
        // Then: skipped and counted; what was stored before is still served
        XCTAssertEqual(cache.statistics.lockTimeouts, 2)
        XCTAssertEqual(cache.statistics.writes, 1)
        XCTAssertEqual(cache.data(for: pictureRequest(1)), Data([1]))
        XCTAssertNil(cache.data(for: pictureRequest(2)))
        // When: released
        holder = nil
        cache.storeData(Data([3]), for: pictureRequest(3))
        // Then
        XCTAssertEqual(cache.data(for: pictureRequest(3)), Data([3]))
        XCTAssertEqual(cache.statistics.writes, 2)
        XCTAssertEqual(cache.statistics.lockTimeouts, 2)
        XCTAssertEqual(cache.statistics.errors, 0)
        cache._checkInvariants()
        _ = holder
    }
}
