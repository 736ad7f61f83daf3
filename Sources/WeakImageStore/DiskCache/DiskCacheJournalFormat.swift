/// The bytes of the disk cache's journal (see <doc:DiskCache>): a 16-byte header, then records,
/// each `length ‖ payload ‖ CRC-32(length ‖ payload)`, all integers little-endian.
///
/// | payload | bytes |
/// |---|---|
/// | put | kind 1, digest (32), body size (8), body CRC-32 (4), fresh-until (8, IEEE 754 bits), flags (1), entity tag length (2), last-modified length (2), entity tag, last-modified, and with flag 8: max-age (8), expires (8) |
/// | remove | kind 2, digest (32) |
/// | touch | kind 3, digest (32) |
///
/// A reader stops at the first record that is short, too long, of an unknown kind or fails its
/// checksum: whatever follows it is never trusted.
enum DiskCacheJournalFormat {
    enum RecordKind: UInt8 {
        /// The entry's body is (now) the file named after its digest; carries its size, checksum
        /// and validity.
        case put = 1
        /// The entry is gone.
        case remove = 2
        /// The entry was used: it becomes the most recently used.
        case touch = 3
    }

    /// `WISJRNL` and a format version byte.
    static let magic: [UInt8] = Array("WISJRNL1".utf8)
    /// Magic (8), version (4), CRC-32 of the first 12 bytes (4).
    static let headerSize = 16
    static let version: UInt32 = 1
    /// The longest entity tag or date kept; longer ones are dropped (the entry cannot be
    /// revalidated with them, which costs a download, never a wrong image).
    static let maximumValidatorLength = 4_096
    /// A put's `max-age` and `Expires`, each a `Double`'s bits (NaN for none), after the
    /// validators when ``DiskCacheIndexEntry/Flag/hasFreshnessFields`` is set.
    static let freshnessFieldsLength = 16

    /// The bytes of freshness fields a put with `flags` carries: ``freshnessFieldsLength`` or 0.
    static func freshnessFieldsLength(flags: UInt8) -> Int {
        flags & DiskCacheIndexEntry.Flag.hasFreshnessFields != 0 ? freshnessFieldsLength : 0
    }
    /// Length, checksum: the bytes of a record beyond its payload.
    static let recordOverhead = 8
    /// Kind and digest.
    private static let minimumPayload = 33
    /// A put's payload before its validators.
    private static let putFixedPayload = 58
    private static let maximumPayload = putFixedPayload + 2 * maximumValidatorLength + freshnessFieldsLength

    /// The bytes of a remove or touch record.
    static let digestRecordSize = recordOverhead + minimumPayload

    /// The bytes of a put record whose validators take `validatorLength` bytes.
    static func putRecordSize(validatorLength: Int) -> Int {
        recordOverhead + putFixedPayload + validatorLength
    }

    /// The header of an empty journal.
    static var header: [UInt8] {
        var bytes = magic
        appendInteger(version, to: &bytes)
        let checksum = bytes.withUnsafeBytes { CRC32.checksum($0) }
        appendInteger(checksum, to: &bytes)
        return bytes
    }

