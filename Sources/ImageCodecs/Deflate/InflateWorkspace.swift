/// The memory one ``Inflater`` run needs for its decoding tables, carved out of one allocation so
/// that a stream costs one `malloc` however many blocks it has.
struct InflateWorkspace {
    /// The literal/length table of the current dynamic block.
    let literalLengthTable: UnsafeMutablePointer<UInt32>
    /// The distance table of the current dynamic block.
    let distanceTable: UnsafeMutablePointer<UInt32>
    /// The code-length table of the current dynamic block's header.
    let codeLengthTable: UnsafeMutablePointer<UInt32>
    /// The literal/length table of the fixed code, built on the first fixed block.
    let fixedLiteralLengthTable: UnsafeMutablePointer<UInt32>
    /// The distance table of the fixed code, built on the first fixed block.
    let fixedDistanceTable: UnsafeMutablePointer<UInt32>
    /// The entries of the 288 literal/length symbols (``HuffmanTable/literalLengthSymbols``).
    let literalLengthSymbols: UnsafeMutablePointer<UInt32>
    /// The entries of the 32 distance symbols (``HuffmanTable/distanceSymbols``).
    let distanceSymbols: UnsafeMutablePointer<UInt32>
    /// The entries of the 19 code-length symbols (``HuffmanTable/codeLengthSymbols``).
    let codeLengthSymbols: UnsafeMutablePointer<UInt32>
    /// The code lengths a dynamic block header declares: up to 286 + 30, padded to 320.
    let codeLengths: UnsafeMutablePointer<UInt8>
    /// The table builder's working memory.
    let scratch: HuffmanTable.Scratch

    private let allocation: UnsafeMutableRawPointer

    /// The number of 32-bit table entries before the byte-sized areas.
    private static let entryCount =
        HuffmanTable.literalLengthCapacity + HuffmanTable.distanceCapacity
        + HuffmanTable.codeLengthCapacity + fixedLiteralLengthCount + fixedDistanceCount + 288 + 32 + 19
    /// The fixed literal/length code has no code longer than 9 bits, so its root table suffices.
    private static let fixedLiteralLengthCount = 1 << HuffmanTable.literalLengthRootBits
    private static let fixedDistanceCount = 1 << HuffmanTable.distanceRootBits

    /// Allocates the memory and copies the symbol entries into it. Call ``deallocate()`` after use.
    init() {
        // Rounded up so the Int area after the entries is aligned.
        let entryBytes = (Self.entryCount * MemoryLayout<UInt32>.stride + 7) & ~7
        let intBytes = (16 + 17 + 16) * MemoryLayout<Int>.stride
        let byteCount = entryBytes + intBytes + 2 * 320 * MemoryLayout<UInt16>.stride + 320
        allocation = .allocate(byteCount: byteCount, alignment: MemoryLayout<Int>.alignment)
        let entries = allocation.bindMemory(to: UInt32.self, capacity: Self.entryCount)
        var next = entries
        func carve(_ count: Int) -> UnsafeMutablePointer<UInt32> {
            defer { next += count }
            return next
        }
        literalLengthTable = carve(HuffmanTable.literalLengthCapacity)
        distanceTable = carve(HuffmanTable.distanceCapacity)
        codeLengthTable = carve(HuffmanTable.codeLengthCapacity)
        fixedLiteralLengthTable = carve(Self.fixedLiteralLengthCount)
        fixedDistanceTable = carve(Self.fixedDistanceCount)
        literalLengthSymbols = carve(288)
        distanceSymbols = carve(32)
        codeLengthSymbols = carve(19)
        literalLengthSymbols.initialize(from: HuffmanTable.literalLengthSymbols, count: 288)
        distanceSymbols.initialize(from: HuffmanTable.distanceSymbols, count: 32)
        codeLengthSymbols.initialize(from: HuffmanTable.codeLengthSymbols, count: 19)

        let ints = (allocation + entryBytes).bindMemory(to: Int.self, capacity: 16 + 17 + 16)
        let sorted = (allocation + entryBytes + intBytes).bindMemory(to: UInt16.self, capacity: 320)
        let reversedCodes = (allocation + entryBytes + intBytes + 640).bindMemory(to: UInt16.self, capacity: 320)
        scratch = HuffmanTable.Scratch(
            counts: ints, offsets: ints + 16, sortedSymbols: sorted, reversedCodes: reversedCodes,
            literalEnds: ints + 33)
        codeLengths = (allocation + entryBytes + intBytes + 1280).bindMemory(to: UInt8.self, capacity: 320)
    }

    /// Frees the memory; no pointer of this workspace may be used afterwards.
    func deallocate() {
        allocation.deallocate()
    }
}
