@testable import ImageCodecs
@testable import WeakImageStore

/// One value at a time, the way T.81's flow charts read bits: what the tests' reference decoders
/// and the bit reader's own tests use (the decoder reads whole symbols from its buffer).
extension JPEGBitReader {
    /// Reads `length` bits (0...16) as an unsigned number.
    mutating func bits(_ length: Int) -> Int {
        if bitCount < length { refill() }
        guard length > 0 else { return 0 }
        let value = peek(length)
        skip(length)
        return value
    }
}
