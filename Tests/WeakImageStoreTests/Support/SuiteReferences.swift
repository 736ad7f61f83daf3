import Foundation

@testable import ImageCodecs

/// A suite's reference pixels as stored in the repository: `reference/NAME.rgba` (raw RGBA8, the
/// name the manifests use) is kept as `reference/NAME.rgba.zz`, zlib-compressed, and
/// `REFERENCES.tsv` lists each with its raw size and the SHA-256 of its raw bytes
/// (`Scripts/pack-suite-references.py` writes both).
///
/// The inflater that unpacks them is under test too, so every reference is checked against its
/// digest before a test compares pixels with it: a broken inflater fails here, never passes as a
/// matching reference.
struct SuiteReferences: Sendable {
    /// Why a reference cannot be read.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case malformedTable(line: String)
        case notListed(path: String)
        case inflate(path: String, InflateError)
        case digestMismatch(path: String, listed: String, computed: String)

        var description: String {
            switch self {
            case .malformedTable(let line): "REFERENCES.tsv: malformed line \(line.debugDescription)"
            case .notListed(let path): "\(path): not listed in REFERENCES.tsv"
            case .inflate(let path, let error): "\(path): the package's inflater failed: \(error)"
            case .digestMismatch(let path, let listed, let computed):
                "\(path): inflated to bytes with SHA-256 \(computed), REFERENCES.tsv says \(listed)"
            }
        }
    }

    private struct Listing: Sendable {
        let byteCount: Int
        let sha256: String
    }

    let folder: URL
    /// By stored path (`reference/NAME.rgba.zz`).
    private let listings: [String: Listing]

    /// Reads the `REFERENCES.tsv` of the suite in `folder`.
    init(folder: URL) throws {
        self.folder = folder
        let text = try String(contentsOf: folder.appendingPathComponent("REFERENCES.tsv"), encoding: .utf8)
        var listings: [String: Listing] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3, let byteCount = Int(fields[1]), fields[2].count == 64 else {
                throw Failure.malformedTable(line: String(line))
            }
            listings[fields[0]] = Listing(byteCount: byteCount, sha256: fields[2])
        }
        self.listings = listings
    }

    /// The stored paths `REFERENCES.tsv` lists.
    var storedPaths: Set<String> { Set(listings.keys) }

    /// The raw RGBA8 bytes of `path`, as the suite's manifests name it (`reference/NAME.rgba`).
    ///
    /// - Throws: ``Failure`` if it is not listed, does not inflate to its listed size, or its
    ///   digest differs; an I/O error if its file cannot be read.
    func pixels(_ path: String) throws -> [UInt8] {
        let stored = path + ".zz"
        guard let listing = listings[stored] else { throw Failure.notListed(path: stored) }
        let compressed = try Data(contentsOf: folder.appendingPathComponent(stored))
        // The inflater reads 8 bytes at a time and writes up to outputSlack past the end.
        var input = [UInt8](repeating: 0, count: compressed.count + BitReader.padding)
        input.replaceSubrange(0..<compressed.count, with: compressed)
        var output = [UInt8](repeating: 0, count: listing.byteCount + Inflater.outputSlack)
        do throws(InflateError) {
            var noChecksums = CRC32Lane()
            _ = try input.withUnsafeBufferPointer { (input) throws(InflateError) in
                try output.withUnsafeMutableBufferPointer { (output) throws(InflateError) in
                    try Inflater.inflate(
                        zlib: input.baseAddress!, count: compressed.count, into: output.baseAddress!,
                        count: listing.byteCount, checksumLane: &noChecksums)
                }
            }
        } catch {
            throw Failure.inflate(path: stored, error)
        }
        output.removeLast(Inflater.outputSlack)
        let digest = output.withUnsafeBytes { SHA256.hash($0) }.description
        guard digest == listing.sha256 else {
            throw Failure.digestMismatch(path: stored, listed: listing.sha256, computed: digest)
        }
        return output
    }
}
