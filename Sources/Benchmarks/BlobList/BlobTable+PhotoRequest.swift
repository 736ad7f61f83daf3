import WeakImageStore

extension BlobTable.Row {
    /// The store request for this row's photo: from the blob the row holds if the query read it,
    /// else from `table` when the store needs the bytes. Either way the identity is the row's id
    /// and the version its revision.
    func photoRequest(in table: BlobTable) -> ImageRequest {
        guard let blob else { return .provider(RowBlobProvider(table: table, rowID: id, revision: revision)) }
        return .provider(LoadedBlobProvider(rowID: id, revision: revision, blob: blob))
    }
}
