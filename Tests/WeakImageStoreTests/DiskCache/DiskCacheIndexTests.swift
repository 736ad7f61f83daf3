import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The in-memory index: a compact entry, a table that finds every digest after any mix of puts
/// and removes, and an LRU list in use order.
final class DiskCacheIndexTests: XCTestCase {
    private func digest(_ number: Int) -> SHA256Digest { SHA256.hash("entry \(number)") }

    private func put(_ number: Int, size: Int = 10, validators: [UInt8] = [], into index: inout DiskCacheIndex) {
        _ = validators.withUnsafeBytes { bytes in
            index.put(
                digest(number), size: size, checksum: UInt32(number), freshUntil: 0,
                flags: validators.isEmpty ? 0 : DiskCacheIndexEntry.Flag.hasEntityTag,
                entityTagLength: validators.count,
                lastModifiedLength: 0, validatorBytes: bytes)
        }
    }

    func test_entry_fitsIn72Bytes() {
        XCTAssertLessThanOrEqual(MemoryLayout<DiskCacheIndexEntry>.stride, 72)
    }

    func test_hundredThousandEntries_takeAtMost128BytesEach() {
        var index = DiskCacheIndex()
        for number in 0..<100_000 { put(number, into: &index) }
        XCTAssertEqual(index.count, 100_000)
        XCTAssertLessThanOrEqual(index.memoryFootprint / index.count, 128, "\(index.memoryFootprint) bytes")
        index.checkInvariants()
    }

    func test_randomPutsAndRemoves_agreeWithADictionary() {
        // Given
        var index = DiskCacheIndex()
        var model: [Int: Int] = [:]
        var random = SeededGenerator(seed: 42)
        // When
        for step in 0..<20_000 {
            let number = random.int(in: 0...999)
            if random.int(in: 0...2) == 0 {
                XCTAssertEqual(index.remove(digest(number)), model.removeValue(forKey: number) != nil)
            } else {
                let size = random.int(in: 0...1_000)
                let validators = [UInt8](repeating: UInt8(number & 0xFF), count: random.int(in: 0...40))
                put(number, size: size, validators: validators, into: &index)
                model[number] = size
            }
            if step % 1_000 == 0 { index.checkInvariants() }
        }
        // Then
        index.checkInvariants()
        XCTAssertEqual(index.count, model.count)
        XCTAssertEqual(index.bodyBytes, model.values.reduce(0, +))
        for number in 0...999 {
            XCTAssertEqual(index.slot(of: digest(number)).map { index.entry(at: $0).size }, model[number])
        }
    }

    func test_lruOrder_followsPutsAndTouches() {
        var index = DiskCacheIndex()
        for number in 0..<5 { put(number, size: 100, into: &index) }
        index.touch(digest(1))
        put(3, size: 100, into: &index)
        index.remove(digest(0))
        let order = index.slotsFromLeastRecent.map { index.entry(at: $0).digest }
        XCTAssertEqual(order, [2, 4, 1, 3].map(digest))
        // Each eviction frees 100 bytes of body and costs a 41-byte remove record.
        XCTAssertEqual(
            index.evictionVictims(projectedTotal: index.bodyBytes + 110, limit: index.bodyBytes, sparing: digest(2)),
            [4, 1].map(digest))
        XCTAssertNil(index.evictionVictims(projectedTotal: 1_000, limit: 10, sparing: nil))
    }

    func test_validators_surviveStorageCompaction() {
        var index = DiskCacheIndex()
        for round in 0..<200 {
            for number in 0..<20 {
                put(number, validators: [UInt8](repeating: UInt8(round), count: 100 + number), into: &index)
            }
        }
        index.checkInvariants()
        for number in 0..<20 {
            let slot = index.slot(of: digest(number))!
            index.withValidatorBytes(at: slot) {
                XCTAssertEqual(Array($0), [UInt8](repeating: 199, count: 100 + number))
            }
        }
        XCTAssertLessThan(index.memoryFootprint, 64 * 1024)
    }
}
