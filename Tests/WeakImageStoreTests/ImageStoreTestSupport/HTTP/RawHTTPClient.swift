import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A plain TCP client for what URLSession hides: the exact bytes of a response, a body shorter
/// or longer than its `Content-Length`, a connection closed by the server.
final class RawHTTPClient {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port`; reads give up after `timeout` seconds without data.
    ///
    /// - Returns: `nil` if the connection is refused.
    init?(port: UInt16, timeout: Double = 5) {
        #if canImport(Darwin)
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        var limit = timeval()
        limit.tv_sec = .init(timeout)
        limit.tv_usec = .init(timeout.truncatingRemainder(dividingBy: 1) * 1e6)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
    }

    /// Sends `text` as it is.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// Reads until the server closes the connection or the read timeout passes.
    ///
    /// - Returns: The bytes, and whether the server closed the connection.
    func readToEnd() -> (bytes: [UInt8], closedByServer: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                received += buffer[..<count]
            } else {
                return (received, count == 0)
            }
        }
    }

    /// Reads until `byteCount` bytes came, the server closed, or the read timeout passed.
    func receive(byteCount: Int) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while received.count < byteCount {
            let count = buffer.withUnsafeMutableBytes {
                read(descriptor, $0.baseAddress, min($0.count, byteCount - received.count))
            }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return received
    }

    /// Closes the connection now, as a client that gives up does.
    func closeNow() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
