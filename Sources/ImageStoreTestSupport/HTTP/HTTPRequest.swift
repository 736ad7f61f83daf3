/// One request the loopback server received, as the client sent it.
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, …
    public let method: String
    /// The request target: path and query as sent (`/photo.jpg?w=2`).
    public let target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    public let version: String
    /// The header fields in the order they came.
    public let headerFields: [(name: String, value: String)]
    /// The body (requests with `Content-Length` only).
    public let body: [UInt8]
    /// Which connection carried it: 1 for the server's first, and so on.
    public internal(set) var connectionNumber = 0

    /// The target without its query.
    public var path: String {
        target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target
    }

    /// The value of header `name` (any case); several fields of that name joined with ", ".
    public func value(forHeader name: String) -> String? {
        let values = headerFields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    init(method: String, target: String, version: String, headerFields: [(name: String, value: String)], body: [UInt8])
    {
        self.method = method
        self.target = target
        self.version = version
        self.headerFields = headerFields
        self.body = body
    }
}
