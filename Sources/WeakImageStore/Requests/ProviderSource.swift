/// A data provider inside a request, with the identity read from it once.
///
/// A class, so a request carrying a provider stays as small as one carrying a name.
final class ProviderSource: Hashable, Sendable {
    let provider: any ImageDataProvider
    let identity: SourceIdentity

    init(_ provider: some ImageDataProvider) {
        self.provider = provider
        identity = SourceIdentity(.provider(identity: provider.identity, version: provider.version))
    }

    /// The full-size request for this provider: what errors name.
    var request: ImageRequest {
        ImageRequest(source: .provider(self), maxPixelSize: nil)
    }

    static func == (lhs: ProviderSource, rhs: ProviderSource) -> Bool {
        lhs.identity == rhs.identity
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }
}
