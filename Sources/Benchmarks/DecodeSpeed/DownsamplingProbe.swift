import Foundation
import ImageStoreTestSupport
import WeakImageStore

#if canImport(Glibc)
import Glibc
#endif

/// The child process side of the downsampling memory measurement: the benchmark runs itself as
/// `Benchmarks --downsampling-probe METHOD FILE MAXPIXELSIZE`, and the child decodes the file
/// once and prints how far its resident set size's high-water mark rose above where it stood
/// with the file's bytes already read (Linux: `VmHWM` reset through `/proc/self/clear_refs`).
///
/// A fresh process per measurement keeps the figure free of what other measurements left in the
/// allocator; the code is paged in by a warm-up decode of a small image first.
enum DownsamplingProbe {
    /// The hidden flag that selects the probe.
    static let flag = "--downsampling-probe"

    /// What the child decodes.
    enum Method: String, CaseIterable {
        /// `PNGDecoder.decode(_:scale:)`.
        case fullDecode = "full"
        /// `PNGDecoder.decode(_:scale:)`, then `Bitmap.downsampled(maxPixelSize:)`.
        case fullDecodeThenResize = "full+resize"
        /// `PNGDecoder.decode(_:scale:maxPixelSize:)`.
        case streamingThumbnail = "streaming"

        /// The row label in the table.
        var label: String {
            switch self {
            case .fullDecode: "full decode"
            case .fullDecodeThenResize: "full decode, then resize"
            case .streamingThumbnail: "streaming thumbnail"
            }
        }

        /// Decodes `file` this way and returns the pixel bytes of the final bitmap.
        func run(_ file: Data, maxPixelSize: Int) throws -> Int {
            switch self {
            case .fullDecode:
                return try PNGDecoder().decode(file, scale: 1).cost
            case .fullDecodeThenResize:
                return try PNGDecoder().decode(file, scale: 1).downsampled(maxPixelSize: maxPixelSize).cost
            case .streamingThumbnail:
                return try PNGDecoder().decode(file, scale: 1, maxPixelSize: maxPixelSize).cost
            }
        }
    }

    /// Runs the probe if the arguments ask for it.
    ///
    /// - Parameter arguments: The process's arguments, program name first.
    /// - Returns: The exit status, or `nil` if these are not probe arguments.
    static func runIfRequested(_ arguments: [String]) -> Int32? {
        guard arguments.count == 5, arguments[1] == flag else { return nil }
        guard let method = Method(rawValue: arguments[2]), let maxPixelSize = Int(arguments[4]),
            let file = try? Data(contentsOf: URL(fileURLWithPath: arguments[3]))
        else { return 2 }
        ResidentMemory.configureAllocator()
        // Page in the decoder's and the averager's code on a small image.
        let warmUp = PNGEncoder.encode(SyntheticImages.photo(width: 64, height: 48, seed: 1))
        _ = try? method.run(warmUp, maxPixelSize: 16)
        // Page in the measuring code too, then start from a trimmed heap.
        _ = status("VmRSS")
        _ = status("VmHWM")
        ResidentMemory.releaseFreeMemory()
        guard resetPeak(), let before = status("VmRSS") else { return 3 }
        guard let produced = try? method.run(file, maxPixelSize: maxPixelSize) else { return 4 }
        guard let peak = status("VmHWM") else { return 3 }
        print("\(max(0, peak - before)) \(produced)")
        return 0
    }

    /// Measures `method` on `file` in a child process.
    ///
    /// - Returns: The rise of the child's peak resident size during the decode, in bytes, or
    ///   `nil` where it cannot be measured (not Linux, or the child failed).
    static func measure(_ method: Method, file: URL, maxPixelSize: Int) -> Int? {
        #if os(Linux)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [flag, method.rawValue, file.path, String(maxPixelSize)]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            return nil
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return text.split(separator: " ").first.flatMap { Int($0) }
        #else
        return nil
        #endif
    }

    /// Resets the peak resident size to the current one.
    static func resetPeak() -> Bool {
        #if os(Linux)
        // Writing "5" resets VmHWM (Linux 4.0+).
        let file = open("/proc/self/clear_refs", O_WRONLY)
        guard file >= 0 else { return false }
        defer { close(file) }
        return write(file, "5", 1) == 1
        #else
        return false
        #endif
    }

    /// A `/proc/self/status` field given in kB, in bytes, read with plain system calls into a
    /// fixed buffer: reading must not itself allocate or page in code between the reset and
    /// the measurement.
    static func status(_ field: String) -> Int? {
        #if os(Linux)
        let file = open("/proc/self/status", O_RDONLY)
        guard file >= 0 else { return nil }
        defer { close(file) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8192) { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var count = 0
            while count < buffer.count {
                let read = read(file, base + count, buffer.count - count)
                guard read > 0 else { break }
                count += read
            }
            let key = Array((field + ":").utf8)
            var lineStart = 0
            while lineStart < count {
                var lineEnd = lineStart
                while lineEnd < count, buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                if lineEnd - lineStart > key.count, (0..<key.count).allSatisfy({ buffer[lineStart + $0] == key[$0] }) {
                    var value = 0
                    for index in (lineStart + key.count)..<lineEnd where (48...57).contains(buffer[index]) {
                        value = value * 10 + Int(buffer[index] - 48)
                    }
                    return value * 1024
                }
                lineStart = lineEnd + 1
            }
            return nil
        }
        #else
        return nil
        #endif
    }
}
