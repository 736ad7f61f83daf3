import ImageCodecs

/// The example Huffman tables of ITU T.81 Annex K.3 (tables K.3 to K.6), which nearly every
/// baseline encoder writes: good for typical photos and needing no statistics pass. The counts
/// and symbols are the decoder's own (``StandardHuffmanTables``), which it substitutes for a
/// missing DHT.
enum JPEGStandardHuffmanTables {
    /// Table K.3: luminance DC differences, categories 0...11.
    static let luminanceDC = JPEGHuffmanCode(
        codeLengthCounts: StandardHuffmanTables.luminanceDCCounts.map(UInt8.init), symbols: Array(0...11))

    /// Table K.4: chrominance DC differences, categories 0...11.
    static let chrominanceDC = JPEGHuffmanCode(
        codeLengthCounts: StandardHuffmanTables.chrominanceDCCounts.map(UInt8.init), symbols: Array(0...11))

    /// Table K.5: luminance AC run/size symbols (`run << 4 | size`), 162 of them.
    static let luminanceAC = JPEGHuffmanCode(
        codeLengthCounts: StandardHuffmanTables.luminanceACCounts.map(UInt8.init),
        symbols: StandardHuffmanTables.luminanceACSymbols)

    /// Table K.6: chrominance AC run/size symbols, 162 of them.
    static let chrominanceAC = JPEGHuffmanCode(
        codeLengthCounts: StandardHuffmanTables.chrominanceACCounts.map(UInt8.init),
        symbols: StandardHuffmanTables.chrominanceACSymbols)
}
