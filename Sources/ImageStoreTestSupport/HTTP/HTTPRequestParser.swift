/// Parses HTTP/1.1 requests (RFC 9112) from the bytes a connection has received, within limits:
/// a request whose header section or body is too large is refused, not buffered.
struct HTTPRequestParser {
    /// What the received bytes hold.
    enum Outcome {
        /// A whole request, and how many bytes it took (the rest belongs to the next one).
        case request(HTTPRequest, byteCount: Int)
        /// Not a whole request yet.
        case incomplete
        /// A request the server refuses with `status`, then closes the connection.
        case refused(status: Int)
    }

    /// The most bytes of request line and header fields.
    let maximumHeaderBytes: Int
    /// The most bytes of body.
    let maximumBodyBytes: Int

    private static let headerEnd: [UInt8] = Array("\r\n\r\n".utf8)

    func parse(_ bytes: [UInt8]) -> Outcome {
        // The end of the header section, looked for only within the limit.
        let searchEnd = min(bytes.count, maximumHeaderBytes + Self.headerEnd.count)
        guard let headerLength = Self.firstIndex(of: Self.headerEnd, in: bytes[..<searchEnd]) else {
            return bytes.count >= maximumHeaderBytes + Self.headerEnd.count ? .refused(status: 431) : .incomplete
        }
        let lines = String(decoding: bytes[..<headerLength], as: UTF8.self)
            .split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty, !requestLine[1].isEmpty else {
            return .refused(status: 400)
        }
        let version = String(requestLine[2])
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return .refused(status: 505) }

        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            // Obsolete line folding (a line starting with white space) is refused, as RFC 9112 allows.
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, line.first != " ",
                line.first != "\t"
            else { return .refused(status: 400) }
            let name = line[..<colon]
            guard !name.contains(" ") else { return .refused(status: 400) }
            let value = line[line.index(after: colon)...].trimmingWhiteSpace()
            fields.append((String(name), String(value)))
        }

        let bodyLength: Int
        let lengths = fields.filter { $0.name.lowercased() == "content-length" }.map(\.value)
        if fields.contains(where: { $0.name.lowercased() == "transfer-encoding" }) {
            return .refused(status: 501)  // Chunked request bodies: no client of these tests sends one.
        } else if lengths.isEmpty {
            bodyLength = 0
        } else if Set(lengths).count == 1, let length = Int(lengths[0]), length >= 0 {
            guard length <= maximumBodyBytes else { return .refused(status: 413) }
            bodyLength = length
        } else {
            return .refused(status: 400)
        }
        let bodyStart = headerLength + Self.headerEnd.count
        guard bytes.count >= bodyStart + bodyLength else { return .incomplete }

        let request = HTTPRequest(
            method: String(requestLine[0]), target: Self.originForm(String(requestLine[1])), version: version,
            headerFields: fields, body: Array(bytes[bodyStart..<bodyStart + bodyLength]))
        return .request(request, byteCount: bodyStart + bodyLength)
    }

    /// The target in origin form: `http://host/path?q` becomes `/path?q`.
    private static func originForm(_ target: String) -> String {
        guard target.hasPrefix("http://") || target.hasPrefix("https://") else { return target }
        let afterScheme = target[target.index(target.firstIndex(of: ":")!, offsetBy: 3)...]  // Proven: the prefix.
        guard let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = String(afterScheme[slash...])
        return rest.hasPrefix("?") ? "/" + rest : rest
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        var index = bytes.startIndex
        while index <= bytes.endIndex - pattern.count {
            if bytes[index] == pattern[0] && bytes[index..<index + pattern.count].elementsEqual(pattern) {
                return index
            }
            index += 1
        }
        return nil
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional white space).
    fileprivate func trimmingWhiteSpace() -> Substring {
        let isWhiteSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhiteSpace($0) }) else { return self[endIndex...] }
        let last = lastIndex(where: { !isWhiteSpace($0) })!  // Proven: `first` exists.
        return self[first...last]
    }
}
