/// DEFLATE's length and distance codes (RFC 1951, section 3.2.5): which code stands for a match
/// length or distance, and the extra bits that follow it.
enum DeflateAlphabet {
    /// The smallest length of length codes 257...285 (index 0 is code 257).
    static let lengthBases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
        35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    static let lengthExtraBits = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
        3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    /// The smallest distance of distance codes 0...29.
    static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
        257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
        8193, 12289, 16385, 24577,
    ]
    static let distanceExtraBits = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
        7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    /// The order code-length code lengths are sent in, rarest last so trailing zeros can be cut.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    static let endOfBlock = 256

    /// The length code (0-based, add 257) of every match length 0...258; 0 below 3.
    static let lengthCodeOfLength: [Int] = (0...258).map { length in
        guard length >= 3 else { return 0 }
        return lengthBases.lastIndex { $0 <= length } ?? 0
    }
    /// The distance code of every distance 0...32768; 0 for 0.
    static let distanceCodeOfDistance: [Int] = (0...32_768).map { distance in
        guard distance >= 1 else { return 0 }
        return distanceBases.lastIndex { $0 <= distance } ?? 0
    }
}
