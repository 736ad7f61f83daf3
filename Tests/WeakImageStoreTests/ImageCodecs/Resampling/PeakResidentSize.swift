#if canImport(Glibc)
import Glibc
#endif

/// The process's peak resident size around a piece of work (Linux `VmHWM`, reset through
/// `/proc/self/clear_refs`): what the memory tests of the decoders measure.
enum PeakResidentSize {
    #if os(Linux)
    /// How far the peak resident size rises above the current one while `body` runs, or `nil`
    /// where the peak cannot be reset.
    static func rise(_ body: () throws -> Void) throws -> Int? {
        // Give freed memory back first, so reused resident pages cannot hide an allocation
        // (glibc declares malloc_trim in malloc.h, which Glibc does not import).
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") {
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
        let reset = open("/proc/self/clear_refs", O_WRONLY)
        guard reset >= 0 else { return nil }
        let written = write(reset, "5", 1)
        close(reset)
        guard written == 1, let before = status("VmRSS") else { return nil }
        try body()
        return status("VmHWM").map { $0 - before }
    }

    /// A `/proc/self/status` field in bytes.
    private static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return line.flatMap { Int($0.dropFirst(field.count + 1).filter(\.isNumber)) }.map { $0 * 1024 }
    }
    #endif
}
