import Foundation

/// The one spelling of a URL that its identity uses, so spellings a server cannot tell apart share
/// one image (RFC 3986 §6.2.3, scheme-based normalization):
///
/// | URL | canonical |
/// |---|---|
/// | `HTTPS://Example.COM:443/a.png#top` | `https://example.com/a.png` |
/// | `http://example.com` | `http://example.com/` |
/// | `http://example.com:8080/a?w=10` | `http://example.com:8080/a?w=10` |
/// | `https://user:secret@example.com/a.png` | `https://example.com/a.png` (credentials are no part of the picture) |
///
/// The query is kept (it usually selects the picture); the path keeps its case and encoding.
///
/// Every `.url` request computes it, a memory hit included, so the common shape (`http` or
/// `https`, a plain host name or IPv4 address, an optional port, path and query of URL characters
/// only) is normalized by one pass over the string's bytes (`URLComponents` is too slow for a hit
/// path: BENCHMARKS.md, "Why the code is the way it is"); it handles the rest and is the
/// reference the fast pass is tested against.
enum CanonicalURL {
    /// The canonical form of `url`; `url.absoluteString` when it cannot be taken apart.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - absoluteString: `url.absoluteString`, when the caller has read it already.
    static func string(for url: URL, absoluteString: String? = nil) -> String {
        simpleForm(of: absoluteString ?? url.absoluteString) ?? componentsForm(of: url)
    }

