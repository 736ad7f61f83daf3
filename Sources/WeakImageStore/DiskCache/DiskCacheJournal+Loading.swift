extension DiskCacheJournal {
    /// The index the journal's whole `contents` describe; call it holding the lock.
    ///
    /// A damaged journal — an invalid record, a bad header, or one longer than
    /// ``maximumLength`` (`isCut`) — is cut to its valid prefix (or started afresh when its header
    /// is bad), and then, only then, the bodies folder is listed to delete the bodies it no longer
    /// names.
    ///
    /// - Parameter bodySizeLimit: The largest body a record may claim: the cache's size limit.
    mutating func loadIndex(
        from contents: [UInt8], isCut: Bool, bodies: DiskCacheBodyFiles, bodySizeLimit: Int
    ) -> (index: DiskCacheIndex, isDamaged: Bool) {
        let (index, validLength) = contents.withUnsafeBytes {
            DiskCacheIndex.load(journal: $0, bodySizeLimit: bodySizeLimit)
        }
        if validLength == contents.count && !isCut {
            knownLength = validLength
            return (index, false)
        }
        if contents.isEmpty {
            // An empty journal a read-only folder kept from being given its header.
            knownLength = 0
            return (index, false)
        }
        if validLength > 0 {
            truncate(to: validLength)
        } else {
            do {
                try replace(with: DiskCacheJournalFormat.header)
            } catch {
                knownLength = contents.count
            }
        }
        bodies.removeUnlisted { index.slot(of: $0) != nil }
        return (index, true)
    }
}
