/// Where a source's bytes are fetched from. The engine never looks inside: it hands the value to
/// ``ImageSources/fetch(_:)`` and, when the decoder rejects the bytes, asks it to name the failure.
enum ByteSource: Sendable {
    /// A file, read beneath its root.
    case file(FileLocation)
    /// The app's data provider.
    case provider(ProviderSource)

    /// The error for bytes from here that the decoder rejected.
    func decodingFailure(reason: String) -> ImageStoreError {
        switch self {
        case .file(let location): .decodingFailed(path: location.path, reason: reason)
        case .provider(let provider): .undecodable(provider.request, reason: reason)
        }
    }
}
