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
            try output.withMemoryRebound(to: UInt32.self, capacity: count) { argb throws(WebPError) in
                try decoder.decodeImage(width: image.width, height: image.height, into: argb)
                // ARGB values become R, G, B, A bytes in memory.
                for index in 0..<count {
                    let pixel = argb[index]
                    let rgba = (pixel & 0xFF00_FF00) | (pixel >> 16 & 0xFF) | (pixel & 0xFF) << 16
                    argb[index] = rgba.littleEndian
                }
            }
        case .lossy:
            let rowBytes = image.width * 4
            try decodeRows(image, from: bytes) { y, row throws(WebPError) in
                (output + y * rowBytes).update(from: row, count: rowBytes)
            }
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
            guard let lossyDecoder else { throw .lossyUnsupported }
            let alpha = try image.alpha.map { range throws(WebPError) in
                try WebPAlphaDecoder.decode(
                    UnsafeRawBufferPointer(rebasing: bytes[range]), width: image.width, height: image.height,
                    tableByteLimit: maximumDecodingBytes)
            }
            let rgba = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
            defer { rgba.deallocate() }
            rgba.initialize(repeating: 255, count: rowBytes)
            try lossyDecoder.decodeRows(
                UnsafeRawBufferPointer(rebasing: bytes[image.bitstream]), width: image.width, height: image.height
            ) { y, rgb throws(WebPError) in
                for x in 0..<image.width {
                    rgba[x * 4] = rgb[x * 3]
                    rgba[x * 4 + 1] = rgb[x * 3 + 1]
                    rgba[x * 4 + 2] = rgb[x * 3 + 2]
                    rgba[x * 4 + 3] = alpha?[y * image.width + x] ?? 255
                }
                try row(y, rgba)
            }
        }
    }
}
