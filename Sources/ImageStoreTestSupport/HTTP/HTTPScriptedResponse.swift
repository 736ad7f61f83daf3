/// What the loopback server answers on one path, faults included: status, headers and body,
/// when and how fast they go out, what the headers claim, and where the connection breaks.
///
/// The server adds headers that follow from the script (`Content-Length`, `ETag`,
/// `Last-Modified`, `Accept-Ranges`, `Content-Range`, `Connection: close`) unless ``headers``
/// holds one of the same name: headers given win, so a test can send any value.
///
/// | request | script | answer |
/// |---|---|---|
/// | `If-None-Match` listing ``entityTag`` (or `*`) | a 2xx status | 304, no body |
/// | `If-Modified-Since` ≥ ``lastModified``, no `If-None-Match` | a 2xx status | 304, no body |
/// | `Range: bytes=a-b` (one range), `If-Range` absent or matching | ``supportsRanges``, 200 | 206, that slice |
/// | a range starting past the end | ``supportsRanges``, 200 | 416, `Content-Range: bytes */length` |
/// | `HEAD` | any | the headers a `GET` gets, no body |
public struct HTTPScriptedResponse: Sendable {
    /// What `Content-Length` says.
    public enum ContentLength: Sendable, Equatable {
        /// The number of body bytes the response carries.
        case actual
        /// This number, whatever the body holds: a lie when it differs. The connection closes
        /// after such a response, since the client cannot know where the next one starts.
        case declared(Int)
        /// No `Content-Length`: the body ends when the server closes the connection.
        case omitted
    }

    /// A body sent in pieces with pauses between them.
    public struct Drip: Sendable, Equatable {
        /// Bytes per piece, at least 1.
        public var bytesPerPiece: Int
        /// Seconds between pieces.
        public var interval: Double

        /// - Parameters:
        ///   - bytesPerPiece: At least 1.
        ///   - interval: Seconds, at least 0.
        public init(bytesPerPiece: Int, interval: Double) {
            precondition(bytesPerPiece >= 1 && interval >= 0, "a drip sends at least a byte per piece")
            self.bytesPerPiece = bytesPerPiece
            self.interval = interval
        }
    }

    /// The status code. Defaults to 200.
    public var status: Int
    /// Header fields sent as given, in order (`Cache-Control`, `Expires`, `Date`, `Age`, …).
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]
    /// Seconds to wait before sending the status line. Defaults to 0.
    public var delayBeforeHeaders: Double = 0
    /// Sends the body in timed pieces. Defaults to `nil`: in one write with the headers.
    public var drip: Drip?
    /// Defaults to ``ContentLength/actual``.
    public var contentLength: ContentLength = .actual
    /// Closes the connection after this many body bytes. Defaults to `nil`: the whole body.
    public var closeAfterBodyBytes: Int?
    /// Closes the connection after the response. Defaults to `false`: keep-alive.
    public var closesConnection = false
    /// The `ETag` sent, and matched against `If-None-Match` and `If-Range`, quotes included
    /// (`"\"v1\""`). Defaults to `nil`.
    public var entityTag: String?
    /// The `Last-Modified` sent (an HTTP date, see ``HTTPDate``), and compared with
    /// `If-Modified-Since` and `If-Range`. Defaults to `nil`.
    public var lastModified: String?
    /// Answers `Range` requests with 206 and says `Accept-Ranges: bytes`. Defaults to `false`.
    public var supportsRanges = false
    /// Names of the headers the server would add from the script (`ETag`, `Last-Modified`,
    /// `Accept-Ranges`, `Content-Range`) that it leaves out, any case: a 206 matched against
    /// ``entityTag`` that sends none, say. Defaults to none.
    public var omittedHeaders: [String] = []
    /// Holds the response, before the delay, until ``LoopbackHTTPServer/openGate(_:)`` opens the
    /// gate of this name; the connection closes unanswered if it stays shut for the server's
    /// ``LoopbackHTTPServer/Configuration/maximumGateWait``. Defaults to `nil`.
    public var gate: String?

    /// A response with the given status, body and headers.
    ///
    /// - Parameters:
    ///   - status: Defaults to 200.
    ///   - headers: Defaults to none.
    ///   - body: Defaults to empty.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// 200 with `body` and its `Content-Type`.
    public static func ok(_ body: [UInt8], contentType: String = "application/octet-stream") -> Self {
        HTTPScriptedResponse(headers: [("Content-Type", contentType)], body: body)
    }

    /// A redirect to `location` (a path on this server or any URL).
    ///
    /// - Parameter status: 301, 302, 303, 307 or 308. Defaults to 302.
    public static func redirect(to location: String, status: Int = 302) -> Self {
        HTTPScriptedResponse(status: status, headers: [("Location", location)])
    }

    /// `status` with a short text body saying so.
    public static func status(_ status: Int) -> Self {
        HTTPScriptedResponse(
            status: status, headers: [("Content-Type", "text/plain")],
            body: Array("\(status) \(HTTPResponsePlan.reasonPhrase(status))\n".utf8))
    }
}
