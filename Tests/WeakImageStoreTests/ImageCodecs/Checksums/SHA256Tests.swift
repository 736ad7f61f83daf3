import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// SHA-256 against the FIPS 180-4 examples and NIST's test vectors.
final class SHA256Tests: XCTestCase {
    private func hash(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { SHA256.hash($0) }.description
    }

    func test_fipsExamples_matchTheirDigests() {
        let vectors: [(String, String)] = [
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                    + "mnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ]
        for (message, digest) in vectors {
            XCTAssertEqual(hash(Array(message.utf8)), digest, "\(message.utf8.count)-byte message")
            XCTAssertEqual(SHA256.hash(message).description, digest)
        }
    }

    func test_millionAs_matchesItsDigest() {
        XCTAssertEqual(
            hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func test_incrementalUpdates_equalOneShot_atEverySplit() {
        let message = Array(seededBytes(300, seed: 7))
        let oneShot = message.withUnsafeBytes { SHA256.hash($0) }
        for split in 0...message.count {
            for second in stride(from: split, through: message.count, by: 37) {
                var hasher = SHA256()
                message.withUnsafeBytes { bytes in
                    hasher.update(UnsafeRawBufferPointer(rebasing: bytes[..<split]))
                    hasher.update(UnsafeRawBufferPointer(rebasing: bytes[split..<second]))
                    hasher.update(UnsafeRawBufferPointer(rebasing: bytes[second...]))
                }
                XCTAssertEqual(hasher.finalize(), oneShot, "split at \(split) and \(second)")
            }
        }
    }

    func test_messagesAroundPaddingBoundaries_differFromEachOther() {
        // 55, 56 and 64 bytes put the length in the same block, the next one, and a block of its own.
        let digests = [54, 55, 56, 57, 63, 64, 65, 119, 120].map { hash([UInt8](repeating: 0x61, count: $0)) }
        XCTAssertEqual(Set(digests).count, digests.count)
        XCTAssertEqual(
            hash([UInt8](repeating: 0x61, count: 64)),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    func test_digest_roundTripsThroughBytesAndFileNames() {
        let digest = SHA256.hash("abc")
        let bytes = digest.bytes
        XCTAssertEqual(bytes.withUnsafeBytes { SHA256Digest(bytes: $0) }, digest)
        XCTAssertEqual(DiskCacheBodyFiles.digest(named: digest.description), digest)
        XCTAssertNil(DiskCacheBodyFiles.digest(named: "xyz"))
    }
}
