/// Walks the marker structure of a JPEG file (T.81 B.1): finds the next marker, skipping fill
/// bytes and, like libjpeg, stray bytes between segments, and hands out segment data with its
/// length checked against the file.
struct JPEGSegmentReader {
    let bytes: UnsafePointer<UInt8>
    let count: Int
    /// The next byte to examine.
    var position: Int
    /// The bytes skipped before the marker ``nextMarker()`` returned last (or before the end of
    /// the file), and where they start. They are counted as libjpeg's `next_marker` counts them
    /// when it warns "extraneous bytes before marker": every byte but `FF`, and 2 for each
    /// stuffed `FF 00`; fill `FF`s are not counted.
    private(set) var extraneousBytes = (count: 0, offset: 0)

    /// A marker and where its `FF` is.
    struct Marker {
        var code: UInt8
        var offset: Int
    }

    /// Checks the SOI marker and positions the reader after it.
    init(bytes: UnsafePointer<UInt8>, count: Int) throws(JPEGError) {
        guard count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notAJPEG }
        self.bytes = bytes
        self.count = count
        position = 2
    }

    /// The next marker, or `nil` at the end of the file.
    mutating func nextMarker() -> Marker? {
        guard let codeIndex = Self.markerCodeIndex(in: bytes, count: count, from: position) else {
            extraneousBytes = (Self.extraneousByteCount(in: bytes, from: position, to: count), position)
            position = count
            return nil
        }
        extraneousBytes = (Self.extraneousByteCount(in: bytes, from: position, to: codeIndex), position)
        position = codeIndex + 1
        return Marker(code: bytes[codeIndex], offset: codeIndex - 1)
    }

    /// The bytes libjpeg discards from `start` up to the marker whose code is at `end` (or up to
    /// the end of the file, `end == count`), where ``markerCodeIndex(in:count:from:)`` found it.
    static func extraneousByteCount(in bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var discarded = 0
        var index = start
        while index < end {
            guard bytes[index] == 0xFF else {
                discarded += 1
                index += 1
                continue
            }
            var next = index + 1
            while next < end && bytes[next] == 0xFF { next += 1 }
            // The marker's own FFs, or fill bytes at the end of the file.
            guard next < end else { break }
            discarded += 2
            index = next + 1
        }
        return discarded
    }

    /// Where the code byte of the first marker at or after `start` is, skipping other bytes,
    /// fill bytes (`FF FF`) and stuffed `FF 00` left over from scan data; nil when the file ends
    /// first. The segment parser and the scan reader's resynchronization both look for markers
    /// this way.
    static func markerCodeIndex(in bytes: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int? {
        var position = start
        while position < count {
            if bytes[position] != 0xFF {
                position += 1
                continue
            }
            var next = position + 1
            while next < count && bytes[next] == 0xFF { next += 1 }
            guard next < count else { return nil }
            if bytes[next] != 0 { return next }
            position = next + 1
        }
        return nil
    }

    /// Whether the file ends inside the segment whose marker was just returned, or its length.
    var segmentIsCut: Bool {
        guard position + 2 <= count else { return true }
        return position + (Int(bytes[position]) << 8 | Int(bytes[position + 1])) > count
    }

    /// The data of a segment the file ends inside, as libjpeg-turbo's file source supplies it:
    /// past the end of the file, every read gets a fake EOI marker, so the missing bytes (length
    /// bytes included) read as `FF D9 FF D9 …`. Leaves the reader at the end of the file.
    ///
    /// - Returns: The data after the two length bytes (at most 65 533 bytes), and what libjpeg
    ///   reads next, up to its first fake EOI: `FF D9`, or `D9 FF D9` when the data ended on a
    ///   fake `FF`.
    mutating func cutSegmentData() -> (data: [UInt8], next: [UInt8]) {
        func byte(_ index: Int) -> UInt8 {
            index < count ? bytes[index] : (index - count) % 2 == 0 ? 0xFF : 0xD9
        }
        let length = Int(byte(position)) << 8 | Int(byte(position + 1))
        let data = (2..<max(length, 2)).map { byte(position + $0) }
        let end = position + max(length, 2)
        position = count
        return (data, end > count && (end - count) % 2 == 1 ? [0xD9, 0xFF, 0xD9] : [0xFF, 0xD9])
    }

    /// A reader of bytes that continue a file (no SOI), positioned at their start.
    init(continuation bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
        position = 0
    }

    /// Reads the data of an APPn, COM or DNL segment, which libjpeg skips: it subtracts 2 from
    /// the length and skips what is left, so a length below 2 reads as no data, not an error.
    ///
    /// - Throws: ``JPEGError/truncated(offset:)`` if the file ends inside the segment.
    mutating func skippableSegmentData(of marker: Marker) throws(JPEGError) -> UnsafeRawBufferPointer {
        guard position + 2 <= count else { throw .truncated(offset: marker.offset) }
        guard Int(bytes[position]) << 8 | Int(bytes[position + 1]) >= 2 else {
            position += 2
            return UnsafeRawBufferPointer(start: bytes + position, count: 0)
        }
        return try segmentData(of: marker)
    }

    /// Reads the length-prefixed data of the segment whose marker was just returned.
    ///
    /// - Returns: The data after the two length bytes.
    /// - Throws: ``JPEGError/truncated(offset:)`` if the file ends inside the segment,
    ///   ``JPEGError/badSegment(marker:offset:)`` if the length is below 2.
    mutating func segmentData(of marker: Marker) throws(JPEGError) -> UnsafeRawBufferPointer {
        guard position + 2 <= count else { throw .truncated(offset: marker.offset) }
        let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
        guard length >= 2 else { throw .badSegment(marker: marker.code, offset: marker.offset) }
        guard position + length <= count else { throw .truncated(offset: marker.offset) }
        let data = UnsafeRawBufferPointer(start: bytes + position + 2, count: length - 2)
        position += length
        return data
    }
}
