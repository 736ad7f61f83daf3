import Dispatch

/// Seconds from a clock that never jumps, for deadlines and pacing (`ContinuousClock` needs
/// macOS 13 / iOS 16).
enum MonotonicTime {
    static var now: Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
