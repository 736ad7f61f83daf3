import Foundation

/// Calls of data providers in progress, one per identity and version.
///
/// A load that needs the bytes of a provider another load is reading waits for that read rather
/// than call ``ImageDataProvider/data()`` again: a full-size image and a thumbnail of one blob
/// loading at once read the blob once. Only the threads that need those bytes wait.
final class ProviderReads: Sendable {
    private let reads = Lock<[SourceIdentity: Latch<Result<Data, ImageStoreError>>]>([:])

    /// The bytes of `source`, read now or by the read already in progress.
    ///
    /// - Parameter limit: The most bytes accepted, the store's `maximumFileSize`.
    func read(_ source: ProviderSource, limit: Int) -> Result<Data, ImageStoreError> {
        let (latch, isReader) = reads.withLock { reads in
            if let running = reads[source.identity] { return (running, false) }
            let latch = Latch<Result<Data, ImageStoreError>>()
            reads[source.identity] = latch
            return (latch, true)
        }
        guard isReader else { return latch.wait() }
        let result = Self.call(source, limit: limit)
        reads.withLock { $0[source.identity] = nil }
        latch.complete(with: result)
        return result
    }

    /// Calls the provider and checks what it returned.
    private static func call(_ source: ProviderSource, limit: Int) -> Result<Data, ImageStoreError> {
        let data: Data
        do {
            data = try source.provider.data()
        } catch {
            return .failure(.providerFailed(source.request, reason: String(describing: error)))
        }
        if data.isEmpty {
            return .failure(.undecodable(source.request, reason: "the provider returned no bytes"))
        }
        guard data.count <= limit else {
            return .failure(.dataTooLarge(source.request, size: data.count, limit: limit))
        }
        return .success(data)
    }
}
