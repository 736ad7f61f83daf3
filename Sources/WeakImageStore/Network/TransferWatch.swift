/// The pace one task must keep: done within its deadline, and, once its response arrived, at
/// least ``Limits/minimumBytesPerWindow`` body bytes in every ``Limits/window`` seconds.
///
/// Without it a server that sends a byte every 30 seconds holds a download slot for days: the
/// request timeout restarts with every byte, and the session's resource timeout is a week. A
/// value the session's delegate keeps per task and checks on its own queue, with the clock
/// passed in.
///
/// | seconds since the request | bytes in the last `window` seconds | verdict |
/// |---|---|---|
/// | over `timeout` | any | too slow: the deadline passed |
/// | under `window` since the response | any | on time: too early to judge the rate |
/// | any | under `minimumBytesPerWindow` | too slow: trickling |
struct TransferWatch: Sendable {
    /// The downloader's limits, the same for every task.
    struct Limits: Sendable, Equatable {
        /// Seconds from the request to the last byte; `.infinity` for none.
        let timeout: Double
        /// The fewest body bytes a task must receive in any `window` seconds after its response;
        /// 0 for no minimum.
        let minimumBytesPerWindow: Int
        /// Seconds over which the rate is measured.
        let window: Double

        /// Seconds between two checks: a quarter of the shorter limit, so a transfer is cut at
        /// most a quarter late, and at least every 5 s.
        var checkInterval: Double {
            min(5, max(0.005, min(timeout, window) / 4))
        }
    }

    let limits: Limits
    /// When the task was resumed, in nanoseconds of uptime.
    private let startTime: UInt64
    /// Body bytes so far.
    private var received = 0
    /// (time, bytes received) at the response and at each check since, oldest first: the oldest
    /// is the newest one at least a window old, the start of the window measured.
    private var samples: [(time: UInt64, received: Int)] = []
    /// When the last final response's headers arrived.
    private var responseTime: UInt64?

    init(limits: Limits, startTime: UInt64) {
        self.limits = limits
        self.startTime = startTime
    }

    /// The response's headers arrived: the rate is measured from now on. A second final response
    /// (after a `100 Continue`) starts the window again.
    mutating func responseArrived(at time: UInt64) {
        samples = [(time, received)]
        responseTime = time
    }

    /// For a transfer that ends at `time`: seconds from the request to the response, seconds
    /// from the response to `time`, and the body bytes; nil if no response came.
    func timing(endingAt time: UInt64) -> (latency: Double, bodySeconds: Double, bytes: Int)? {
        guard let responseTime else { return nil }
        return (Self.seconds(from: startTime, to: responseTime), Self.seconds(from: responseTime, to: time), received)
    }

    /// Seconds from the request to `time`.
    func secondsSinceStart(at time: UInt64) -> Double {
        Self.seconds(from: startTime, to: time)
    }

    /// Counts body bytes.
    mutating func bodyBytesArrived(_ count: Int) {
        received += count
    }

    /// Checks the pace at `time`.
    ///
    /// - Returns: Why the task is too slow (for ``ImageStoreError/downloadFailed(_:reason:)``),
    ///   or nil while it keeps up.
    mutating func check(at time: UInt64) -> String? {
        if Self.seconds(from: startTime, to: time) > limits.timeout {
            return "the transfer took longer than the limit of \(limits.timeout) s"
        }
        guard limits.minimumBytesPerWindow > 0, !samples.isEmpty else { return nil }
        samples.append((time, received))
        while samples.count > 1, Self.seconds(from: samples[1].time, to: time) >= limits.window {
            samples.removeFirst()
        }
        let windowStart = samples[0]
        guard Self.seconds(from: windowStart.time, to: time) >= limits.window else { return nil }
        let bytes = received - windowStart.received
        guard bytes < limits.minimumBytesPerWindow else { return nil }
        return "the server sent \(bytes) bytes in \(limits.window) s, fewer than the minimum of "
            + "\(limits.minimumBytesPerWindow)"
    }

    private static func seconds(from start: UInt64, to end: UInt64) -> Double {
        end > start ? Double(end - start) / 1e9 : 0
    }
}
