#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One client connection on its own thread: reads requests, answers each as its script says,
/// keeps the connection alive between them, and notices when the client goes away.
///
/// Every wait is a poll with a deadline that also watches the server's wake-up pipe, so a
/// stopping server ends the thread at once, and a client that closes the connection while the
/// server waits or writes is seen as an abort.
struct HTTPConnection {
    /// Why a response stopped early.
    private enum Interruption: Error {
        case clientClosed
        case stopping
        case timedOut
    }

    private let descriptor: Int32
    private let number: Int
    private let core: HTTPServerCore
    private let parser: HTTPRequestParser
    /// Bytes received and not yet parsed (the start of the next request, pipelined or partial).
    private var inbox: [UInt8] = []
    /// Under a bandwidth cap, when the next write may start (``MonotonicTime`` seconds).
    private var nextWriteAllowedAt = 0.0
    private var link = HTTPLink.unlimited

    /// The most bytes read at a time.
    private static let readSize = 16_384

    init(descriptor: Int32, number: Int, core: HTTPServerCore) {
        self.descriptor = descriptor
        self.number = number
        self.core = core
        parser = HTTPRequestParser(
            maximumHeaderBytes: core.configuration.maximumHeaderBytes,
            maximumBodyBytes: core.configuration.maximumRequestBodyBytes)
    }

    /// Serves requests until the client closes, a response closes, an idle timeout passes or
    /// the server stops; then closes the socket.
    mutating func run() {
        defer {
            LoopbackSocket.closeDescriptor(descriptor)
            core.connectionDidClose()
        }
        while var request = nextRequest() {
            request.connectionNumber = number
            guard respond(to: request) else { return }
        }
    }

    // MARK: Reading

    /// The next whole request, or `nil` when the connection should close.
    private mutating func nextRequest() -> HTTPRequest? {
        while true {
            switch parser.parse(inbox) {
            case .request(let request, let byteCount):
                inbox.removeFirst(byteCount)
                return request
            case .refused(let status):
                let plan = HTTPResponsePlan(
                    script: .status(status),
                    request: HTTPRequest(method: "GET", target: "/", version: "HTTP/1.0", headerFields: [], body: []))
                try? write(plan.head + plan.body, bodyByteCount: 0, target: nil, ending: nil)
                return nil
            case .incomplete:
                let timeout =
                    inbox.isEmpty ? core.configuration.idleConnectionTimeout : core.configuration.requestTimeout
                switch LoopbackSocket.wait(
                    for: descriptor, Int16(POLLIN), orWakeUp: core.wakeUpReadEnd, timeout: timeout)
                {
                case .wokenUp, .timedOut:
                    return nil
                case .ready:
                    // A close between requests is how keep-alive ends: not an abort.
                    guard LoopbackSocket.receiveBytes(descriptor, into: &inbox, maximum: Self.readSize) != .endOfStream
                    else { return nil }
                }
            }
        }
    }

    // MARK: Answering

    /// Answers `request`.
    ///
    /// - Returns: Whether the connection stays open for another request.
    private mutating func respond(to request: HTTPRequest) -> Bool {
        let (script, link) = core.script(for: request)
        self.link = link
        let plan = HTTPResponsePlan(script: script, request: request)
        let target = request.target
        let ending: (outcome: HTTPServerCore.ResponseOutcome, status: Int) = (
            plan.isCutShortByScript ? .cutShortByScript : .completed, plan.status
        )
        do throws(Interruption) {
            if let gate = plan.gate {
                guard try waitForGate(gate) else { return false }
            }
            try pause(plan.delayBeforeHeaders + link.latency)
            if let drip = plan.drip {
                var start = plan.body.startIndex
                var isFirst = true
                repeat {
                    if !isFirst { try pause(drip.interval) }
                    let end = min(plan.body.endIndex, start + drip.bytesPerPiece)
                    let piece = Array(plan.body[start..<end])
                    try write(
                        isFirst ? plan.head + piece : piece, bodyByteCount: piece.count, target: target,
                        ending: end == plan.body.endIndex ? ending : nil)
                    start = end
                    isFirst = false
                } while start < plan.body.endIndex
            } else {
                // One write for the whole response: no small segments for Nagle's algorithm to hold.
                try write(plan.head + plan.body, bodyByteCount: plan.body.count, target: target, ending: ending)
            }
        } catch .clientClosed {
            core.responseDidEnd(.abortedByClient, status: plan.status, target: target)
            return false
        } catch {
            return false  // The server is stopping, or the client stopped reading: neither is counted.
        }
        return !plan.closesConnection
    }

