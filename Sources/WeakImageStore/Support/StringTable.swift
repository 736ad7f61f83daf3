import Foundation

/// A hash table from strings to values, for lookups on the store's hit path.
///
/// `Dictionary` hashes a `String` with SipHash over its normalized Unicode scalars: on the short
/// names an app looks up, too much of a cache hit (BENCHMARKS.md). This table reads the UTF-8 bytes once,
/// a word at a time: they give a hash (a per-table random seed and folded 64 × 64-bit
/// multiplies) and, for keys of up to 16 bytes, two words holding every byte, which is what a
/// probe compares. Collisions probe linearly; removals shift later entries back.
///
/// **Keys are their bytes**: two strings are the same key when their UTF-8 is, not when Unicode
/// calls them canonically equivalent (`"\u{212A}"`, the Kelvin sign, is not `"K"`). File names
/// are bytes too, so a name resolves as it is spelled.
///
/// The seed keeps hash values unpredictable from outside the process; the hash is not a
/// cryptographic one, which a table bounded by its owner (see ``ResolutionCache``) does not need.
struct StringTable<Value> {
    /// A slot's position, valid until the table is next changed.
    typealias Index = Int

    fileprivate struct Entry {
        var key: String
        var fingerprint: Fingerprint
        var value: Value?

        static var empty: Entry { Entry(key: "", fingerprint: Fingerprint(), value: nil) }
    }

    /// What a probe compares: the byte count, the hash, and for keys of up to 16 bytes, words that
    /// hold every byte (which words for which count is fixed, so equal words mean equal bytes).
    fileprivate struct Fingerprint: Equatable {
        var hash: UInt64 = 0
        var count = 0
        var first: UInt64 = 0
        var second: UInt64 = 0
    }

    /// The longest key compared by its fingerprint alone.
    private static var wordBytes: Int { 16 }

    /// Each slot's hash, 0 when the slot is empty (a key hashing to 0 is stored as 1).
    private var hashes: [UInt64]
    private var entries: [Entry]
    /// `hashes.count - 1`; the capacity is a power of two.
    private var mask: Int
    private let seed: UInt64
    private(set) var count = 0

    init() {
        hashes = Array(repeating: 0, count: 8)
        entries = Array(repeating: .empty, count: 8)
        mask = 7
        seed = UInt64.random(in: .min ... .max)
    }

    var isEmpty: Bool { count == 0 }

    /// Where `key` is stored, or nil.
    @inline(__always)
    func index(forKey key: String) -> Index? {
        Self.withBytes(of: key) { bytes in
            let fingerprint = Self.fingerprint(of: bytes, seed: seed)
            var slot = Int(truncatingIfNeeded: fingerprint.hash) & mask
            while true {
                let stored = hashes[slot]
                if stored == 0 { return nil }
                if stored == fingerprint.hash && matches(entries[slot], fingerprint, bytes) { return slot }
                slot = (slot &+ 1) & mask
            }
        }
    }

    /// The value stored at `index`, changed in place.
    subscript(valueAt index: Index) -> Value {
        get { entries[index].value! }
        _modify { yield &entries[index].value! }
    }

    subscript(key: String) -> Value? {
        get { index(forKey: key).map { entries[$0].value! } }
        set {
            if let newValue {
                insert(newValue, for: key)
            } else if let index = index(forKey: key) {
                remove(at: index)
            }
        }
    }

    mutating func removeAll(keepingCapacity: Bool = false) {
        guard keepingCapacity else {
            self = StringTable()
            return
        }
        count = 0
        for slot in hashes.indices where hashes[slot] != 0 {
            hashes[slot] = 0
            entries[slot] = .empty
        }
    }

    // MARK: Changes

    private mutating func insert(_ value: Value, for key: String) {
        if let index = index(forKey: key) {
            entries[index].value = value
            return
        }
        // At most half full, so probes stay short and always reach an empty slot.
        if (count + 1) * 2 > hashes.count {
            grow()
        }
        let fingerprint = Self.withBytes(of: key) { Self.fingerprint(of: $0, seed: seed) }
        place(Entry(key: key, fingerprint: fingerprint, value: value))
        count += 1
    }

