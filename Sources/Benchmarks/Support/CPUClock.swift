#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds of CPU time used, for timing work on a shared machine: unlike the wall clock,
/// it leaves out the time other threads and processes held the cores.
enum CPUClock {
    /// The calling thread's CPU time.
    static func thread() -> UInt64 {
        read(CLOCK_THREAD_CPUTIME_ID)
    }

    /// The CPU time of every thread of the process.
    static func process() -> UInt64 {
        read(CLOCK_PROCESS_CPUTIME_ID)
    }

    private static func read(_ clock: clockid_t) -> UInt64 {
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return 0 }
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