    /// Whether `bytes` starts with a header this version reads.
    static func hasValidHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= headerSize else { return false }
        return bytes.prefix(headerSize).elementsEqual(header)
    }

    // MARK: - Writing

    /// Appends a put record for `validity`; validators longer than ``maximumValidatorLength`` are
    /// left out.
    static func appendPut(
        _ digest: SHA256Digest, size: Int, checksum: UInt32, validity: ResponseValidity, to bytes: inout [UInt8]
    ) {
        var entityTag = Array((validity.entityTag ?? "").utf8)
        var lastModified = Array((validity.lastModified ?? "").utf8)
        var flags: UInt8 = validity.revalidatesEveryUse ? DiskCacheIndexEntry.Flag.revalidatesEveryUse : 0
        if validity.entityTag != nil, entityTag.count <= maximumValidatorLength {
            flags |= DiskCacheIndexEntry.Flag.hasEntityTag
        } else {
            entityTag = []
        }
        if validity.lastModified != nil, lastModified.count <= maximumValidatorLength {
            flags |= DiskCacheIndexEntry.Flag.hasLastModified
        } else {
            lastModified = []
        }
        var freshnessFields: [UInt8] = []
        if validity.maxAge != nil || validity.expires != nil {
            flags |= DiskCacheIndexEntry.Flag.hasFreshnessFields
            appendInteger((validity.maxAge ?? .nan).bitPattern, to: &freshnessFields)
            appendInteger((validity.expires ?? .nan).bitPattern, to: &freshnessFields)
        }
        (entityTag + lastModified + freshnessFields).withUnsafeBytes { validators in
            appendPut(
                digest, size: size, checksum: checksum, freshUntil: validity.freshUntil, flags: flags,
                entityTagLength: entityTag.count, validatorBytes: validators, to: &bytes)
        }
    }

    /// Appends a put record from an index entry's fields (compaction).
    ///
    /// - Parameter validatorBytes: The entity tag's `entityTagLength` bytes, the last-modified
    ///   date's, then the freshness fields if `flags` says so.
    static func appendPut(
        _ digest: SHA256Digest, size: Int, checksum: UInt32, freshUntil: Double, flags: UInt8, entityTagLength: Int,
        validatorBytes: UnsafeRawBufferPointer, to bytes: inout [UInt8]
    ) {
        let start = bytes.count
        appendInteger(UInt32(putFixedPayload + validatorBytes.count), to: &bytes)
        bytes.append(RecordKind.put.rawValue)
        appendDigest(digest, to: &bytes)
        appendInteger(UInt64(size), to: &bytes)
        appendInteger(checksum, to: &bytes)
        appendInteger(freshUntil.bitPattern, to: &bytes)
        bytes.append(flags & DiskCacheIndexEntry.Flag.stored)
        let freshnessLength = freshnessFieldsLength(flags: flags)
        appendInteger(UInt16(entityTagLength), to: &bytes)
        appendInteger(UInt16(validatorBytes.count - entityTagLength - freshnessLength), to: &bytes)
        bytes.append(contentsOf: validatorBytes)
        appendChecksum(from: start, to: &bytes)
    }

    /// Appends a remove or touch record.
    static func appendDigestRecord(_ kind: RecordKind, _ digest: SHA256Digest, to bytes: inout [UInt8]) {
        precondition(kind != .put, "a put record carries more than a digest")
        let start = bytes.count
        appendInteger(UInt32(minimumPayload), to: &bytes)
        bytes.append(kind.rawValue)
        appendDigest(digest, to: &bytes)
        appendChecksum(from: start, to: &bytes)
    }

    private static func appendInteger<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func appendDigest(_ digest: SHA256Digest, to bytes: inout [UInt8]) {
        for word in [digest.word0, digest.word1, digest.word2, digest.word3] {
            withUnsafeBytes(of: word.bigEndian) { bytes.append(contentsOf: $0) }
        }
    }

    private static func appendChecksum(from start: Int, to bytes: inout [UInt8]) {
        let checksum = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        appendInteger(checksum, to: &bytes)
    }

    // MARK: - Reading

    /// How far ``apply(_:to:)`` got.
    struct Outcome: Equatable {
        /// The bytes of whole, valid records from the start of the buffer.
        let validLength: Int
        /// Whether bytes follow them that are not a valid record (a torn or damaged tail).
        var isDamaged: Bool
    }

    /// Applies the records in `bytes` (no header) to `index`, stopping at the first invalid one.
    ///
    /// A checksum only proves a record was written whole, not that its writer was honest: a put
    /// of a body larger than `bodySizeLimit`, or one that would take the index's total past
    /// ``DiskCacheIndex/maximumBodyBytes``, is invalid too.
    ///
    /// - Complexity: O(`bytes.count`); no allocation per record beyond the index's own growth.
    static func apply(_ bytes: UnsafeRawBufferPointer, to index: inout DiskCacheIndex, bodySizeLimit: Int) -> Outcome {
        let count = bytes.count
        var offset = 0
        while offset < count {
            guard let payloadLength = validPayloadLength(in: bytes, at: offset) else {
                return Outcome(validLength: offset, isDamaged: true)
            }
            // validPayloadLength proved offset + 4 + payloadLength + 4 ≤ count.
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 4 + payloadLength)])
            guard applyPayload(payload, to: &index, bodySizeLimit: bodySizeLimit) else {
                return Outcome(validLength: offset, isDamaged: true)
            }
            offset += payloadLength + recordOverhead
        }
        return Outcome(validLength: offset, isDamaged: false)
    }

    /// The payload length of the record at `offset` when the record is whole and its checksum
    /// holds.
    private static func validPayloadLength(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        guard bytes.count - offset >= recordOverhead + minimumPayload else { return nil }
        let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        guard length >= minimumPayload, length <= maximumPayload, bytes.count - offset >= length + recordOverhead
        else { return nil }
        let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4 + length, as: UInt32.self))
        let computed = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 4 + length)]))
        return stored == computed ? length : nil
    }

    /// Applies one checksummed payload; false when its contents make no sense.
    private static func applyPayload(
        _ payload: UnsafeRawBufferPointer, to index: inout DiskCacheIndex, bodySizeLimit: Int
    ) -> Bool {
        let digest = SHA256Digest(bytes: UnsafeRawBufferPointer(rebasing: payload[1..<33]))
        switch RecordKind(rawValue: payload[0]) {
        case .remove?:
            guard payload.count == minimumPayload else { return false }
            index.remove(digest)
        case .touch?:
            guard payload.count == minimumPayload else { return false }
            index.touch(digest)
        case .put?:
            guard payload.count >= putFixedPayload else { return false }
            let size = UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: 33, as: UInt64.self))
            let checksum = UInt32(littleEndian: payload.loadUnaligned(fromByteOffset: 41, as: UInt32.self))
            let freshUntil = Double(
                bitPattern: UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: 45, as: UInt64.self)))
            let flags = payload[53]
            let entityTagLength = Int(UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: 54, as: UInt16.self)))
            let dateLength = Int(UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: 56, as: UInt16.self)))
            let freshnessLength = freshnessFieldsLength(flags: flags)
            guard size <= UInt64(max(bodySizeLimit, 0)), flags & ~DiskCacheIndexEntry.Flag.stored == 0,
                entityTagLength <= maximumValidatorLength, dateLength <= maximumValidatorLength,
                payload.count == putFixedPayload + entityTagLength + dateLength + freshnessLength,
                entityTagLength == 0 || flags & DiskCacheIndexEntry.Flag.hasEntityTag != 0,
                dateLength == 0 || flags & DiskCacheIndexEntry.Flag.hasLastModified != 0
            else { return false }
            // A time that is not a number or infinite reads as long past: the entry is stale.
            return index.put(
                digest, size: Int(size), checksum: checksum, freshUntil: freshUntil.isFinite ? freshUntil : 0,
                flags: flags, entityTagLength: entityTagLength, lastModifiedLength: dateLength,
                validatorBytes: UnsafeRawBufferPointer(rebasing: payload[putFixedPayload...]))
        case nil:
            return false
        }
        return true
    }

    /// The `max-age` and `Expires` of freshness fields (``freshnessFieldsLength`` bytes).
    static func freshnessFields(_ bytes: UnsafeRawBufferPointer) -> (maxAge: Double?, expires: Double?) {
        let maxAge = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)))
        let expires = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        return (maxAge.isNaN ? nil : maxAge, expires.isNaN ? nil : expires)
    }
}
