/// Why the photo database could not answer.
enum PhotoDatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite refused: `operation` says what was being done, `code` is SQLite's result code and
    /// `message` its explanation.
    case sqlite(operation: String, code: Int32, message: String)
    /// No row has this id: it was deleted since the list read the rows.
    case noSuchRow(id: Int64)
    /// The row has no photo: its `photo` column is NULL.
    case noPhoto(rowID: Int64)

    /// A sentence saying what failed; the store passes it on as the reason of
    /// `ImageStoreError.providerFailed`.
    var description: String {
        switch self {
        case .sqlite(let operation, let code, let message):
            "SQLite error \(code) in \(operation): \(message)"
        case .noSuchRow(let id):
            "no row with id \(id)"
        case .noPhoto(let rowID):
            "row \(rowID) has no photo"
        }
    }
}
