import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The start of a body whose transfer was interrupted, kept in its temporary file so the next
/// transfer of the same identity can ask for the rest (`Range` with `If-Range`) instead of
/// downloading it all again. URLSession's resume data does not exist on Linux, so this is done
/// with headers.
///
/// Kept only when the rest can be asked for safely: a strong validator that proves the rest
/// belongs to the same representation, and no content coding (ranges would then count coded
/// bytes).
struct PartialBody: Sendable, Equatable {
    /// The fewest bytes worth keeping: below this, downloading again costs less than a second
    /// request risks.
    static let minimumLength = 64 * 1024

    /// The identity whose transfers may continue it.
    let identity: SourceIdentity
    /// The temporary file holding the first ``length`` bytes.
    let path: String
    /// Bytes received and written.
    let length: Int
    /// What `If-Range` sends: the response's strong `ETag`, else its `Last-Modified`.
    let validator: String
    /// The whole body's length, from `Content-Length` (or a `Content-Range`), when known.
    let totalLength: Int?

    /// The validator `If-Range` may use for a response with these header fields (names
    /// lowercased), or nil: a weak `ETag` cannot (RFC 9110 §13.1.5), and neither can a coded
    /// body, nor a `Last-Modified` that is no HTTP-date (`W/…` would read as a weak tag, `"…"`
    /// as an entity tag).
    static func rangeValidator(of headers: [String: String]) -> String? {
        let coding = headers["content-encoding"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "identity"
        guard coding == "identity" else { return nil }
        if let entityTag = headers["etag"], !entityTag.hasPrefix("W/") { return entityTag }
        // Any `now` will do: it only picks the century of a two-digit year.
        guard let lastModified = headers["last-modified"], HTTPDateParser.secondsSince1970(lastModified, now: 0) != nil
        else { return nil }
        return lastModified
    }

    /// The `Range` field value that asks for the rest.
    var rangeFieldValue: String { "bytes=\(length)-" }

    /// Deletes the file.
    func delete() {
        unlink(path)
    }
}
