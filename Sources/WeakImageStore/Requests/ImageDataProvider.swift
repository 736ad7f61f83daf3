import Foundation

/// Image bytes the app supplies itself: a database blob, an archive member, a generated file.
///
/// Wrap one in ``ImageRequest/provider(_:maxPixelSize:)`` and the store treats it like any other
/// source: one shared instance per identity and version while anyone uses it, thumbnails, async
/// loading with priorities and cancellation, the LRU and the memory budget.
///
/// ```swift
/// struct PhotoBlob: ImageDataProvider {
///     let database: PhotoDatabase
///     let rowID: Int64
///     let modified: Int64
///
///     var identity: String { "photos/\(rowID)" }
///     var version: String { String(modified) }
///     func data() throws -> Data { try database.photoBlob(rowID: rowID) }
/// }
///
/// let photo = try await store.fetchImage(for: .provider(PhotoBlob(database: db, rowID: 42, modified: stamp)))
/// ```
///
/// A row that only holds its id costs nothing until it is shown: the blob is read when a lookup
/// misses, decoded, and let go of at once; the image stays shared while a view holds it.
public protocol ImageDataProvider: Sendable {
    /// What the bytes are, stable across launches: a row id, a path inside an archive.
    ///
    /// Equal identity and version ⇒ identical bytes. Together they are the image's identity:
    /// two providers with equal values share one image and one call of ``data()``.
    var identity: String { get }

    /// Which revision of the bytes: a modification stamp, a content hash, a revision counter.
    ///
    /// A new version is a new image. The image of the old version stays shared while in use and
    /// is freed after; it is never returned for the new version.
    var version: String { get }

    /// Reads the bytes.
    ///
    /// Called on the caller's thread by synchronous lookups and on the store's loading threads by
    /// asynchronous ones; at most once per identity + version at a time, and only when the image
    /// is not in memory. A call that blocks delays only the lookups waiting for this image.
    ///
    /// - Returns: The encoded image (PNG, JPEG, or whatever the store's decoder reads); at most
    ///   the store's `maximumFileSize` bytes.
    /// - Throws: Any error; lookups report it as ``ImageStoreError/providerFailed(_:reason:)``
    ///   with the error's description. A failure is not remembered: the next lookup calls again.
    func data() throws -> Data
}
