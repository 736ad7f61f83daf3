#if canImport(Glibc)
import Glibc
#endif

/// The process's resident set size: what the OS sees, next to the exact decoded bytes.
///
/// On Linux, glibc keeps freed memory of any size once it has seen large blocks freed (its mmap
/// threshold adapts upwards), so the resident size would only ever grow across runs.
/// ``configureAllocator()`` pins the threshold so large bitmaps go back to the OS when freed, as
/// Darwin's allocator does with large blocks, and ``releaseFreeMemory()`` trims the heap between
/// runs. glibc declares both in `malloc.h`, which the Glibc module does not import, hence `dlsym`.
enum ResidentMemory {
    /// glibc's `M_MMAP_THRESHOLD` parameter and its initial value, 128 KiB.
    private static let mmapThresholdParameter: Int32 = -3
    private static let mmapThreshold: Int32 = 128 * 1024

    /// The resident set size in bytes, or nil where it is not read (Darwin, for now).
    static func current() -> Int? {
        #if canImport(Glibc)
        // /proc/self/statm: "size resident shared text lib data dt", in pages.
        let file = open("/proc/self/statm", O_RDONLY)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
        #else
        return nil
        #endif
    }

    /// Makes freed large blocks go back to the OS at once, so the resident size follows the
    /// live bytes. Call once, before allocating images.
    static func configureAllocator() {
        #if canImport(Glibc)
        typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
        if let mallopt = glibcFunction("mallopt", as: MallocOption.self) {
            _ = mallopt(mmapThresholdParameter, mmapThreshold)
        }
        #endif
    }

    /// Returns freed heap memory to the OS, so one run's resident size does not carry over into
    /// the next one's.
    static func releaseFreeMemory() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let mallocTrim = glibcFunction("malloc_trim", as: MallocTrim.self) {
            _ = mallocTrim(0)
        }
        #endif
    }

    #if canImport(Glibc)
    private static func glibcFunction<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
    #endif
}
