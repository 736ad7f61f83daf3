import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Opening after damage: a torn or garbage journal keeps its valid prefix (or nothing), counts
/// an error, and only then lists the folder to delete bodies it no longer names; a normal open
/// never lists it. Temporary files of dead writers are deleted.
final class DiskCacheRecoveryTests: XCTestCase {
    private var journalPath: (TestDirectory) -> String = { $0.url.appendingPathComponent("journal").path }

    /// A cache folder with entries 0..<count of 100 bytes each, closed again.
    private func folderWithEntries(_ count: Int, in directory: TestDirectory) throws {
        let cache = try makeDiskCache(in: directory.url)
        for number in 0..<count { cache.storeData(seededBytes(100, seed: UInt64(number)), for: pictureRequest(number)) }
    }

    private func append(_ bytes: [UInt8], toFileAt path: String) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(bytes))
        handle.closeFile()
    }

    func test_tornLastRecord_isIgnored_theRestOpens_andLaterAppendsFollowTheGoodPrefix() throws {
        // Given: the last record cut in half
        let directory = TestDirectory()
        try folderWithEntries(3, in: directory)
        let path = journalPath(directory)
        let size = DiskCacheFolder(url: directory.url).journalSize
        XCTAssertEqual(truncate(path, off_t(size - 20)), 0)
        // When
        let cache = try makeDiskCache(in: directory.url)
        // Then
        XCTAssertEqual(cache.count, 2)
        XCTAssertEqual(cache.data(for: pictureRequest(1)), seededBytes(100, seed: 1))
        XCTAssertNil(cache.data(for: pictureRequest(2)))
        XCTAssertEqual(cache.statistics.errors, 1)
        // Its body is no longer listed, so the repair deleted it.
        XCTAssertEqual(DiskCacheFolder(url: directory.url).bodyFiles.count, 2)
        cache.storeData(Data([5]), for: pictureRequest(5))
        let reopened = try makeDiskCache(in: directory.url)
        XCTAssertEqual(reopened.data(for: pictureRequest(5)), Data([5]))
        XCTAssertEqual(reopened.statistics.errors, 0)
        reopened._checkInvariants()
    }

    func test_garbageAfterTheRecords_isDropped_andCountedOnce() throws {
        let directory = TestDirectory()
        try folderWithEntries(3, in: directory)
        try append(Array(seededBytes(500, seed: 9)), toFileAt: journalPath(directory))
        let cache = try makeDiskCache(in: directory.url)
        XCTAssertEqual(cache.count, 3)
        XCTAssertEqual(cache.statistics.errors, 1)
        XCTAssertEqual(cache.totalSize, DiskCacheFolder(url: directory.url).bytesOnDisk)
        XCTAssertEqual(try makeDiskCache(in: directory.url).statistics.errors, 0)
    }

    func test_alteredRecordInTheMiddle_keepsOnlyTheRecordsBeforeIt() throws {
        let directory = TestDirectory()
        try folderWithEntries(4, in: directory)
        let path = journalPath(directory)
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
        let recordSize = (bytes.count - DiskCacheJournalFormat.headerSize) / 4
        bytes[DiskCacheJournalFormat.headerSize + recordSize + 40] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        let cache = try makeDiskCache(in: directory.url)
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.data(for: pictureRequest(0)), seededBytes(100, seed: 0))
        XCTAssertEqual(cache.statistics.errors, 1)
        XCTAssertEqual(DiskCacheFolder(url: directory.url).bodyFiles.count, 1)
    }

    func test_garbageJournal_opensEmpty_deletesTheBodies_andCountsAnError() throws {
        // Given
        let directory = TestDirectory()
        try folderWithEntries(3, in: directory)
        try seededBytes(3_000, seed: 1).write(to: URL(fileURLWithPath: journalPath(directory)))
        // When
        let cache = try makeDiskCache(in: directory.url)
        // Then
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.statistics.errors, 1)
        XCTAssertEqual(DiskCacheFolder(url: directory.url).bodyFiles.count, 0)
        XCTAssertEqual(cache.totalSize, DiskCacheJournalFormat.headerSize)
        cache.storeData(Data([1]), for: pictureRequest(1))
        XCTAssertEqual(try makeDiskCache(in: directory.url).data(for: pictureRequest(1)), Data([1]))
    }

    func test_deletedJournal_opensEmpty() throws {
        let directory = TestDirectory()
        try folderWithEntries(2, in: directory)
        XCTAssertEqual(unlink(journalPath(directory)), 0)
        let cache = try makeDiskCache(in: directory.url)
        XCTAssertEqual(cache.count, 0)
        XCTAssertNil(cache.data(for: pictureRequest(0)))
    }

    func test_normalOpen_neverListsTheFolder_butADamagedOneDeletesUnlistedBodies() throws {
        // Given: a body file no record names, as only a folder listing would notice
        let directory = TestDirectory()
        try folderWithEntries(2, in: directory)
        let stray = DiskCacheFolder(url: directory.url).bodyPath(pictureIdentity(77))
        try FileManager.default.createDirectory(
            atPath: (stray as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: stray, contents: Data([1, 2, 3])))
        // When: opened normally
        _ = try makeDiskCache(in: directory.url)
        // Then: untouched
        XCTAssertTrue(FileManager.default.fileExists(atPath: stray))
        // When: opened after the journal's tail was damaged
        try append([0xFF, 0x00, 0x13], toFileAt: journalPath(directory))
        let cache = try makeDiskCache(in: directory.url)
        // Then: the listing ran and deleted only the stray
        XCTAssertFalse(FileManager.default.fileExists(atPath: stray))
        XCTAssertEqual(cache.count, 2)
        XCTAssertEqual(DiskCacheFolder(url: directory.url).bodyFiles.count, 2)
    }

    func test_temporaryFilesOfDeadProcesses_areDeleted_butALiveProcessesAreKept() throws {
        // Given
        let directory = TestDirectory()
        try folderWithEntries(1, in: directory)
        let temporary = directory.url.appendingPathComponent("tmp")
        let dead = temporary.appendingPathComponent("\(Int32.max - 1)-abc.body").path
        let unnamed = temporary.appendingPathComponent("leftover").path
        let live = temporary.appendingPathComponent("1-def.body").path  // pid 1 always runs
        for path in [dead, unnamed, live] {
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([1])))
        }
        // When
        _ = try makeDiskCache(in: directory.url)
        // Then
        XCTAssertEqual(DiskCacheFolder(url: directory.url).temporaryFiles, ["1-def.body"])
    }

    func test_compactedJournal_keepsEveryEntryAndTheUseOrder() throws {
        // Given: many replacements, so the journal is compacted along the way
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        for round in 0..<60 {
            for number in 0..<20 { cache.storeData(Data([UInt8(round), UInt8(number)]), for: pictureRequest(number)) }
        }
        _ = cache.data(for: pictureRequest(0))
        cache.storeData(Data([9]), for: pictureRequest(99))
        let journalSize = DiskCacheFolder(url: directory.url).journalSize
        XCTAssertLessThan(journalSize, 60 * 20 * DiskCacheJournalFormat.putRecordSize(validatorLength: 0) / 4)
        // When
        let reopened = try makeDiskCache(in: directory.url)
        // Then: every entry, with its last bytes
        XCTAssertEqual(reopened.count, 21)
        for number in 0..<20 { XCTAssertEqual(reopened.data(for: pictureRequest(number)), Data([59, UInt8(number)])) }
        reopened._checkInvariants()
    }
}
