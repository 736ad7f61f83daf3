import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the decode speed sections time a round: CPU seconds of the decoding thread, since on a
/// shared machine wall time mostly measures the other processes (every decoder measured is
/// single-threaded).
enum DecodeTiming {
    /// Runs `decode` on every file once and returns this thread's CPU seconds.
    ///
    /// - Parameter decode: Returns a count of what it produced, kept from the optimizer.
    static func round(_ files: [Data], _ decode: (Data) -> Int) -> Double {
        var produced = 0
        let start = threadCPUSeconds()
        for file in files {
            produced &+= decode(file)
        }
        let elapsed = threadCPUSeconds() - start
        blackHole(produced)
        return max(elapsed, 1e-9)
    }

    /// Takes `samples` rounds of each decoder, alternating which goes first so that frequency
    /// scaling and cache state affect both alike, after `warmUp` untimed rounds of each.
    ///
    /// - Returns: The rounds' seconds, ours and theirs (empty without a `theirs`).
    static func interleaved(
        samples: Int, warmUp: Int, ours: () -> Double, theirs: (() -> Double)?
    ) -> (ours: [Double], theirs: [Double]) {
        for _ in 0..<warmUp {
            _ = ours()
            _ = theirs?()
        }
        var oursSeconds: [Double] = []
        var theirSeconds: [Double] = []
        for sample in 0..<samples {
            if sample % 2 == 1, let theirs { theirSeconds.append(theirs()) }
            oursSeconds.append(ours())
            if sample % 2 == 0, let theirs { theirSeconds.append(theirs()) }
        }
        return (oursSeconds, theirSeconds)
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
