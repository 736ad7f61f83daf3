/// SHA-256 (FIPS 180-4 §6.2): names the disk cache's entries after their identity.
///
/// Feed bytes with ``update(_:)`` as often as needed, then take ``finalize()`` once. Written here
/// rather than taken from CryptoKit, which Linux lacks, and swift-crypto, which would be the
/// package's first dependency.
package struct SHA256 {
    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes (§4.2.2).
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var h0: UInt32 = 0x6a09_e667
    private var h1: UInt32 = 0xbb67_ae85
    private var h2: UInt32 = 0x3c6e_f372
    private var h3: UInt32 = 0xa54f_f53a
    private var h4: UInt32 = 0x510e_527f
    private var h5: UInt32 = 0x9b05_688c
    private var h6: UInt32 = 0x1f83_d9ab
    private var h7: UInt32 = 0x5be0_cd19
    /// Bytes of an unfinished block, waiting for the rest of it.
    private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var pendingCount = 0
    private var messageLength: UInt64 = 0

    package init() {}

    /// The hash of `bytes` in one call.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The hash of a string's UTF-8 bytes.
    static func hash(_ text: String) -> SHA256Digest {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `bytes` to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        messageLength &+= UInt64(bytes.count)
        var offset = 0
        if pendingCount > 0 {
            let taken = min(64 - pendingCount, bytes.count)
            withUnsafeMutableBytes(of: &pending) { block in
                block.baseAddress!.advanced(by: pendingCount).copyMemory(from: bytes.baseAddress!, byteCount: taken)
            }
            pendingCount += taken
            offset = taken
            guard pendingCount == 64 else { return }
            let block = pending
            withUnsafeBytes(of: block) { compress($0) }
            pendingCount = 0
        }
        while bytes.count - offset >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 64]))
            offset += 64
        }
        let rest = bytes.count - offset
        if rest > 0 {
            withUnsafeMutableBytes(of: &pending) { block in
                block.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: rest)
            }
            pendingCount = rest
        }
    }

    /// Pads the message (§5.1.1) and returns its hash. Feed nothing more afterwards.
    package mutating func finalize() -> SHA256Digest {
        let bitLength = messageLength &* 8
        // One 0x80 byte, zeros up to 56 bytes into a block, then the length in bits.
        var padding = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let paddingCount = pendingCount < 56 ? 56 - pendingCount : 120 - pendingCount
        withUnsafeMutableBytes(of: &padding) { bytes in
            bytes[0] = 0x80
            update(UnsafeRawBufferPointer(rebasing: bytes[0..<paddingCount]))
        }
        var length = bitLength.bigEndian
        withUnsafeBytes(of: &length) { update($0) }
        precondition(pendingCount == 0, "padding ends on a block boundary")
        return SHA256Digest(
            word0: UInt64(h0) << 32 | UInt64(h1), word1: UInt64(h2) << 32 | UInt64(h3),
            word2: UInt64(h4) << 32 | UInt64(h5), word3: UInt64(h6) << 32 | UInt64(h7))
    }

    /// Folds one 64-byte block into the hash value (§6.2.2).
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        Self.roundConstants.withUnsafeBufferPointer { constants in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                // The schedule holds 64 words and the constants 64: every index below is 0..<64.
                for index in 0..<16 {
                    schedule[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
                }
                for index in 16..<64 {
                    let early = schedule[index - 15]
                    let late = schedule[index - 2]
                    let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
                    let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
                    schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
                }
                var a = h0
                var b = h1
                var c = h2
                var d = h3
                var e = h4
                var f = h5
                var g = h6
                var h = h7
                for index in 0..<64 {
                    let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let temporary1 = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
                    let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let temporary2 = sum0 &+ majority
                    h = g
                    g = f
                    f = e
                    e = d &+ temporary1
                    d = c
                    c = b
                    b = a
                    a = temporary1 &+ temporary2
                }
                h0 &+= a
                h1 &+= b
                h2 &+= c
                h3 &+= d
                h4 &+= e
                h5 &+= f
                h6 &+= g
                h7 &+= h
            }
        }
    }
}

extension UInt32 {
    /// The bits rotated `count` places towards the least significant end.
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
