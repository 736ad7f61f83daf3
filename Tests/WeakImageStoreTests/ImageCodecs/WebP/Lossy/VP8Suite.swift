import Foundation

@testable import ImageCodecs

/// The files of `Tests/WeakImageStoreTests/Fixtures/webpsuite-lossy` and their references, made
/// by `Scripts/make-webpsuite-lossy.py`: `MANIFEST.tsv` gives each file's status, size and the
/// SHA-256 of libwebp 1.2.4's RGBA pixels (`dwebp -pam`), or the VP8Error case it must throw.
enum VP8Suite {
    struct Entry {
        let file: String
        let isValid: Bool
        let width: Int
        let height: Int
        let sha256: String
        let expectedError: String?
    }

    static let folder = SharedTestData.packageRoot.appendingPathComponent(
        "Tests/WeakImageStoreTests/Fixtures/webpsuite-lossy")

    static func entries() throws -> [Entry] {
        let text = try String(contentsOf: folder.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return Entry(
                file: fields[0], isValid: fields[1] == "ok", width: Int(fields[2])!, height: Int(fields[3])!,
                sha256: fields[4], expectedError: fields[5] == "-" ? nil : fields[5])
        }
    }

    /// The bytes libwebp hands its VP8 decoder: from the `VP8 ` chunk's payload to the end of
    /// the file (the last token partition may run into the padding byte, as in libwebp).
    static func vp8Data(_ file: String) throws -> [UInt8] {
        let data = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
        var offset = 12
        while offset + 8 <= data.count {
            let size = data[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            if data[offset..<offset + 4].elementsEqual("VP8 ".utf8) { return Array(data[(offset + 8)...]) }
            offset += 8 + size + (size & 1)
        }
        return []
    }

    /// The name of an error's case, as the manifest spells it.
    static func caseName(_ error: VP8Error) -> String {
        switch error {
        case .truncatedHeader: "truncatedHeader"
        case .notKeyFrame: "notKeyFrame"
        case .invalidProfile: "invalidProfile"
        case .frameNotShown: "frameNotShown"
        case .badStartCode: "badStartCode"
        case .invalidDimensions: "invalidDimensions"
        case .firstPartitionPastEnd: "firstPartitionPastEnd"
        case .truncatedFrameHeader: "truncatedFrameHeader"
        case .tokenPartitionsPastEnd: "tokenPartitionsPastEnd"
        case .truncatedModes: "truncatedModes"
        case .truncatedCoefficients: "truncatedCoefficients"
        case .imageTooLarge: "imageTooLarge"
        case .cancelled: "cancelled"
        }
    }
}
