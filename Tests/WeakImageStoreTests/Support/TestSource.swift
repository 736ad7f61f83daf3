import Foundation

@testable import ImageCodecs
@testable import WeakImageStore

/// The kinds of source a request can name, for tests that must hold for every one of them.
enum SourceKind: String, CaseIterable, Sendable {
    case named
    case file
    case fileURL
    case provider
}

/// One image reached through one kind of request: a file `<name>.png` in a test directory (named,
/// by path, by `file:` URL) or a ``TestDataProvider`` with identity `name` and the same bytes.
struct TestSource {
    let kind: SourceKind
    /// The full-size request.
    let request: ImageRequest
    /// The provider behind a `.provider` request; nil for the others.
    let provider: TestDataProvider?

    /// Writes (or provides) `bytes` so that a request of `kind` reaches them.
    ///
    /// - Parameter gate: For a provider, where its reads wait; file reads are held with the
    ///   ``FakeDecoder``'s gates instead.
    init(_ kind: SourceKind, name: String, bytes: [UInt8], in directory: TestDirectory, gate: DecodeGate? = nil) {
        self.kind = kind
        switch kind {
        case .named:
            directory.write("\(name).png", bytes)
            request = .named(name)
            provider = nil
        case .file:
            request = .file(directory.write("\(name).png", bytes))
            provider = nil
        case .fileURL:
            request = .url(URL(fileURLWithPath: directory.write("\(name).png", bytes)))
            provider = nil
        case .provider:
            let provider = TestDataProvider(identity: name, bytes: bytes, gate: gate)
            request = .provider(provider)
            self.provider = provider
        }
    }

    /// An image of `size` bytes of `fill`: under ``FakeDecoder`` it costs `size` and is `size` × 1
    /// pixels, and `fill` names it in the decoder's log.
    init(
        _ kind: SourceKind, name: String, size: Int, fill: UInt8, in directory: TestDirectory, gate: DecodeGate? = nil
    ) {
        self.init(kind, name: name, bytes: [UInt8](repeating: fill, count: size), in: directory, gate: gate)
    }

    /// The request for this source's thumbnail of at most `maxPixelSize` pixels.
    func thumbnail(_ maxPixelSize: Int) -> ImageRequest {
        request.withMaxPixelSize(maxPixelSize)
    }
}
