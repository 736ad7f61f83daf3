/// Decodes an `ALPH` chunk (RFC 9649 §2.7.1.2) into one alpha byte per pixel.
///
/// The header byte names the compression (0 raw, 1 a VP8L stream whose green channel is the
/// alpha), the filter (none, horizontal, vertical, gradient) and the pre-processing. A
/// pre-processing of 1 says the encoder quantised the levels; the decoder need do nothing, and
/// `dwebp` by default does nothing (its dequantising smoothing runs only with `-alpha_dither`),
/// so neither does this one.
enum WebPAlphaDecoder {
    /// The alpha plane of a `width` × `height` image from the `ALPH` payload `payload`.
    ///
    /// - Parameter tableByteLimit: The most bytes the VP8L prefix tables may take.
    /// - Returns: `width * height` alpha values, row by row.
    /// - Throws: ``WebPError/badAlphaHeader(byte:)``, ``WebPError/alphaDataTooShort(expected:available:)``
    ///   or the VP8L stream's error.
    static func decode(
        _ payload: UnsafeRawBufferPointer, width: Int, height: Int, tableByteLimit: Int
    ) throws(WebPError) -> [UInt8] {
        guard let header = payload.first else { throw .alphaDataTooShort(expected: width * height, available: 0) }
        let method = header & 0x03
        let filter = Int(header >> 2 & 0x03)
        let preprocessing = header >> 4 & 0x03
        guard method <= 1, preprocessing <= 1, header >> 6 == 0 else { throw .badAlphaHeader(byte: header) }
        let count = width * height
        let stream = UnsafeRawBufferPointer(rebasing: payload.dropFirst())
        var failure: WebPError?
        var alpha = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Both sides are at least 1, so the buffer has a base address.
            guard let plane = buffer.baseAddress else { return }
            plane.initialize(repeating: 0, count: count)
            initialized = count
            if method == 0 {
                guard stream.count >= count else {
                    failure = .alphaDataTooShort(expected: count, available: stream.count)
                    return
                }
                // Checked above: the stream holds at least `count` bytes, so it has a base address.
                if let source = stream.baseAddress {
                    plane.update(from: source.assumingMemoryBound(to: UInt8.self), count: count)
                }
                return
            }
            let argb = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
            defer { argb.deallocate() }
            argb.initialize(repeating: 0, count: count)
            var decoder = VP8LDecoder(stream, chunk: "ALPH", tableByteLimit: tableByteLimit)
            do throws(WebPError) {
                try decoder.decodeImage(width: width, height: height, into: argb)
            } catch {
                failure = error
                return
            }
            for index in 0..<count {
                plane[index] = UInt8(truncatingIfNeeded: argb[index] >> 8)
            }
        }
        if let failure { throw failure }
        alpha.withUnsafeMutableBufferPointer { plane in
            // `plane` holds `width * height` values, checked at its creation.
            guard let plane = plane.baseAddress else { return }
            unfilter(plane, width: width, height: height, filter: filter)
        }
        return alpha
    }

    /// Undoes the prediction filter in place, row by row, as libwebp's unfilters do: a row's
    /// first value is predicted from the one above it (0 on the first row), the first row of
    /// every filter is predicted from the left.
    static func unfilter(_ plane: UnsafeMutablePointer<UInt8>, width: Int, height: Int, filter: Int) {
        guard filter != 0 else { return }
        for y in 0..<height {
            let row = plane + y * width
            guard y > 0 else {
                var left: UInt8 = 0
                for x in 0..<width {
                    left = left &+ row[x]
                    row[x] = left
                }
                continue
            }
            let above = row - width
            switch filter {
            case 1:
                var left = above[0]
                for x in 0..<width {
                    left = left &+ row[x]
                    row[x] = left
                }
            case 2:
                for x in 0..<width {
                    row[x] = row[x] &+ above[x]
                }
            default:
                var left = above[0]
                var topLeft = above[0]
                for x in 0..<width {
                    let top = above[x]
                    let predicted = min(max(Int(left) + Int(top) - Int(topLeft), 0), 255)
                    left = row[x] &+ UInt8(predicted)
                    topLeft = top
                    row[x] = left
                }
            }
        }
    }
}
