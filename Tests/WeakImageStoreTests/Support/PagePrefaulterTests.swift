#if os(Linux)
import Glibc
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The prefaulter maps a window of pages ahead of the writer, and no more.
final class PagePrefaulterTests: XCTestCase {
    private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Fresh, unmapped memory of `byteCount` bytes, as a large allocation gets from the kernel.
    private func freshMemory(_ byteCount: Int) throws -> UnsafeMutableRawPointer {
        let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let memory, memory != MAP_FAILED else { throw XCTSkip("mmap failed") }
        return memory
    }

    /// Which pages of the range are mapped.
    private func residentPages(_ start: UnsafeMutableRawPointer, byteCount: Int) -> [Bool] {
        var residency = [UInt8](repeating: 0, count: byteCount / pageSize)
        XCTAssertEqual(mincore(start, byteCount, &residency), 0)
        return residency.map { $0 & 1 == 1 }
    }

    func test_prepare_mapsAWindowAheadOfTheWriter_andNoMore() throws {
        // Given: 8 MiB of fresh memory, on a kernel that can populate pages (Linux 5.14)
        let byteCount = 8 << 20
        let memory = try freshMemory(byteCount)
        defer { munmap(memory, byteCount) }
        guard madvise(memory, pageSize, 23) == 0 else { throw XCTSkip("no MADV_POPULATE_WRITE on this kernel") }
        let buffer = UnsafeMutableBufferPointer(start: memory.assumingMemoryBound(to: UInt8.self), count: byteCount)
        var prefaulter = PagePrefaulter(buffer)
        // When: the writer is about to write its first 100 bytes
        prefaulter.prepare(through: memory + 100)
        // Then: the first window is mapped, nothing after it
        let window = PagePrefaulter.windowByteCount / pageSize
        var resident = residentPages(memory, byteCount: byteCount)
        XCTAssertEqual(resident.prefix(window).filter { $0 }.count, window)
        XCTAssertEqual(resident.dropFirst(window).filter { $0 }.count, 0)
        // When: it moves 1 byte into the third window
        prefaulter.prepare(through: memory + 2 * PagePrefaulter.windowByteCount + 1)
        // Then: three windows are mapped
        resident = residentPages(memory, byteCount: byteCount)
        XCTAssertEqual(resident.prefix(3 * window).filter { $0 }.count, 3 * window)
        XCTAssertEqual(resident.dropFirst(3 * window).filter { $0 }.count, 0)
    }

    func test_smallBuffers_areLeftToFault() throws {
        // Given: fresh memory below the minimum
        let byteCount = PagePrefaulter.minimumByteCount - pageSize
        let memory = try freshMemory(byteCount)
        defer { munmap(memory, byteCount) }
        var prefaulter = PagePrefaulter(
            UnsafeMutableBufferPointer(start: memory.assumingMemoryBound(to: UInt8.self), count: byteCount))
        // When
        prefaulter.prepare(through: memory + byteCount)
        // Then
        XCTAssertEqual(residentPages(memory, byteCount: byteCount).filter { $0 }.count, 0)
    }
}
#endif
