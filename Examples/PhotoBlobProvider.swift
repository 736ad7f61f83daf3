#if canImport(SQLite3)
import Foundation
import WeakImageStore

/// A database row's photo as the store sees it: bytes read from the database when, and only
/// when, the store has no decoded image for this row at this revision and size.
///
/// Two cells showing one row at one revision share one read and one decoded image. Editing the
/// photo bumps the row's revision, so the edited photo is a new image; the old one lives on only
/// as long as a view still shows it.
struct PhotoBlobProvider: ImageDataProvider {
    let database: PhotoDatabase
    let row: PhotoRow

    /// The database file and the row: unique among everything the app asks the store for.
    var identity: String { "sqlite:\(database.path)#rows/\(row.id)/photo" }

    /// The row's modification stamp: it changes whenever the photo does.
    var version: String { String(row.revision) }

    /// Reads the photo's bytes: on the store's loading threads for the list's asynchronous loads,
    /// never for a memory-only lookup.
    ///
    /// The statement does not check the revision: a row edited since the list read it gives its
    /// newer photo under the older version. A view may show an edit early, never a photo older
    /// than the one it asked for.
    func data() throws -> Data {
        try database.photo(rowID: row.id)
    }
}
#endif
