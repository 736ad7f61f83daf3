import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The name table of the hit path: a `Dictionary` in behaviour, keyed by UTF-8 bytes.
final class StringTableTests: XCTestCase {
    func test_insertLookUpReplaceRemove() {
        var table = StringTable<Int>()
        XCTAssertNil(table["icon"])
        table["icon"] = 1
        table["icons/back"] = 2
        XCTAssertEqual(table["icon"], 1)
        XCTAssertEqual(table["icons/back"], 2)
        table["icon"] = 3
        XCTAssertEqual(table["icon"], 3)
        XCTAssertEqual(table.count, 2)
        table["icon"] = nil
        XCTAssertNil(table["icon"])
        XCTAssertEqual(table["icons/back"], 2)
        XCTAssertEqual(table.count, 1)
    }

    /// Every length class of the fingerprint (0, 1–3, 4–7, 8–16, over 16) tells keys apart that
    /// differ in one byte anywhere.
    func test_keysDifferingInOneByte_atEveryPositionAndLength_areDistinct() {
        for length in 0...40 {
            var table = StringTable<Int>()
            let base = String(repeating: "a", count: length)
            table[base] = -1
            for position in 0..<length {
                var bytes = Array(base.utf8)
                bytes[position] = UInt8(ascii: "b")
                let key = String(decoding: bytes, as: UTF8.self)
                XCTAssertNil(table[key], "length \(length), position \(position) found the base key")
                table[key] = position
            }
            XCTAssertEqual(table[base], -1, "length \(length)")
            for position in 0..<length {
                var bytes = Array(base.utf8)
                bytes[position] = UInt8(ascii: "b")
                XCTAssertEqual(table[String(decoding: bytes, as: UTF8.self)], position, "length \(length)")
            }
            XCTAssertEqual(table.count, length + 1)
        }
    }

    /// Canonically equivalent spellings are different keys, as they are different file names.
    func test_keysAreBytes_notCanonicalEquivalence() {
        var table = StringTable<String>()
        table["K"] = "letter"
        table["\u{212A}"] = "kelvin"
        table["caf\u{E9}"] = "precomposed"
        XCTAssertEqual(table["K"], "letter")
        XCTAssertEqual(table["\u{212A}"], "kelvin")
        XCTAssertNil(table["cafe\u{301}"])
        XCTAssertEqual(table.count, 3)
    }

    /// A long random run against a `Dictionary` keyed by bytes: inserts, replacements, removals
    /// (which shift probe runs back) and lookups, on keys short and long, ASCII and not, enough
    /// to grow the table several times and make collisions of home slots common.
    func test_randomOperations_matchADictionaryOfBytes() {
        var random = SeededGenerator(seed: 0x5EED)
        let alphabet = ["a", "b", "/", "é", "\u{301}", "€", "@2x", ".png"]
        func randomKey() -> String {
            (0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
        }
        var table = StringTable<Int>()
        var model: [[UInt8]: Int] = [:]
        for step in 0..<20_000 {
            let key = randomKey()
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                table[key] = step
                model[Array(key.utf8)] = step
            case 5..<7:
                table[key] = nil
                model[Array(key.utf8)] = nil
            default:
                XCTAssertEqual(table[key], model[Array(key.utf8)], "step \(step), key \(key.debugDescription)")
            }
            XCTAssertEqual(table.count, model.count, "step \(step)")
        }
        for (bytes, value) in model {
            XCTAssertEqual(table[String(decoding: bytes, as: UTF8.self)], value)
        }
    }

    func test_valueAtIndex_changesInPlace() {
        var table = StringTable<[Int]>()
        table["icon"] = [1]
        let index = table.index(forKey: "icon")!
        table[valueAt: index].append(2)
        XCTAssertEqual(table["icon"], [1, 2])
    }

    func test_removeAll_keepingCapacity_forgetsEveryKey() {
        var table = StringTable<Int>()
        for number in 0..<100 { table["name\(number)"] = number }
        table.removeAll(keepingCapacity: true)
        XCTAssertEqual(table.count, 0)
        XCTAssertNil(table["name7"])
        table["name7"] = 7
        XCTAssertEqual(table["name7"], 7)
        table.removeAll()
        XCTAssertTrue(table.isEmpty)
        XCTAssertNil(table["name7"])
    }
}
