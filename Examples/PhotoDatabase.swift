#if canImport(SQLite3)
import Foundation
import SQLite3

/// The app's photo database, read-only: which rows there are, and one row's photo bytes.
///
/// The table is `rows (id INTEGER PRIMARY KEY, modified INTEGER NOT NULL, photo BLOB)`; whoever
/// writes a photo also bumps `modified` (a revision counter or a timestamp).
///
/// Every read opens its own read-only connection and closes it before returning. Reads come from
/// the main thread and from several of the store's loading threads at once: a connection per read
/// needs no lock and keeps no file open between reads, and opening one costs far less than
/// decoding the photo it reads.
struct PhotoDatabase: Sendable {
    /// The database file.
    let path: String

    /// Every row, in id order: ids and revisions only, 16 bytes a row, whatever the photos weigh.
    func rows() throws(PhotoDatabaseError) -> [PhotoRow] {
        try withStatement("SELECT id, modified FROM rows ORDER BY id") { statement throws(PhotoDatabaseError) in
            var rows: [PhotoRow] = []
            while true {
                let stepped = sqlite3_step(statement)
                if stepped == SQLITE_DONE { return rows }
                guard stepped == SQLITE_ROW else { throw Self.failure("reading the rows", stepped, statement) }
                let id = sqlite3_column_int64(statement, 0)
                rows.append(PhotoRow(id: id, revision: sqlite3_column_int64(statement, 1)))
            }
        }
    }

    /// The photo of row `rowID`, as stored: the encoded file's bytes.
    func photo(rowID: Int64) throws(PhotoDatabaseError) -> Data {
        try withStatement("SELECT photo FROM rows WHERE id = ?") { statement throws(PhotoDatabaseError) in
            sqlite3_bind_int64(statement, 1, rowID)
            let stepped = sqlite3_step(statement)
            if stepped == SQLITE_DONE { throw .noSuchRow(id: rowID) }
            guard stepped == SQLITE_ROW else { throw Self.failure("reading row \(rowID)", stepped, statement) }
            guard sqlite3_column_type(statement, 0) != SQLITE_NULL else { throw .noPhoto(rowID: rowID) }
            // The pointer first, then the length, as SQLite asks; the pointer is valid only until
            // the statement steps again or is finalized, so the bytes are copied now. An empty
            // blob has no pointer: the store reports empty bytes as undecodable.
            let bytes = sqlite3_column_blob(statement, 0)
            let count = Int(sqlite3_column_bytes(statement, 0))
            guard let bytes, count > 0 else { return Data() }
            return Data(bytes: bytes, count: count)
        }
    }

    /// Opens a read-only connection, prepares `sql`, runs `body` on the statement, then finalizes
    /// the statement and closes the connection, whatever happened.
    private func withStatement<Result>(
        _ sql: String, _ body: (OpaquePointer) throws(PhotoDatabaseError) -> Result
    ) throws(PhotoDatabaseError) -> Result {
        var openedConnection: OpaquePointer?
        let opened = sqlite3_open_v2(path, &openedConnection, SQLITE_OPEN_READONLY, nil)
        // SQLite hands out a connection even when opening fails, and it must be closed either way.
        defer { sqlite3_close(openedConnection) }
        guard opened == SQLITE_OK, let connection = openedConnection else {
            throw .sqlite(operation: "opening \(path)", code: opened, message: Self.message(of: openedConnection))
        }
        // A writer holds its lock for the few milliseconds of a commit: wait for it rather than
        // fail the photo.
        sqlite3_busy_timeout(connection, 200)
        var preparedStatement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(connection, sql, -1, &preparedStatement, nil)
        defer { sqlite3_finalize(preparedStatement) }
        guard prepared == SQLITE_OK, let statement = preparedStatement else {
            throw .sqlite(operation: "preparing \(sql)", code: prepared, message: Self.message(of: connection))
        }
        return try body(statement)
    }

    private static func failure(_ operation: String, _ code: Int32, _ statement: OpaquePointer) -> PhotoDatabaseError {
        .sqlite(operation: operation, code: code, message: message(of: sqlite3_db_handle(statement)))
    }

    private static func message(of connection: OpaquePointer?) -> String {
        guard let connection, let message = sqlite3_errmsg(connection) else { return "out of memory" }
        return String(cString: message)
    }
}
#endif