    /// Holds the response until `gate` opens.
    ///
    /// - Returns: Whether it opened within the configured wait.
    private mutating func waitForGate(_ gate: String) throws(Interruption) -> Bool {
        let deadline = MonotonicTime.now + core.configuration.maximumGateWait
        while !core.isGateOpen(gate) {
            guard MonotonicTime.now < deadline else { return false }
            try pause(0.005)
        }
        return true
    }

    /// Waits `seconds`, watching for the client closing and the server stopping.
    private mutating func pause(_ seconds: Double) throws(Interruption) {
        let deadline = MonotonicTime.now + seconds
        while true {
            let remaining = deadline - MonotonicTime.now
            guard remaining > 0 else { return }
            // With a full inbox, stop reading (a client pipelining without end) and only sleep.
            let watched =
                inbox.count < parser.maximumHeaderBytes + parser.maximumBodyBytes ? descriptor : core.wakeUpReadEnd
            switch LoopbackSocket.wait(for: watched, Int16(POLLIN), orWakeUp: core.wakeUpReadEnd, timeout: remaining) {
            case .timedOut: return
            case .wokenUp: throw .stopping
            case .ready:
                if LoopbackSocket.receiveBytes(descriptor, into: &inbox, maximum: Self.readSize) == .endOfStream {
                    throw .clientClosed
                }
            }
        }
    }

    /// Writes `bytes`, of which the last `bodyByteCount` are body, at the link's pace.
    ///
    /// - Parameter ending: How the response ends once all of `bytes` is out; `nil` if more follows.
    private mutating func write(
        _ bytes: [UInt8], bodyByteCount: Int, target: String?,
        ending: (outcome: HTTPServerCore.ResponseOutcome, status: Int)?
    ) throws(Interruption) {
        let bodyStart = bytes.count - bodyByteCount
        var offset = 0
        while offset < bytes.count {
            var end = bytes.count
            if let bytesPerSecond = link.bytesPerSecond {
                try pause(nextWriteAllowedAt - MonotonicTime.now)
                // A twentieth of a second's worth per write keeps the pace smooth.
                end = min(bytes.count, offset + max(1, bytesPerSecond / 20))
            }
            let sent = bytes.withUnsafeBytes { buffer in
                core.send(
                    UnsafeRawBufferPointer(rebasing: buffer[offset..<end]), on: descriptor,
                    bodyBytes: min(max(0, bodyStart - offset), end - offset)..<(end - offset), target: target,
                    ending: end == bytes.count ? ending : nil)
            }
            switch sent {
            case .bytes(let count):
                offset += count
                if let bytesPerSecond = link.bytesPerSecond {
                    nextWriteAllowedAt =
                        max(nextWriteAllowedAt, MonotonicTime.now) + Double(count) / Double(bytesPerSecond)
                }
            case .wouldBlock:
                let timeout = core.configuration.writeTimeout
                switch LoopbackSocket.wait(
                    for: descriptor, Int16(POLLOUT), orWakeUp: core.wakeUpReadEnd, timeout: timeout)
                {
                case .ready: continue
                case .wokenUp: throw .stopping
                case .timedOut: throw .timedOut
                }
            case .peerClosed:
                throw .clientClosed
            }
        }
    }
}
