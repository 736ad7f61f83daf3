import Dispatch

/// Nanoseconds from a clock that never jumps, for timing.
enum MonotonicClock {
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}
