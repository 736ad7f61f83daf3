import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The journal's records: whole ones are read back exactly, and the first torn or altered one
/// stops the reader without poisoning what came before it.
final class DiskCacheJournalFormatTests: XCTestCase {
    private func journal(entries: Int) -> [UInt8] {
        var bytes = DiskCacheJournalFormat.header
        for number in 0..<entries {
            DiskCacheJournalFormat.appendPut(
                SHA256.hash("\(number)"), size: number, checksum: UInt32(number), validity: validity(), to: &bytes)
        }
        DiskCacheJournalFormat.appendDigestRecord(.remove, SHA256.hash("0"), to: &bytes)
        DiskCacheJournalFormat.appendDigestRecord(.touch, SHA256.hash("1"), to: &bytes)
        return bytes
    }

    private func load(_ bytes: [UInt8]) -> (index: DiskCacheIndex, validLength: Int) {
        bytes.withUnsafeBytes { DiskCacheIndex.load(journal: $0, bodySizeLimit: .max) }
    }

    func test_wholeJournal_loadsEveryRecord() {
        let bytes = journal(entries: 5)
        let (index, validLength) = load(bytes)
        XCTAssertEqual(validLength, bytes.count)
        XCTAssertEqual(index.count, 4)
        XCTAssertNil(index.slot(of: SHA256.hash("0")))
        XCTAssertEqual(index.entry(at: index.slotsFromLeastRecent.last!).digest, SHA256.hash("1"))
        XCTAssertEqual(index.validity(at: index.slot(of: SHA256.hash("3"))!).entityTag, "\"v1\"")
        index.checkInvariants()
    }

    func test_journalCutAtEveryByte_loadsExactlyTheWholeRecordsBeforeTheCut() {
        // Given
        let bytes = journal(entries: 3)
        var recordEnds = [DiskCacheJournalFormat.headerSize]
        var offset = DiskCacheJournalFormat.headerSize
        while offset < bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            offset += length + DiskCacheJournalFormat.recordOverhead
            recordEnds.append(offset)
        }
        XCTAssertEqual(recordEnds.count, 6)
        // When / Then
        for cut in DiskCacheJournalFormat.headerSize...bytes.count {
            let (index, validLength) = load(Array(bytes[..<cut]))
            XCTAssertEqual(validLength, recordEnds.last { $0 <= cut }, "cut at \(cut)")
            index.checkInvariants()
        }
    }

    func test_alteredByte_dropsItsRecordAndEverythingAfter() {
        let bytes = journal(entries: 4)
        let recordSize = DiskCacheJournalFormat.putRecordSize(
            validatorLength: "\"v1\"".utf8.count + "Wed, 21 Oct 2015 07:28:00 GMT".utf8.count)
        for position in stride(from: DiskCacheJournalFormat.headerSize, to: bytes.count, by: 7) {
            var altered = bytes
            altered[position] ^= 0x20
            let (index, validLength) = load(altered)
            let record = (position - DiskCacheJournalFormat.headerSize) / recordSize
            if record < 4 {
                XCTAssertEqual(validLength, DiskCacheJournalFormat.headerSize + record * recordSize, "byte \(position)")
                XCTAssertEqual(index.count, record)
            } else {
                XCTAssertLessThan(validLength, bytes.count, "byte \(position)")
            }
        }
    }

    func test_garbageHeader_trustsNothing() {
        var bytes = journal(entries: 2)
        bytes[3] = UInt8(ascii: "X")
        XCTAssertEqual(load(bytes).validLength, 0)
        XCTAssertEqual(load(bytes).index.count, 0)
        XCTAssertEqual(load(Array(repeating: 0, count: 4_000)).validLength, 0)
    }

    func test_overlongValidators_areLeftOut() {
        var bytes: [UInt8] = []
        let long = String(repeating: "e", count: DiskCacheJournalFormat.maximumValidatorLength + 1)
        DiskCacheJournalFormat.appendPut(
            SHA256.hash("x"), size: 1, checksum: 1, validity: validity(entityTag: long), to: &bytes)
        var index = DiskCacheIndex()
        let outcome = bytes.withUnsafeBytes { DiskCacheJournalFormat.apply($0, to: &index, bodySizeLimit: .max) }
        XCTAssertFalse(outcome.isDamaged)
        XCTAssertNil(index.validity(at: 0).entityTag)
        XCTAssertEqual(index.validity(at: 0).lastModified, "Wed, 21 Oct 2015 07:28:00 GMT")
    }

    func test_maxAgeAndExpires_roundTripThroughRecordsAndCompaction() {
        // Given: entries with max-age, Expires, both, and neither (a record as earlier versions
        // wrote it), with and without validators
        var withBoth = validity()
        withBoth.maxAge = 60
        withBoth.expires = 1_700_000_600.5
        var maxAgeOnly = validity(entityTag: nil, lastModified: nil)
        maxAgeOnly.maxAge = 0
        var expiresOnly = validity(entityTag: "\"e\"", lastModified: nil)
        expiresOnly.expires = 0
        let validities = [withBoth, maxAgeOnly, expiresOnly, validity()]
        var bytes = DiskCacheJournalFormat.header
        for (number, validity) in validities.enumerated() {
            DiskCacheJournalFormat.appendPut(
                SHA256.hash("\(number)"), size: number, checksum: 0, validity: validity, to: &bytes)
        }
        // When: loaded, then compacted and loaded again
        let (index, validLength) = load(bytes)
        let (compacted, compactedLength) = load(index.journalSnapshot)
        // Then
        XCTAssertEqual(validLength, bytes.count)
        XCTAssertEqual(compactedLength, index.journalSnapshot.count)
        XCTAssertEqual(compacted.liveRecordBytes, index.liveRecordBytes)
        XCTAssertEqual(index.liveRecordBytes, bytes.count - DiskCacheJournalFormat.headerSize)
        for loaded in [index, compacted] {
            for (number, validity) in validities.enumerated() {
                guard let slot = loaded.slot(of: SHA256.hash("\(number)")) else {
                    XCTFail("entry \(number) is missing")
                    continue
                }
                XCTAssertEqual(loaded.validity(at: slot), validity, "\(number)")
            }
            loaded.checkInvariants()
        }
    }
}
