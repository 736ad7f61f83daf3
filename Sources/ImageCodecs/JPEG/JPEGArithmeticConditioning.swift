/// The checks libjpeg-turbo makes of a DAC segment (arithmetic-coding conditioning, `get_dac` in
/// jdmarker.c). This decoder refuses arithmetic-coded scans, but libjpeg reads a DAC segment in
/// any file and fails the file on a bad one, so a file djpeg refuses is refused here too rather
/// than shown.
enum JPEGArithmeticConditioning {
    /// The number of conditioning tables of each kind (DC and AC).
    private static let tableCount = 16

    /// Checks the data of a DAC segment (after its length bytes).
    ///
    /// - Throws: ``JPEGError/badSegment(marker:offset:)`` for an odd length, a table index of 32
    ///   or more, or a DC conditioning whose lower bound is above its upper bound.
    static func check(_ data: UnsafeRawBufferPointer, offset: Int) throws(JPEGError) {
        guard data.count.isMultiple(of: 2) else { throw .badSegment(marker: 0xCC, offset: offset) }
        for pair in stride(from: 0, to: data.count, by: 2) {
            let (index, value) = (Int(data[pair]), data[pair + 1])
            guard index < 2 * tableCount else { throw .badSegment(marker: 0xCC, offset: offset) }
            // An AC table takes any value; a DC one packs its bounds L (low nibble) ≤ U.
            if index < tableCount && value & 0x0F > value >> 4 { throw .badSegment(marker: 0xCC, offset: offset) }
        }
    }
}
