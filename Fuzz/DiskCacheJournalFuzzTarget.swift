// libFuzzer entry point for the disk cache's journal reader, compiled together with the
// library's sources by Scripts/fuzz.sh (not part of the package). Every input is a journal —
// header and records — whose checksums the target repairs first when the input's first byte is
// odd, so that the fuzzer reaches the values behind valid checksums (sizes, lengths, flags,
// times) instead of stopping at the checksum. Each input is
//
// 1. parsed directly, under three size limits: the index must keep its invariants and its sums
//    within their bounds, whatever the records claim;
// 2. written as the journal of a real cache folder and opened: the cache must open (damage is a
//    miss, never a trap), keep its invariants, and store and return a body afterwards;
// 3. appended to that open cache's journal as another process would: the next write must catch
//    up with it, or cut it off as damage, and keep the invariants.
//
// Crashes, failed preconditions, hangs and oversized allocations are findings.
import Foundation

/// The cache folder every input is opened in, one per fuzzing process.
private var folder: URL { FileManager.default.temporaryDirectory.appendingPathComponent("journal-fuzz-\(getpid())") }

/// What every input stores and reads back. (Computed, not globals holding allocated storage,
/// which LeakSanitizer would report at exit.)
private var body: Data { Data("a body that must come back exactly".utf8) }
private var request: ImageRequest { .url(URL(string: "https://fuzz.example/picture.png")!) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDiskCacheJournal(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 0 else { return 0 }
    var journal = Array(UnsafeBufferPointer(start: bytes + 1, count: count - 1))
    if bytes[0] & 1 == 1 { repairChecksums(&journal) }
    for limit in [1, 1 << 20, Int.max] {
        let (index, validLength) = journal.withUnsafeBytes { DiskCacheIndex.load(journal: $0, bodySizeLimit: limit) }
        index.checkInvariants()
        guard validLength <= journal.count, index.bodyBytes <= DiskCacheIndex.maximumBodyBytes else {
            fatalError("load claims \(validLength) valid bytes of \(journal.count), \(index.bodyBytes) body bytes")
        }
    }
    openAsCache(journal)
    appendToOpenCache(journal)
    return 0
}

/// Opens a cache whose journal is `journal`, then stores and reads a body.
private func openAsCache(_ journal: [UInt8]) {
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    guard (try? Data(journal).write(to: folder.appendingPathComponent("journal"))) != nil else { return }
    let cache: DiskImageCache
    do {
        cache = try DiskImageCache(directory: folder, sizeLimit: 1 << 20, fileSystem: .posix)
    } catch {
        fatalError("a journal's contents made the cache unavailable: \(error)")
    }
    cache._checkInvariants()
    cache.storeData(body, for: request)
    guard cache.data(for: request) == body else { fatalError("the body stored after opening did not come back") }
    cache._checkInvariants()
}

/// Appends `journal`'s records (its header dropped) behind a valid journal an open cache knows,
/// and lets a write catch up with them.
private func appendToOpenCache(_ journal: [UInt8]) {
    try? FileManager.default.removeItem(at: folder)
    guard let cache = try? DiskImageCache(directory: folder, sizeLimit: 1 << 20, fileSystem: .posix) else {
        fatalError("an empty folder made the cache unavailable")
    }
    cache.storeData(body, for: request)
    let records = journal.dropFirst(min(journal.count, DiskCacheJournalFormat.headerSize))
    guard let handle = FileHandle(forWritingAtPath: folder.appendingPathComponent("journal").path) else { return }
    handle.seekToEndOfFile()
    handle.write(Data(records))
    handle.closeFile()
    cache.storeData(body, for: .url(URL(string: "https://fuzz.example/other.png")!))
    cache._checkInvariants()
}

/// Rewrites the checksum of every record whose length fits, and the header's, so that the reader
/// looks at what the records say.
private func repairChecksums(_ journal: inout [UInt8]) {
    let header = DiskCacheJournalFormat.header
    if journal.count >= header.count { journal.replaceSubrange(0..<header.count, with: header) }
    var offset = header.count
    while journal.count - offset >= 8 {
        let length = journal.withUnsafeBytes {
            Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        guard length <= journal.count - offset - 8 else { return }
        let checksum = journal.withUnsafeBytes {
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + 4 + length)]))
        }
        withUnsafeBytes(of: checksum.littleEndian) {
            journal.replaceSubrange((offset + 4 + length)..<(offset + 8 + length), with: $0)
        }
        offset += 8 + length
    }
}
