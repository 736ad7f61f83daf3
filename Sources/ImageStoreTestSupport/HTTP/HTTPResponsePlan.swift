import Foundation

/// The bytes and timing one request gets from its script: conditional requests (RFC 9110,
/// section 13) and ranges (section 14) decided, headers written, the body cut as the script says.
/// Pure, so the decisions can be read without a socket.
struct HTTPResponsePlan {
    /// The status line and header section, `\r\n\r\n` included.
    let head: [UInt8]
    /// The body bytes to send (less than the body when the script cuts it, none for HEAD or 304).
    let body: ArraySlice<UInt8>
    let status: Int
    let delayBeforeHeaders: Double
    let drip: HTTPScriptedResponse.Drip?
    let gate: String?
    /// Whether the connection closes after this response.
    let closesConnection: Bool
    /// Whether ``body`` stops where the script says, short of the body.
    let isCutShortByScript: Bool
    let isConditionalRequest: Bool
    let isRangeRequest: Bool

    init(script: HTTPScriptedResponse, request: HTTPRequest) {
        let method = request.method
        let isGetOrHead = method == "GET" || method == "HEAD"
        let ifNoneMatch = request.value(forHeader: "If-None-Match")
        let ifModifiedSince = request.value(forHeader: "If-Modified-Since")
        let range = request.value(forHeader: "Range")
        isConditionalRequest = ifNoneMatch != nil || ifModifiedSince != nil
        isRangeRequest = range != nil

        var status = script.status
        var fullBody = script.body[...]
        var contentRange: String?
        if isGetOrHead && (200..<300).contains(status)
            && Self.isNotModified(script, ifNoneMatch: ifNoneMatch, ifModifiedSince: ifModifiedSince)
        {
            status = 304
            fullBody = []
        } else if let range, method == "GET", status == 200, script.supportsRanges,
            Self.ifRangeMatches(script, request.value(forHeader: "If-Range"))
        {
            switch Self.byteRange(range, length: script.body.count) {
            case .satisfiable(let bounds):
                status = 206
                fullBody = script.body[bounds]
                contentRange = "bytes \(bounds.lowerBound)-\(bounds.upperBound - 1)/\(script.body.count)"
            case .unsatisfiable:
                status = 416
                fullBody = []
                contentRange = "bytes */\(script.body.count)"
            case .ignored:
                break
            }
        }

        var sentBody = method == "HEAD" ? [] : fullBody
        if let limit = script.closeAfterBodyBytes, limit < sentBody.count {
            sentBody = sentBody.prefix(max(0, limit))
            isCutShortByScript = true
        } else {
            isCutShortByScript = false
        }
        let lengthIsALie: Bool
        let declaredLength: Int?
        switch script.contentLength {
        case .actual:
            declaredLength = status == 304 ? nil : fullBody.count
            lengthIsALie = false
        case .declared(let length):
            declaredLength = length
            lengthIsALie = length != fullBody.count
        case .omitted:
            declaredLength = nil
            lengthIsALie = false
        }
        let closes =
            script.closesConnection || isCutShortByScript || lengthIsALie || request.version == "HTTP/1.0"
            || (script.contentLength == .omitted && status != 304)
            || request.value(forHeader: "Connection")?.lowercased() == "close"

        var fields = script.headers
        let omitted = Set(script.omittedHeaders.map { $0.lowercased() })
        func add(_ name: String, _ value: String?) {
            guard let value, !omitted.contains(name.lowercased()),
                !fields.contains(where: { $0.name.lowercased() == name.lowercased() })
            else { return }
            fields.append((name, value))
        }
        add("ETag", script.entityTag)
        add("Last-Modified", script.lastModified)
        add("Accept-Ranges", script.supportsRanges ? "bytes" : nil)
        add("Content-Range", contentRange)
        add("Content-Length", declaredLength.map(String.init))
        add("Connection", closes ? "close" : nil)
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        head += "\r\n"

        self.head = Array(head.utf8)
        self.body = sentBody
        self.status = status
        self.closesConnection = closes
        delayBeforeHeaders = script.delayBeforeHeaders
        drip = script.drip
        gate = script.gate
    }

    /// RFC 9110, 13.1.1 and 13.1.3: `If-None-Match` decides when present (weak comparison),
    /// else `If-Modified-Since` against `Last-Modified`, compared as dates.
    private static func isNotModified(
        _ script: HTTPScriptedResponse, ifNoneMatch: String?, ifModifiedSince: String?
    ) -> Bool {
        if let ifNoneMatch {
            guard let entityTag = script.entityTag else { return false }
            let listed = ifNoneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return listed.contains("*") || listed.contains { weakForm($0) == weakForm(entityTag) }
        }
        guard let ifModifiedSince, let lastModified = script.lastModified else { return false }
        guard let since = HTTPDate.date(from: ifModifiedSince), let modified = HTTPDate.date(from: lastModified) else {
            return ifModifiedSince == lastModified
        }
        return modified <= since
    }

    /// RFC 9110, 13.1.5: a range applies if `If-Range` is absent or matches the validator, an
    /// entity tag strongly, a date exactly.
    private static func ifRangeMatches(_ script: HTTPScriptedResponse, _ ifRange: String?) -> Bool {
        guard let ifRange else { return true }
        if ifRange.hasPrefix("\"") || ifRange.hasPrefix("W/") {
            return !ifRange.hasPrefix("W/") && ifRange == script.entityTag
        }
        return ifRange == script.lastModified
    }

    private enum ByteRange {
        case satisfiable(Range<Int>)
        case unsatisfiable
        /// Not one well-formed byte range: answered with the whole body, as RFC 9110 allows.
        case ignored
    }

    /// `bytes=first-last`, `bytes=first-` or `bytes=-suffixLength`, one range only.
    private static func byteRange(_ header: String, length: Int) -> ByteRange {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return .ignored }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .ignored }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix >= 0 else { return .ignored }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .satisfiable(max(0, length - suffix)..<length)
        }
        guard let first = Int(parts[0]), first >= 0 else { return .ignored }
        let last: Int
        if parts[1].isEmpty {
            last = length - 1
        } else {
            guard let given = Int(parts[1]), given >= first else { return .ignored }
            last = min(given, length - 1)
        }
        return first < length ? .satisfiable(first..<last + 1) : .unsatisfiable
    }

    private static func weakForm(_ entityTag: some StringProtocol) -> Substring {
        let tag = Substring(entityTag)
        return tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }

    /// The reason phrase of common status codes (clients ignore it).
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 413: "Content Too Large"
        case 416: "Range Not Satisfiable"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
