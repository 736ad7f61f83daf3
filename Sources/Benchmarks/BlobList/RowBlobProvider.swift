import Foundation
import WeakImageStore

/// A row's photo read from the table when the store needs it: what a row holding only its id
/// shows.
struct RowBlobProvider: ImageDataProvider {
    let table: BlobTable
    let rowID: Int
    let revision: Int

    var identity: String { "photos/\(rowID)" }
    var version: String { String(revision) }

    func data() throws -> Data {
        try table.blob(ofRow: rowID)
    }
}
