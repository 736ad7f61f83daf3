import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Journals whose checksums all hold but whose values are absurd — written by a buggy or hostile
/// process, not torn by a crash: they open without trapping and without unbounded allocation,
/// as damaged indexes (the absurd record and everything after it dropped, the error counted).
final class DiskCacheHostileJournalTests: XCTestCase {
    private let sizeLimit = 1 << 20

    /// A journal: the header, then a put for each `(picture, size)`, all checksums valid.
    private func journal(_ puts: [(picture: Int, size: Int)], freshUntil: Double = 0) -> [UInt8] {
        var bytes = DiskCacheJournalFormat.header
        for put in puts {
            DiskCacheJournalFormat.appendPut(
                DiskImageCache.digest(of: pictureIdentity(put.picture)), size: put.size, checksum: 0,
                validity: ResponseValidity(
                    freshUntil: freshUntil, revalidatesEveryUse: false, entityTag: nil, lastModified: nil),
                to: &bytes)
        }
        return bytes
    }

    private func openCache(_ directory: TestDirectory, writing bytes: [UInt8], sizeLimit: Int? = nil) throws
        -> DiskImageCache
    {
        try Data(bytes).write(to: directory.url.appendingPathComponent("journal"))
        return try makeDiskCache(in: directory.url, sizeLimit: sizeLimit ?? self.sizeLimit)
    }

    func test_recordOfABodyLargerThanTheLimit_evenIntMax_isDamage() throws {
        for absurd in [Int.max, sizeLimit + 1] {
            // Given
            let directory = TestDirectory()
            let bytes = journal([(1, 10), (2, absurd), (3, 10)])
            // When
            let cache = try openCache(directory, writing: bytes)
            // Then: the record before stands, the absurd one and the one after are dropped
            XCTAssertTrue(cache.containsData(for: pictureRequest(1)))
            XCTAssertFalse(cache.containsData(for: pictureRequest(2)))
            XCTAssertFalse(cache.containsData(for: pictureRequest(3)))
            XCTAssertEqual(cache.statistics.errors, 1)
            XCTAssertEqual(DiskCacheFolder(url: directory.url).journalSize, journal([(1, 10)]).count)
            cache._checkInvariants()
        }
    }

    func test_sizesThatSumPastIntMax_areDamage_evenWithoutALimit() throws {
        // Given: five records each within an Int.max limit; their sum overflows
        let directory = TestDirectory()
        let quarter = Int.max / 4
        let bytes = journal((1...5).map { ($0, quarter) })
        // When: parsed directly, and opened
        let (index, validLength) = bytes.withUnsafeBytes { DiskCacheIndex.load(journal: $0, bodySizeLimit: .max) }
        let cache = try openCache(directory, writing: bytes, sizeLimit: .max)
        // Then: the sum stops at the index's bound, the record that would cross it is damage
        XCTAssertEqual(index.count, 1)
        XCTAssertEqual(index.bodyBytes, quarter)
        XCTAssertEqual(validLength, journal([(1, quarter)]).count)
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.statistics.errors, 1)
        cache._checkInvariants()
    }

    func test_sparseTerabyteJournal_opensByReadingABoundedPrefix_keepingItsValidRecords() throws {
        // Given: two valid records, then a hole to one terabyte
        let directory = TestDirectory()
        let records = journal([(1, 10), (2, 10)])
        let path = directory.url.appendingPathComponent("journal").path
        try Data(records).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(truncate(path, off_t(1) << 40), 0)
        // When
        let cache = try makeDiskCache(in: directory.url, sizeLimit: sizeLimit)
        // Then: a damaged index; the journal cut back to its valid records
        XCTAssertEqual(cache.count, 2)
        XCTAssertEqual(cache.statistics.errors, 1)
        XCTAssertEqual(DiskCacheFolder(url: directory.url).journalSize, records.count)
        XCTAssertLessThanOrEqual(cache._indexMemoryFootprint, 2 << 20)
        cache._checkInvariants()
    }

    func test_longZeroFilledJournal_reservesABoundedIndex() throws {
        // Given: a valid header followed by 60 MiB of zeros (sparse), for a cache whose limit
        // would let a journal be that long: a length that promises a million entries
        let directory = TestDirectory()
        let path = directory.url.appendingPathComponent("journal").path
        try Data(DiskCacheJournalFormat.header).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(truncate(path, 60 << 20), 0)
        // When
        let cache = try makeDiskCache(in: directory.url, sizeLimit: 1 << 40)
        // Then
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.statistics.errors, 1)
        XCTAssertLessThanOrEqual(cache._indexMemoryFootprint, 16 << 20, "\(cache._indexMemoryFootprint) bytes")
    }

    func test_freshUntilThatIsNotFinite_readsAsStale() throws {
        for time in [Double.nan, .infinity, -.infinity] {
            let bytes = journal([(1, 10)], freshUntil: time)
            let (index, _) = bytes.withUnsafeBytes { DiskCacheIndex.load(journal: $0, bodySizeLimit: .max) }
            let slot = try XCTUnwrap(index.slot(of: DiskImageCache.digest(of: pictureIdentity(1))))
            XCTAssertEqual(index.validity(at: slot).freshUntil, 0, "\(time)")
        }
    }
}