    private mutating func place(_ entry: Entry) {
        var slot = Int(truncatingIfNeeded: entry.fingerprint.hash) & mask
        while hashes[slot] != 0 { slot = (slot &+ 1) & mask }
        hashes[slot] = entry.fingerprint.hash
        entries[slot] = entry
    }

    private mutating func grow() {
        let oldHashes = hashes
        let oldEntries = entries
        hashes = Array(repeating: 0, count: oldHashes.count * 2)
        entries = Array(repeating: .empty, count: oldHashes.count * 2)
        mask = hashes.count - 1
        for slot in oldHashes.indices where oldHashes[slot] != 0 {
            place(oldEntries[slot])
        }
    }

    /// Empties `index` and moves later entries of its probe run back, so no lookup meets a gap
    /// before its key (no tombstones).
    private mutating func remove(at index: Index) {
        var hole = index
        var slot = index
        while true {
            slot = (slot &+ 1) & mask
            let hash = hashes[slot]
            if hash == 0 { break }
            let home = Int(truncatingIfNeeded: hash) & mask
            // The entry moves back to the hole unless its home lies after the hole.
            if (slot &- home) & mask >= (slot &- hole) & mask {
                hashes[hole] = hash
                entries[hole] = entries[slot]
                hole = slot
            }
        }
        hashes[hole] = 0
        entries[hole] = .empty
        count -= 1
    }

    // MARK: Bytes

    /// Runs `body` on the key's UTF-8; strings not stored as UTF-8 (bridged from Objective-C)
    /// are copied out first.
    @inline(__always)
    private static func withBytes<Result>(of key: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = key.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(key.utf8).withUnsafeBytes(body)
    }

    @inline(__always)
    private func matches(_ entry: Entry, _ fingerprint: Fingerprint, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard entry.fingerprint == fingerprint else { return false }
        guard fingerprint.count > Self.wordBytes else { return true }
        return Self.withBytes(of: entry.key) { stored in
            memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
    }

    @inline(__always)
    private static func fingerprint(of bytes: UnsafeRawBufferPointer, seed: UInt64) -> Fingerprint {
        let count = bytes.count
        var fingerprint = Fingerprint(count: count)
        var state = seed ^ UInt64(truncatingIfNeeded: count)
        if count > wordBytes {
            var offset = 0
            while offset + 8 < count {
                state = fold(state ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            // The last eight bytes, overlapping the previous word unless the count is a multiple of 8.
            state = fold(state ^ bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        } else {
            // No load straddles offset 8: a small string's bytes arrive as two words just stored
            // on the stack, and a load spanning both would wait for the stores to retire instead
            // of being forwarded from them.
            if count >= 8 {
                fingerprint.first = bytes.loadUnaligned(as: UInt64.self)
                fingerprint.second = Self.word(of: UnsafeRawBufferPointer(rebasing: bytes[8...]))
            } else {
                fingerprint.first = Self.word(of: bytes)
            }
            state = fold(state ^ fingerprint.first)
            if count >= 8 { state = fold(state ^ fingerprint.second) }
        }
        let hash = fold(state ^ 0x9E37_79B9_7F4A_7C15)
        fingerprint.hash = hash == 0 ? 1 : hash
        return fingerprint
    }

    /// Up to eight bytes as one word; which bytes go where depends only on the count, so equal
    /// words of equal counts mean equal bytes.
    @inline(__always)
    private static func word(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        if count == 8 {
            return bytes.loadUnaligned(as: UInt64.self)
        } else if count >= 4 {
            // The first and the last four bytes cover 4–7 bytes.
            let low = UInt64(bytes.loadUnaligned(as: UInt32.self))
            let high = UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return high << 32 | low
        } else if count > 0 {
            // The first, middle and last bytes cover 1–3 bytes.
            return UInt64(bytes[0]) << 16 | UInt64(bytes[count >> 1]) << 8 | UInt64(bytes[count - 1])
        }
        return 0
    }

    /// A 64 × 64 → 128-bit multiply folded to 64 bits: every input bit reaches every output bit.
    @inline(__always)
    private static func fold(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: 0x9FB2_1C65_1E98_DF25)
        return product.high ^ product.low
    }
}

extension StringTable: Sendable where Value: Sendable {}
extension StringTable.Entry: Sendable where Value: Sendable {}
