import Foundation

/// The blob list's database: an in-process table of photo rows (id, revision, JPEG blob) that
/// counts every blob byte it hands out and every one still alive, as a real query's result would
/// hold them.
///
/// A read copies the row's blob into a fresh allocation, as SQLite copies a blob out of its pages
/// into the result, so 500 rows read are 500 blobs' bytes in memory. The table itself stores only
/// a few distinct photos (row `id` holds photo `(id - 1) % count`): they stand for the database
/// file and are not counted.
final class BlobTable: @unchecked Sendable {
    /// A row as a query returns it.
    struct Row: Sendable {
        let id: Int
        let revision: Int
        /// The photo, when the query asked for it; nil when the row holds only its id.
        let blob: Data?
    }

    /// What the table handed out since ``resetUsage()``.
    struct Usage: Sendable {
        /// Blobs read, by queries and by single-row reads.
        var reads = 0
        var bytesRead = 0
        /// ``bytesRead`` by row id, to tell the bytes read for rows shown from the rest.
        var bytesReadByRow: [Int: Int] = [:]
        /// Bytes of blobs handed out and not yet freed, now.
        var liveBytes = 0
        /// The most ``liveBytes`` at any moment.
        var peakLiveBytes = 0
    }

    private let photos: [Data]
    let rowCount: Int
    private let lock = NSLock()
    private var counted = Usage()

    /// A table of `rowCount` rows, ids 1 through `rowCount`, revision 1, their blobs taken in
    /// turn from `photos`.
    init(photos: [Data], rowCount: Int) {
        precondition(!photos.isEmpty, "the table needs at least one photo")
        precondition(rowCount >= 0, "a row count cannot be negative")
        self.photos = photos
        self.rowCount = rowCount
    }

    /// The largest blob a read can hand out.
    var largestBlobBytes: Int { photos.map(\.count).max() ?? 0 }

    /// The bytes of all blobs together, as a query of every row with its blob holds them.
    var totalBlobBytes: Int { ids.reduce(0) { $0 + photo(ofRow: $1).count } }

    /// The size of row `id`'s blob, without reading it; 0 for an id the table does not have.
    func blobByteCount(ofRow id: Int) -> Int {
        ids.contains(id) ? photo(ofRow: id).count : 0
    }

    var usage: Usage { lock.withLock { counted } }

    /// Starts counting reads and the peak afresh; blobs still alive stay counted as alive.
    func resetUsage() {
        lock.withLock { counted = Usage(liveBytes: counted.liveBytes, peakLiveBytes: counted.liveBytes) }
    }

    /// Every row in id order: `SELECT id, revision, photo FROM photos` with `includingBlobs`,
    /// else the same without the photo column.
    func rows(includingBlobs: Bool) -> [Row] {
        ids.map { id in
            Row(id: id, revision: 1, blob: includingBlobs ? handOut(photo(ofRow: id), row: id) : nil)
        }
    }

    /// One row's photo: `SELECT photo FROM photos WHERE id = ?`.
    ///
    /// - Throws: ``BlobTableError/noSuchRow(id:)`` for an id the table does not have.
    func blob(ofRow id: Int) throws(BlobTableError) -> Data {
        guard ids.contains(id) else { throw .noSuchRow(id: id) }
        return handOut(photo(ofRow: id), row: id)
    }

    private var ids: Range<Int> { 1..<(rowCount + 1) }

    private func photo(ofRow id: Int) -> Data {
        photos[(id - 1) % photos.count]
    }

    /// A copy of `photo`, row `id`'s, in memory of its own, counted until the last `Data` sharing
    /// it is freed.
    private func handOut(_ photo: Data, row id: Int) -> Data {
        let count = photo.count
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        photo.withUnsafeBytes { source in
            if let base = source.baseAddress { bytes.copyMemory(from: base, byteCount: count) }
        }
        lock.withLock {
            counted.reads += 1
            counted.bytesRead += count
            counted.bytesReadByRow[id, default: 0] += count
            counted.liveBytes += count
            counted.peakLiveBytes = max(counted.peakLiveBytes, counted.liveBytes)
        }
        return Data(
            bytesNoCopy: bytes, count: count,
            deallocator: .custom { [self] pointer, _ in
                pointer.deallocate()
                lock.withLock { counted.liveBytes -= count }
            })
    }
}
