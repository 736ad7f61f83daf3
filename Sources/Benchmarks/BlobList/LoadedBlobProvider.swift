import Foundation
import WeakImageStore

/// A row's photo already in memory, read by the query with the row: what an eagerly loaded row
/// shows. It hands over the row's own bytes, no copy.
struct LoadedBlobProvider: ImageDataProvider {
    let rowID: Int
    let revision: Int
    let blob: Data

    var identity: String { "photos/\(rowID)" }
    var version: String { String(revision) }

    func data() -> Data {
        blob
    }
}
