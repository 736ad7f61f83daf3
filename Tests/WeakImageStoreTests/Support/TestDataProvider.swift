import Foundation

@testable import ImageCodecs
@testable import WeakImageStore

/// An ``ImageDataProvider`` for store tests: returns fixed bytes (any number, none, garbage) or
/// throws, counts its calls, records the threads it ran on and how many ran at once, and can hold
/// every read at a ``DecodeGate`` until the test opens it.
final class TestDataProvider: ImageDataProvider {
    /// What `data()` throws for a provider made with `.failure`.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What `data()` does once past the gate.
    enum Content: Sendable {
        case bytes(Data)
        case failure(String)
    }

    /// The calls of `data()` as the tests observe them; providers given the same `Reads` count
    /// together, to see whether equal providers were read at the same time.
    final class Reads: Sendable {
        private struct Record {
            var calls = 0
            var running = 0
            var mostRunning = 0
            var threads: [ObjectIdentifier] = []
            var onMainThread: [Bool] = []
        }

        private let record = Lock(Record())

        /// How many times `data()` was called.
        var calls: Int { record.withLock { $0.calls } }

        /// The most calls of `data()` that ran at the same moment.
        var mostConcurrentCalls: Int { record.withLock { $0.mostRunning } }

        /// The thread of each call, in call order.
        var threads: [ObjectIdentifier] { record.withLock { $0.threads } }

        /// Whether each call ran on the main thread, in call order.
        var onMainThread: [Bool] { record.withLock { $0.onMainThread } }

        fileprivate func begin() {
            record.withLock { record in
                record.calls += 1
                record.running += 1
                record.mostRunning = max(record.mostRunning, record.running)
                record.threads.append(ObjectIdentifier(Thread.current))
                record.onMainThread.append(Thread.isMainThread)
            }
        }

        fileprivate func end() {
            record.withLock { $0.running -= 1 }
        }
    }

    let identity: String
    let version: String
    let content: Content
    /// Reads wait here until the test opens it, to hold a load in flight; nil for none.
    let gate: DecodeGate?
    /// How long each read takes once past the gate, to widen the window in which a second read
    /// would overlap it.
    let duration: TimeInterval
    let reads: Reads

    init(
        identity: String, version: String = "1", content: Content, gate: DecodeGate? = nil,
        duration: TimeInterval = 0, reads: Reads = Reads()
    ) {
        self.identity = identity
        self.version = version
        self.content = content
        self.gate = gate
        self.duration = duration
        self.reads = reads
    }

    /// A provider of `bytes`.
    convenience init(
        identity: String, version: String = "1", bytes: [UInt8], gate: DecodeGate? = nil,
        duration: TimeInterval = 0, reads: Reads = Reads()
    ) {
        self.init(
            identity: identity, version: version, content: .bytes(Data(bytes)), gate: gate, duration: duration,
            reads: reads)
    }

    /// A provider of `size` bytes of `fill`, the bytes ``TestDirectory/write(_:size:fill:)`` writes:
    /// under ``FakeDecoder`` its image costs `size`, and its first byte names it in the decoder's log.
    convenience init(
        identity: String, version: String = "1", size: Int, fill: UInt8 = 7, gate: DecodeGate? = nil,
        duration: TimeInterval = 0, reads: Reads = Reads()
    ) {
        self.init(
            identity: identity, version: version, bytes: [UInt8](repeating: fill, count: size), gate: gate,
            duration: duration, reads: reads)
    }

    /// How many times `data()` was called (with every provider sharing `reads`).
    var calls: Int { reads.calls }

    /// The thread of each call, in call order (with every provider sharing `reads`).
    var threads: [ObjectIdentifier] { reads.threads }

    /// Whether each call ran on the main thread, in call order (with every provider sharing `reads`).
    var onMainThread: [Bool] { reads.onMainThread }

    func data() throws -> Data {
        reads.begin()
        defer { reads.end() }
        gate?.pass()
        if duration > 0 { Thread.sleep(forTimeInterval: duration) }
        switch content {
        case .bytes(let bytes):
            return bytes
        case .failure(let description):
            throw Failure(description: description)
        }
    }
}
