/// Decoding one image chunk into RGBA, whole or row by row.
extension WebPDecoder {
    /// Decodes `image` into `output`, `image.width * image.height` RGBA pixels.
    func decodePixels(
        _ image: WebPImageChunk, from bytes: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>
    ) throws(WebPError) {
        switch image.coding {
        case .lossless:
            let stream = UnsafeRawBufferPointer(rebasing: bytes[image.bitstream.dropFirst(5)])
            var decoder = VP8LDecoder(stream, chunk: "VP8L", tableByteLimit: maximumDecodingBytes)
            let count = image.width * image.height
            try output.withMemoryRebound(to: UInt32.self, capacity: count) { argb in
                Result(typedCatching: { () throws(WebPError) in
                    try decoder.decodeImage(width: image.width, height: image.height, into: argb)
                    // ARGB values become R, G, B, A bytes in memory.
                    for index in 0..<count {
                        let pixel = argb[index]
                        let rgba = (pixel & 0xFF00_FF00) | (pixel >> 16 & 0xFF) | (pixel & 0xFF) << 16
                        argb[index] = rgba.littleEndian
                    }
                })
            }.typedGet()
        case .lossy:
            let alpha = try alphaPlane(of: image, from: bytes)
            // Rows are converted in place in the output: nothing to copy.
            try Self.lossy { () throws(VP8Error) in
                let header = try VP8FrameHeader(tagOf: UnsafeRawBufferPointer(rebasing: bytes[image.bitstream]))
                try VP8FrameDecoder.decode(lossyStream(of: image, in: bytes), header: header, destination: output) {
                    _, _ in
                }
            }
            if let alpha {
                for index in 0..<image.width * image.height { output[index * 4 + 3] = alpha[index] }
            }
        }
    }

    /// The bytes the VP8 decoder may read: from the chunk's payload to ``WebPImageChunk/streamEnd``.
    private func lossyStream(of image: WebPImageChunk, in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[image.bitstream.lowerBound..<image.streamEnd])
    }

    /// The decoded `ALPH` plane of a lossy image, one byte a pixel, or nil without one.
    private func alphaPlane(of image: WebPImageChunk, from bytes: UnsafeRawBufferPointer) throws(WebPError) -> [UInt8]?
    {
        guard let range = image.alpha else { return nil }
        return try WebPAlphaDecoder.decode(
            UnsafeRawBufferPointer(rebasing: bytes[range]), width: image.width, height: image.height,
            tableByteLimit: maximumDecodingBytes)
    }

    /// Runs a VP8 decode, its errors as WebP's.
    private static func lossy(_ body: () throws(VP8Error) -> Void) throws(WebPError) {
        do {
            try body()
        } catch .cancelled {
            throw .cancelled
        } catch {
            throw .lossyBitstream(error.description)
        }
    }

    /// Decodes `image` row by row, handing each RGBA row to `row`, top first.
    func decodeRows(
        _ image: WebPImageChunk, from bytes: UnsafeRawBufferPointer,
        row: (Int, UnsafePointer<UInt8>) throws(WebPError) -> Void
    ) throws(WebPError) {
        let rowBytes = image.width * 4
        switch image.coding {
        case .lossless:
            // LZ77 references reach back up to a million pixels, so the image is decoded whole.
            let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: image.height * rowBytes)
            defer { pixels.deallocate() }
            pixels.initialize(repeating: 0, count: image.height * rowBytes)
            try decodePixels(image, from: bytes, into: pixels)
            for y in 0..<image.height {
                try row(y, pixels + y * rowBytes)
            }
        case .lossy:
            let alpha = try alphaPlane(of: image, from: bytes)
            let rgba = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
            defer { rgba.deallocate() }
            // The VP8 decoder's row sink cannot throw: the first failure is kept and the rows
            // after it ignored. (Cancellation is polled by the decoder itself, which stops.)
            var failure: WebPError?
            try Self.lossy { () throws(VP8Error) in
                _ = try VP8FrameHeader(tagOf: UnsafeRawBufferPointer(rebasing: bytes[image.bitstream]))
                try VP8Decoder.decode(lossyStream(of: image, in: bytes), maximumPixelCount: maximumPixelCount) {
                    y, decoded in
                    guard failure == nil, let base = decoded.baseAddress else { return }
                    var pixels = base
                    if let alpha {
                        rgba.update(from: base, count: rowBytes)
                        for x in 0..<image.width { rgba[x * 4 + 3] = alpha[y * image.width + x] }
                        pixels = UnsafePointer(rgba)
                    }
                    do throws(WebPError) {
                        try row(y, pixels)
                    } catch {
                        failure = error
                    }
                }
            }
            if let failure { throw failure }
        }
    }
}
