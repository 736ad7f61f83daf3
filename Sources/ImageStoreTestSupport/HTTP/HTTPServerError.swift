/// Why the loopback server could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed while setting up the listening socket or the wake-up pipe.
    case systemCallFailed(call: String, errno: Int32)

    /// The failed call and its errno, for a test's failure message.
    public var description: String {
        switch self {
        case .systemCallFailed(let call, let errno):
            "LoopbackHTTPServer: \(call) failed with errno \(errno)"
        }
    }
}
