#if canImport(Glibc)
import Glibc
#endif

/// Maps the pages of a large output buffer a window ahead of the decoder that writes it, with one
/// system call per window instead of one page fault per page.
///
/// A decoded bitmap is a fresh allocation, and a large one is fresh memory from the kernel: on
/// Linux every 4 KiB page then costs a page fault when first written, a large share of a big
/// decode. `madvise(MADV_POPULATE_WRITE)` (Linux 5.14) maps a range of pages in one call, for
/// less than faulting them one by one (BENCHMARKS.md has both figures). The window keeps the memory
/// mapped ahead of the writer small (``windowByteCount``), so that a file that claims a huge
/// image and fails early commits no more memory than it would have written.
///
/// Where the call is unavailable (other systems, older kernels) or the window's last page is
/// already mapped (memory reused from the heap), the pages fault as usual.
struct PagePrefaulter {
    /// Buffers smaller than this come from memory the allocator has mapped already.
    static let minimumByteCount = 1 << 20
    /// How far ahead of the writer pages are mapped: half the L2 cache of the machine measured,
    /// so that the lines the kernel zeroes are still cached when the decoder writes them
    /// (BENCHMARKS.md).
    static let windowByteCount = 512 << 10

    #if os(Linux)
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    /// `MADV_POPULATE_WRITE` from `<bits/mman-linux.h>`, which older C libraries lack.
    private static let populateWrite: Int32 = 23

    /// The end of the buffer's last whole page.
    private let end: Int
    /// Pages before this address are mapped (or left to fault).
    private var preparedEnd: Int
    #endif

    /// Prepares to map the pages of `buffer` as it is written from its start.
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        #if os(Linux)
        let start = Int(bitPattern: buffer.baseAddress)
        let mask = Self.pageSize - 1
        if buffer.count >= Self.minimumByteCount {
            preparedEnd = (start + mask) & ~mask
            end = (start + buffer.count) & ~mask
        } else {
            preparedEnd = 0
            end = 0
        }
        #endif
    }

    /// Maps, a window at a time, the pages before `address` that are not mapped yet: call it
    /// with the end of what the writer writes next.
    @inline(__always)
    mutating func prepare(through address: UnsafeRawPointer) {
        #if os(Linux)
        while Int(bitPattern: address) > preparedEnd, preparedEnd < end { prepareNextWindow() }
        #endif
    }

    #if os(Linux)
    private mutating func prepareNextWindow() {
        let start = preparedEnd
        let windowEnd = min(start + Self.windowByteCount, end)
        preparedEnd = windowEnd
        // If the window's last page is mapped, the allocator reused memory: mapping it again
        // would only walk page tables that already exist.
        var residency: UInt8 = 0
        let lastPage = UnsafeMutableRawPointer(bitPattern: windowEnd - Self.pageSize)
        guard mincore(lastPage, Self.pageSize, &residency) == 0, residency & 1 == 0 else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), windowEnd - start, Self.populateWrite)
    }
    #endif
}