    /// `url` as text without its user name and password, for error messages and descriptions:
    /// `https://user:secret@example.com/a.png` => `https://example.com/a.png`.
    static func withoutUserInfo(_ url: URL) -> String {
        guard url.user != nil || url.password != nil else { return url.absoluteString }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return "\(url.scheme ?? "a") URL (its user info left out)"
        }
        components.user = nil
        components.password = nil
        return components.string ?? "\(url.scheme ?? "a") URL (its user info left out)"
    }

    /// The canonical form by `URLComponents`: any URL it can take apart.
    static func componentsForm(of url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.absoluteString
        }
        let scheme = components.scheme?.lowercased()
        components.scheme = scheme
        // Credentials are not part of what the picture is, and identities reach logs and disk.
        components.user = nil
        components.password = nil
        components.percentEncodedHost = components.percentEncodedHost?.lowercased()
        components.fragment = nil
        if let port = components.port, port == defaultPort(of: scheme) {
            components.port = nil
        }
        if components.percentEncodedPath.isEmpty, components.host != nil {
            components.percentEncodedPath = "/"
        }
        return components.string ?? url.absoluteString
    }

    /// The canonical form of an absolute `http` or `https` URL string of the common shape, by
    /// one pass over its bytes; `nil` for anything else (user info, IPv6 or percent-encoded
    /// hosts, empty or odd ports, an empty query, bytes that are not URL characters), which
    /// ``componentsForm(of:)`` handles. A URL in canonical form already (most are) is returned
    /// as it is, without building another string.
    static func simpleForm(of absolute: String) -> String? {
        var isCanonical = false
        var contiguous = absolute
        let built = contiguous.withUTF8 { bytes -> String? in
            // "http://" or "https://", any case.
            guard let schemeLength = httpSchemeLength(bytes), bytes.count >= schemeLength + 3,
                bytes[schemeLength + 1] == ascii("/"), bytes[schemeLength + 2] == ascii("/")
            else { return nil }
            let isSecure = schemeLength == 5
            // The authority: host, then an optional port.
            let hostStart = schemeLength + 3
            var index = hostStart
            while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
            let hostEnd = index
            guard hostEnd > hostStart else { return nil }
            var port: Int?
            if index < bytes.count, bytes[index] == ascii(":") {
                index += 1
                let portStart = index
                var value = 0
                while index < bytes.count, bytes[index] >= ascii("0"), bytes[index] <= ascii("9"), index - portStart < 5
                {
                    value = value * 10 + Int(bytes[index] - ascii("0"))
                    index += 1
                }
                // An empty port, a leading zero or more than five digits: leave it to URLComponents.
                guard index > portStart, bytes[portStart] != ascii("0") || index - portStart == 1 else { return nil }
                port = value
            }
            // The path and query run to the fragment or the end, URL characters only.
            let pathStart = index
            var queryStart: Int?
            while index < bytes.count, bytes[index] != ascii("#") {
                let byte = bytes[index]
                guard isPathOrQueryByte(byte) else { return nil }
                if byte == ascii("?"), queryStart == nil { queryStart = index }
                index += 1
            }
            let pathEnd = index
            // Right after the authority, only a path, a query or a fragment may follow.
            if pathStart < pathEnd, bytes[pathStart] != ascii("/"), bytes[pathStart] != ascii("?") { return nil }
            if let queryStart, queryStart + 1 == pathEnd { return nil }

            let keepsPort = port.map { $0 != (isSecure ? 443 : 80) } ?? false
            let portText = keepsPort ? UnsafeBufferPointer(rebasing: bytes[(hostEnd + 1)..<pathStart]) : nil
            let addsSlash = pathStart == pathEnd || bytes[pathStart] == ascii("?")
            if pathEnd == bytes.count, port == nil || keepsPort, !addsSlash,
                !bytes[0..<hostEnd].contains(where: { $0 >= ascii("A") && $0 <= ascii("Z") })
            {
                isCanonical = true
                return nil
            }
            let capacity = 8 + (hostEnd - hostStart) + 1 + (portText?.count ?? 0) + 1 + (pathEnd - pathStart)
            return String(unsafeUninitializedCapacity: capacity) { output in
                var count = 0
                @inline(__always) func append(_ byte: UInt8) {
                    output[count] = byte
                    count += 1
                }
                for byte in (isSecure ? "https://" : "http://").utf8 { append(byte) }
                for index in hostStart..<hostEnd { append(lowercased(bytes[index])) }
                if let portText {
                    append(ascii(":"))
                    for byte in portText { append(byte) }
                }
                if addsSlash { append(ascii("/")) }
                for index in pathStart..<pathEnd { append(bytes[index]) }
                return count
            }
        }
        return isCanonical ? absolute : built
    }

    /// Whether an absolute URL string's scheme is `http` or `https`, in any case.
    static func hasHTTPScheme(_ absolute: String) -> Bool {
        var absolute = absolute
        return absolute.withUTF8 { httpSchemeLength($0) != nil }
    }

    /// The length of the scheme of bytes that start `http:` (4) or `https:` (5), in any case;
    /// `nil` for any other start.
    private static func httpSchemeLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 5, lowercased(bytes[0]) == ascii("h"), lowercased(bytes[1]) == ascii("t"),
            lowercased(bytes[2]) == ascii("t"), lowercased(bytes[3]) == ascii("p")
        else { return nil }
        if bytes[4] == ascii(":") { return 4 }
        return lowercased(bytes[4]) == ascii("s") && bytes.count >= 6 && bytes[5] == ascii(":") ? 5 : nil
    }

    private static func defaultPort(of scheme: String?) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    @inline(__always)
    private static func ascii(_ character: Unicode.Scalar) -> UInt8 {
        UInt8(character.value)
    }

    @inline(__always)
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= ascii("A") && byte <= ascii("Z") ? byte + 32 : byte
    }

    /// Letters, digits, `-` and `.`: a host name or an IPv4 address.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case ascii("a")...ascii("z"), ascii("A")...ascii("Z"), ascii("0")...ascii("9"), ascii("-"), ascii("."): true
        default: false
        }
    }

    /// RFC 3986's unreserved and sub-delims characters, `:`, `@`, `/`, `?` and `%`: what a path
    /// and a query may hold as they are.
    private static func isPathOrQueryByte(_ byte: UInt8) -> Bool {
        switch byte {
        case ascii("a")...ascii("z"), ascii("A")...ascii("Z"), ascii("0")...ascii("9"):
            true
        case ascii("-"), ascii("."), ascii("_"), ascii("~"), ascii("!"), ascii("$"), ascii("&"), ascii("'"),
            ascii("("), ascii(")"), ascii("*"), ascii("+"), ascii(","), ascii(";"), ascii("="), ascii(":"),
            ascii("@"), ascii("/"), ascii("?"), ascii("%"):
            true
        default:
            false
        }
    }
}
