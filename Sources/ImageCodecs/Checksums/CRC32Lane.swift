/// Checks the CRC-32s of a list of byte ranges (a PNG's IDAT chunks) eight bytes at a time, from
/// inside another hot loop.
///
/// Inflate's symbol loop waits on a chain of dependent loads and leaves execution units idle:
/// folding eight bytes into a CRC on each of its rounds costs less than half what a separate
/// pass over the same bytes did (BENCHMARKS.md). The lane is not tied to what the loop reads; it only borrows its rounds. It
/// walks the ranges in order, checks each range's stored CRC-32 at its end, and stops at the first
/// mismatch. Whatever the loop leaves, ``finish()`` checks.
///
/// Any copy of a lane is a consistent state: a copy taken earlier has only done less of the work.
struct CRC32Lane {
    /// A range whose stored CRC-32 differs from the one computed.
    struct Mismatch: Equatable {
        /// The range's position in the list.
        let rangeIndex: Int
        let declared: UInt32
        let computed: UInt32
    }

    /// Each range is immediately followed by its stored CRC-32, big-endian: a PNG chunk's type and
    /// data, then its CRC.
    private let ranges: [UnsafeRawBufferPointer]
    /// The range being folded.
    private var rangeIndex = 0
    /// The next byte to fold.
    private var cursor: UnsafeRawPointer
    /// The current range's end: where its stored CRC-32 starts.
    private var rangeEnd: UnsafeRawPointer
    /// The last address an eight-byte fold may start at within the current range; 0 when it is
    /// shorter than eight bytes or the lane has stopped (an address, not a pointer, so that it
    /// can say "none").
    private var foldLimit: UInt = 0
    private var register: UInt32 = 0xFFFF_FFFF
    /// ``CRC32/tables``, held here so that a hot loop keeps it in a register.
    private let table: UnsafePointer<UInt32>
    /// Whether ranges remain to be checked and no mismatch was found.
    private var isChecking = true
    /// The first mismatch, once found.
    private(set) var mismatch: Mismatch?

    /// Prepares to check `ranges` in order.
    ///
    /// - Parameter ranges: Byte ranges, each followed in memory by 4 readable bytes, its stored
    ///   CRC-32 (big-endian). They must stay valid and unchanged while the lane is used. Defaults
    ///   to none: a lane for loops that have nothing to check.
    init(ranges: [UnsafeRawBufferPointer] = []) {
        precondition(ranges.allSatisfy { $0.baseAddress != nil }, "a range without memory")
        self.ranges = ranges
        table = CRC32.tables.pointer
        // Never read: a lane without a range has no fold limit and does not check.
        cursor = UnsafeRawPointer(table)
        rangeEnd = cursor
        startRange(0)
    }

    /// Folds the next eight bytes of the current range if it has them; else, once in a while,
    /// checks the end of the range and moves to the next (a cold call). Cheap enough to call on
    /// every round of a hot loop.
    @inline(__always)
    mutating func advance() {
        if UInt(bitPattern: cursor) <= foldLimit {
            register = CRC32.fold8(register, cursor, table: table)
            cursor += 8
        } else if isChecking {
            finishRange()
        }
    }

    /// Checks every range the lane has not reached yet, in order.
    ///
    /// - Returns: The first range whose stored CRC-32 does not match, or `nil` if all do.
    mutating func finish() -> Mismatch? {
        while isChecking { finishRange() }
        return mismatch
    }

    /// Folds the current range's last bytes, compares the result with its stored CRC-32, and
    /// moves to the next range, or stops at a mismatch or after the last range.
    @inline(never)
    private mutating func finishRange() {
        guard isChecking else { return }
        register = CRC32.update(register, with: UnsafeRawBufferPointer(start: cursor, count: rangeEnd - cursor))
        let computed = ~register
        let declared = UInt32(bigEndian: rangeEnd.loadUnaligned(as: UInt32.self))
        guard declared == computed else {
            mismatch = Mismatch(rangeIndex: rangeIndex, declared: declared, computed: computed)
            stop()
            return
        }
        startRange(rangeIndex + 1)
    }

    private mutating func startRange(_ index: Int) {
        guard index < ranges.count else {
            stop()
            return
        }
        // Every range has memory (checked in `init`).
        let start = ranges[index].baseAddress.unsafelyUnwrapped
        let count = ranges[index].count
        rangeIndex = index
        cursor = start
        rangeEnd = start + count
        foldLimit = count >= 8 ? UInt(bitPattern: start + (count - 8)) : 0
        register = 0xFFFF_FFFF
    }

    private mutating func stop() {
        isChecking = false
        foldLimit = 0
    }
}
