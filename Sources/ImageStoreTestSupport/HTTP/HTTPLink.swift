/// The network between the loopback server and its clients, as a phone sees it: a latency
/// before every response and a bandwidth cap on every connection. Loopback has neither.
public struct HTTPLink: Sendable, Equatable {
    /// Seconds added before every response's status line (after any scripted delay).
    public var latency: Double
    /// The most bytes per second each connection sends (headers and body), or `nil` for no cap.
    public var bytesPerSecond: Int?

    /// No latency and no cap: loopback as it is.
    public static let unlimited = HTTPLink()

    /// - Parameters:
    ///   - latency: Seconds, at least 0. Defaults to 0.
    ///   - bytesPerSecond: At least 1, or `nil` for no cap. Defaults to `nil`.
    public init(latency: Double = 0, bytesPerSecond: Int? = nil) {
        precondition(latency >= 0 && (bytesPerSecond ?? 1) >= 1, "a link has a latency ≥ 0 and a cap ≥ 1 byte/s")
        self.latency = latency
        self.bytesPerSecond = bytesPerSecond
    }
}
