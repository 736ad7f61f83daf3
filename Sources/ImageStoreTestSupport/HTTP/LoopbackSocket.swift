#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few POSIX socket calls the server makes, with the differences between Darwin and Glibc
/// hidden: every socket is non-blocking (no call can hang; waits go through
/// ``wait(for:_:orWakeUp:timeout:)``, which has a deadline), closed on exec, and never raises
/// `SIGPIPE`.
enum LoopbackSocket {
    /// What a wait ended with.
    enum Readiness: Equatable {
        /// The socket can be read or written (or has failed, which the next call reports).
        case ready
        /// The wake-up descriptor became readable: the server is stopping.
        case wokenUp
        case timedOut
    }

    /// What a read returned.
    enum Received: Equatable {
        case bytes(Int)
        /// The peer closed its side (or reset the connection).
        case endOfStream
        case wouldBlock
    }

    /// What a write returned.
    enum Sent: Equatable {
        case bytes(Int)
        case wouldBlock
        /// The peer closed the connection (`EPIPE`, `ECONNRESET`, or another failure).
        case peerClosed
    }

    /// A listening socket bound to `address` on a port the system picks.
    ///
    /// - Parameter address: An IPv4 loopback address: `127.0.0.1`, or another of `127.0.0.0/8`
    ///   for a second origin (Linux answers on all of them; macOS only on those configured).
    /// - Returns: The descriptor and the port.
    /// - Throws: ``HTTPServerError/systemCallFailed(call:errno:)``.
    static func makeListener(address host: String = "127.0.0.1") throws(HTTPServerError) -> (
        descriptor: Int32, port: UInt16
    ) {
        var hostAddress = in_addr()
        guard inet_pton(AF_INET, host, &hostAddress) == 1 else {
            throw .systemCallFailed(call: "inet_pton", errno: EINVAL)
        }
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw .systemCallFailed(call: "socket", errno: errno) }
        do throws(HTTPServerError) {
            configure(descriptor)
            var address = sockaddr_in()
            #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr = hostAddress
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    bind(descriptor, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw .systemCallFailed(call: "bind", errno: errno) }
            guard listen(descriptor, 128) == 0 else { throw .systemCallFailed(call: "listen", errno: errno) }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            guard named == 0 else { throw .systemCallFailed(call: "getsockname", errno: errno) }
            return (descriptor, UInt16(bigEndian: address.sin_port))
        } catch {
            closeDescriptor(descriptor)
            throw error
        }
    }

    /// A pipe whose read end every waiting thread polls: one byte written makes it readable for
    /// good, which wakes them all.
    static func makeWakeUpPipe() throws(HTTPServerError) -> (readEnd: Int32, writeEnd: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw .systemCallFailed(call: "pipe", errno: errno) }
        for end in ends { configure(end, isSocket: false) }
        return (ends[0], ends[1])
    }

    /// Accepts one pending connection, configured like every socket here plus `TCP_NODELAY`
    /// (Nagle's algorithm costs 40 ms per small response on loopback).
    ///
    /// - Returns: The connection's descriptor, or `nil` if none was pending.
    static func acceptConnection(from listener: Int32) -> Int32? {
        let descriptor = accept(listener, nil, nil)
        guard descriptor >= 0 else { return nil }
        configure(descriptor)
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return descriptor
    }

    /// Waits until `descriptor` is ready for `events` (`POLLIN` or `POLLOUT`), the wake-up
    /// descriptor is readable, or `timeout` seconds pass.
    static func wait(
        for descriptor: Int32, _ events: Int16, orWakeUp wakeUp: Int32, timeout: Double
    ) -> Readiness {
        let deadline = MonotonicTime.now + max(0, timeout)
        while true {
            var descriptors = [
                pollfd(fd: descriptor, events: events, revents: 0),
                pollfd(fd: wakeUp, events: Int16(POLLIN), revents: 0),
            ]
            let remaining = deadline - MonotonicTime.now
            // Whole milliseconds, rounded up so a short wait does not spin; at most a minute per call.
            let milliseconds = Int32(max(0, min(60_000, (remaining * 1000).rounded(.up))))
            let result = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if result < 0 && errno != EINTR { return .ready }  // The next read or write reports it.
            if descriptors[1].revents != 0 { return .wokenUp }
            if descriptors[0].revents != 0 { return .ready }
            if MonotonicTime.now >= deadline { return .timedOut }
        }
    }

    /// Reads what is available, up to `maximum` bytes, onto the end of `buffer`.
    static func receiveBytes(_ descriptor: Int32, into buffer: inout [UInt8], maximum: Int) -> Received {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: maximum))
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                recv(descriptor, bytes.baseAddress! + start, maximum, 0)  // Proven: `maximum` bytes appended above.
            }
            if count > 0 {
                buffer.removeLast(maximum - count)
                return .bytes(count)
            }
            let error = errno
            if count < 0 && error == EINTR { continue }
            buffer.removeLast(maximum)
            if count < 0 && (error == EAGAIN || error == EWOULDBLOCK) { return .wouldBlock }
            return .endOfStream
        }
    }

    /// Writes as much of `bytes` as the socket takes now.
    static func sendBytes(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Sent {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .bytes(0) }
        #if canImport(Darwin)
        let flags: Int32 = 0  // SO_NOSIGPIPE is set on the socket instead.
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        while true {
            let count = send(descriptor, base, bytes.count, flags)
            if count >= 0 { return .bytes(count) }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return .wouldBlock }
            return .peerClosed
        }
    }

    /// Ends both directions of a connection, waking a thread blocked on it.
    static func shutDown(_ descriptor: Int32) {
        #if canImport(Darwin)
        _ = shutdown(descriptor, SHUT_RDWR)
        #else
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
        #endif
    }

    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Non-blocking, closed on exec, and (sockets on Darwin) no `SIGPIPE`.
    private static func configure(_ descriptor: Int32, isSocket: Bool = true) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        if isSocket {
            var one: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        #endif
    }
}
