import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the benchmark's lines go besides its tables.
///
/// Tables and goal lines are standard output. Progress lines are for a person watching a
/// terminal: on standard error, and only when it is one, so that `> log 2>&1` keeps them out of
/// the tables (stdout is buffered when redirected, stderr is not, so the two would interleave).
/// Notes about the measurement (an input left out, a library not measured) belong to the results
/// and go to standard output in order with them.
enum Console {
    private static let showsProgress = isatty(STDERR_FILENO) != 0

    /// Shows what is running now, on a terminal only.
    static func progress(_ line: String) {
        guard showsProgress else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A note about the measurement, printed with the results.
    static func note(_ message: String) {
        print("note: \(message)")
    }
}
