import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Faults degrade to misses and counted errors, never to a crash or to altered bytes: a full
/// disk, a read-only folder, a deleted folder, bodies truncated or altered behind the cache's back.
final class DiskCacheFaultTests: XCTestCase {
    // MARK: - Bodies changed behind the cache's back

    func test_truncatedBody_throwsLengthMismatch_isDropped_andCounted() throws {
        // Given
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        cache.storeData(seededBytes(1_000, seed: 1), for: pictureRequest(1))
        let path = DiskCacheFolder(url: directory.url).bodyPath(pictureIdentity(1))
        XCTAssertEqual(truncate(path, 600), 0)
        // When / Then
        XCTAssertThrowsError(try cache.read(pictureIdentity(1))) { error in
            XCTAssertEqual(
                error as? DiskCacheError, .bodyLengthMismatch(pictureIdentity(1), recorded: 1_000, found: 600))
        }
        XCTAssertFalse(cache.containsData(for: pictureRequest(1)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(cache.statistics.errors, 1)
        XCTAssertNil(try makeDiskCache(in: directory.url).entry(for: pictureIdentity(1)))
        cache._checkInvariants()
    }

    func test_alteredBody_throwsChecksumMismatch_andItsBytesAreNeverReturned() throws {
        // Given: one byte flipped, same length
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        let body = seededBytes(1_000, seed: 1)
        cache.storeData(body, for: pictureRequest(1))
        let path = DiskCacheFolder(url: directory.url).bodyPath(pictureIdentity(1))
        var altered = body
        altered[500] ^= 1
        try altered.write(to: URL(fileURLWithPath: path))
        // When / Then
        XCTAssertThrowsError(try cache.read(pictureIdentity(1))) { error in
            guard case .bodyChecksumMismatch(pictureIdentity(1), let recorded, let computed) = error as? DiskCacheError
            else { return XCTFail("\(error)") }
            XCTAssertEqual(recorded, body.withUnsafeBytes { CRC32.checksum($0) })
            XCTAssertEqual(computed, altered.withUnsafeBytes { CRC32.checksum($0) })
        }
        XCTAssertNil(cache.data(for: pictureRequest(1)))
        XCTAssertEqual(cache.statistics.errors, 1)
        XCTAssertEqual(cache.statistics.hits, 0)
    }

    func test_deletedBody_throwsBodyMissing_thenMisses() throws {
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        cache.storeData(Data([1, 2, 3]), for: pictureRequest(1))
        XCTAssertEqual(unlink(DiskCacheFolder(url: directory.url).bodyPath(pictureIdentity(1))), 0)
        XCTAssertThrowsError(try cache.read(pictureIdentity(1))) { error in
            XCTAssertEqual(error as? DiskCacheError, .bodyMissing(pictureIdentity(1)))
        }
        XCTAssertNil(try cache.read(pictureIdentity(1)))
        XCTAssertEqual(cache.statistics.misses, 1)
        XCTAssertEqual(cache.statistics.errors, 1)
        XCTAssertEqual(
            DiskCacheError.bodyChecksumMismatch(.url("u"), recorded: 0xAB, computed: 0x1234_5678).description,
            "the disk cache's body of u has CRC-32 0x12345678, not the 0x000000ab recorded")
    }

    // MARK: - Full disk

    func test_fullDiskDuringTheBody_throwsWriteFailed_keepsNothing_andRecovers() throws {
        // Given
        let directory = TestDirectory()
        let disk = FillableFileSystem()
        let cache = try makeDiskCache(in: directory.url, fileSystem: disk.fileSystem)
        cache.storeData(Data([1]), for: pictureRequest(1))
        // When: room for half the body
        disk.fill(after: 500)
        XCTAssertThrowsError(
            try cache.write(seededBytes(1_000, seed: 2), validity: validity(), for: pictureIdentity(2))
        ) {
            guard case .writeFailed(pictureIdentity(2), let reason) = $0 as? DiskCacheError else {
                return XCTFail("\($0)")
            }
            XCTAssertTrue(reason.contains(FileSystem.errorDescription(ENOSPC)), reason)
        }
        cache.storeData(seededBytes(1_000, seed: 3), for: pictureRequest(3))
        // Then
        let folder = DiskCacheFolder(url: directory.url)
        XCTAssertEqual(folder.temporaryFiles, [])
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.statistics.errors, 2)
        XCTAssertEqual(cache.data(for: pictureRequest(1)), Data([1]))
        // When: space again
        disk.isFull = false
        disk.fill(after: .max)
        cache.storeData(seededBytes(1_000, seed: 2), for: pictureRequest(2))
        // Then
        XCTAssertEqual(cache.data(for: pictureRequest(2)), seededBytes(1_000, seed: 2))
        XCTAssertEqual(cache.totalSize, folder.bytesOnDisk)
        cache._checkInvariants()
    }

    func test_fullDiskDuringTheJournalRecord_leavesTheJournalAsItWas() throws {
        // Given: room for the whole body and a few bytes of its record
        let directory = TestDirectory()
        let disk = FillableFileSystem()
        let cache = try makeDiskCache(in: directory.url, fileSystem: disk.fileSystem)
        cache.storeData(Data([1]), for: pictureRequest(1))
        let journalBefore = try XCTUnwrap(
            FileManager.default.contents(atPath: directory.url.appendingPathComponent("journal").path))
        // When
        disk.fill(after: 1_000 + 10)
        XCTAssertThrowsError(
            try cache.write(seededBytes(1_000, seed: 2), validity: validity(), for: pictureIdentity(2)))
        // Then: no torn record in front of later ones, no body, no temporary file
        XCTAssertEqual(
            FileManager.default.contents(atPath: directory.url.appendingPathComponent("journal").path), journalBefore)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: DiskCacheFolder(url: directory.url).bodyPath(pictureIdentity(2))))
        XCTAssertEqual(DiskCacheFolder(url: directory.url).temporaryFiles, [])
        disk.isFull = false
        disk.fill(after: .max)
        cache.storeData(Data([3]), for: pictureRequest(3))
        let reopened = try makeDiskCache(in: directory.url)
        XCTAssertEqual(reopened.statistics.errors, 0)
        XCTAssertEqual(reopened.data(for: pictureRequest(3)), Data([3]))
        XCTAssertNil(reopened.data(for: pictureRequest(2)))
        cache._checkInvariants()
    }

    // MARK: - Folder deleted or read-only

    func test_deletedFolder_isRecreated_andTheCacheKeepsWorking() throws {
        // Given
        let directory = TestDirectory()
        let folder = directory.url.appendingPathComponent("cache")
        let cache = try makeDiskCache(in: folder)
        cache.storeData(Data([1]), for: pictureRequest(1))
        // When
        try FileManager.default.removeItem(at: folder)
        // Then: reads miss, writes work again, and a new open sees them
        XCTAssertNil(cache.data(for: pictureRequest(1)))
        cache.storeData(Data([2]), for: pictureRequest(2))
        XCTAssertEqual(cache.data(for: pictureRequest(2)), Data([2]))
        XCTAssertEqual(cache.count, 1)
        let reopened = try makeDiskCache(in: folder)
        XCTAssertEqual(reopened.data(for: pictureRequest(2)), Data([2]))
        XCTAssertNil(reopened.data(for: pictureRequest(1)))
        XCTAssertEqual(cache.totalSize, DiskCacheFolder(url: folder).bytesOnDisk)
        cache._checkInvariants()
    }

    /// Root writes whatever the modes say, so this skips as root; CI runs it as `nobody` through
    /// `Scripts/test-unprivileged.sh`, which fails if it skips there.
    func test_readOnlyFolder_servesReads_andRefusesWritesWithCountedErrors() throws {
        try XCTSkipIf(getuid() == 0, "root writes files regardless of their mode")
        // Given
        let directory = TestDirectory()
        let folder = directory.url.appendingPathComponent("cache")
        let writer = try makeDiskCache(in: folder)
        writer.storeData(Data([1, 2]), for: pictureRequest(1))
        let layout = DiskCacheLayout(directory: folder.path)
        let folders = [
            layout.directory, layout.temporaryFolder, layout.bodiesFolder,
            layout.bodyFolder(for: DiskImageCache.digest(of: pictureIdentity(1))),
        ]
        for path in folders { XCTAssertEqual(chmod(path, 0o555), 0) }
        XCTAssertEqual(chmod(layout.journalPath, 0o444), 0)
        defer { for path in folders { chmod(path, 0o755) } }
        // When
        let cache = try makeDiskCache(in: folder)
        cache.storeData(Data([3]), for: pictureRequest(3))
        // Then
        XCTAssertEqual(cache.data(for: pictureRequest(1)), Data([1, 2]))
        XCTAssertNil(cache.data(for: pictureRequest(3)))
        XCTAssertEqual(cache.statistics.errors, 1)
        XCTAssertThrowsError(try cache.write(Data([4]), validity: validity(), for: pictureIdentity(4)))
        // A removal the disk refuses still leaves this cache's view.
        cache.removeData(for: pictureRequest(1))
        XCTAssertNil(cache.data(for: pictureRequest(1)))
        XCTAssertEqual(cache.statistics.errors, 3)
        XCTAssertEqual(try makeDiskCache(in: folder).data(for: pictureRequest(1)), Data([1, 2]))
    }

    /// Skips as root, which may create folders anywhere; run as `nobody` by
    /// `Scripts/test-unprivileged.sh`.
    func test_folderThatCannotBeCreated_throwsDiskCacheUnavailable() throws {
        try XCTSkipIf(getuid() == 0, "root creates folders regardless of modes")
        let directory = TestDirectory()
        let parent = directory.makeDirectory("locked")
        XCTAssertEqual(chmod(parent.path, 0o555), 0)
        defer { chmod(parent.path, 0o755) }
        let target = parent.appendingPathComponent("cache")
        XCTAssertThrowsError(try DiskImageCache(directory: target)) { error in
            XCTAssertEqual(
                error as? ImageStoreError, .diskCacheUnavailable(target, reason: FileSystem.errorDescription(EACCES)))
        }
    }
}
