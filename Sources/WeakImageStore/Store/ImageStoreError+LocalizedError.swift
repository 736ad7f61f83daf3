import Foundation

// `error.localizedDescription` is the sentence each error's `description` gives, rather than
// Foundation's "The operation could not be completed. (WeakImageStore.ImageStoreError error 9.)".

extension ImageStoreError: LocalizedError {
    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}
