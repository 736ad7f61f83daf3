import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The bodies the child writer processes store, and how the parent verifies them: each body
/// starts with its picture number, generation and length, and the rest follows from them, so a
/// body read back is either exactly what some writer stored for that picture, or detectably not.
enum ChildWriterBodies {
    static func body(picture: Int, generation: UInt64) -> Data {
        var random = SeededGenerator(seed: generation)
        let length = random.int(in: 0...6_000)
        var header = Data()
        for value in [UInt64(picture), generation, UInt64(length)] {
            withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) }
        }
        return header + seededBytes(length, seed: generation &* 31 &+ UInt64(picture))
    }

    /// Whether `data` is exactly a body some writer made for `picture`.
    static func isWhole(_ data: Data, picture: Int) -> Bool {
        guard data.count >= 24 else { return false }
        let generation = data.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
        return data == body(picture: picture, generation: generation)
    }
}

/// Runs a child writer: the test binary itself, re-run with only ``DiskCacheChildWriterTests``
/// selected and the variables that make it write.
enum ChildWriterProcess {
    /// The variables the child reads.
    enum Variable {
        static let directory = "DISK_CACHE_CHILD_DIRECTORY"
        static let sizeLimit = "DISK_CACHE_CHILD_SIZE_LIMIT"
        static let seed = "DISK_CACHE_CHILD_SEED"
        /// Operations per thread; 0 writes until killed.
        static let operations = "DISK_CACHE_CHILD_OPERATIONS"
        /// A file the child creates once its cache is open.
        static let readyFile = "DISK_CACHE_CHILD_READY"
    }

    static let pictures = 60
    static let threads = 4

    static func launch(directory: URL, sizeLimit: Int, seed: UInt64, operations: Int, readyFile: String?) throws
        -> Process
    {
        #if os(Linux)
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
        let executable = URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
        let process = Process()
        process.executableURL = executable
        process.arguments = ["WeakImageStoreTests.DiskCacheChildWriterTests/test_childWriter"]
        var environment = ProcessInfo.processInfo.environment
        environment[Variable.directory] = directory.path
        environment[Variable.sizeLimit] = String(sizeLimit)
        environment[Variable.seed] = String(seed)
        environment[Variable.operations] = String(operations)
        environment[Variable.readyFile] = readyFile
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}

/// The child side: skipped in a normal run; in a child process, writes, reads and removes
/// pictures from several threads until it has done its operations or is killed.
final class DiskCacheChildWriterTests: XCTestCase {
    func test_childWriter() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment[ChildWriterProcess.Variable.directory] else {
            throw XCTSkip("runs only as a child process of the disk cache's crash and sharing tests")
        }
        let sizeLimit = environment[ChildWriterProcess.Variable.sizeLimit].flatMap { Int($0) } ?? 1_000_000
        let seed = environment[ChildWriterProcess.Variable.seed].flatMap { UInt64($0) } ?? 1
        let operations = environment[ChildWriterProcess.Variable.operations].flatMap { Int($0) } ?? 0
        let cache = try makeDiskCache(in: URL(fileURLWithPath: path), sizeLimit: sizeLimit)
        if let ready = environment[ChildWriterProcess.Variable.readyFile] {
            _ = FileManager.default.createFile(atPath: ready, contents: nil)
        }
        let broken = Lock(0)
        DispatchQueue.concurrentPerform(iterations: ChildWriterProcess.threads) { thread in
            var random = SeededGenerator(seed: seed &* 1_000 &+ UInt64(thread))
            var operation = 0
            while operations == 0 || operation < operations {
                operation += 1
                let picture = random.int(in: 0...(ChildWriterProcess.pictures - 1))
                switch random.int(in: 0...9) {
                case 0..<6:
                    cache.storeData(
                        ChildWriterBodies.body(picture: picture, generation: random.next()),
                        for: pictureRequest(picture))
                case 6..<9:
                    if let data = cache.data(for: pictureRequest(picture)),
                        !ChildWriterBodies.isWhole(data, picture: picture)
                    {
                        broken.withLock { $0 += 1 }
                    }
                default:
                    cache.removeData(for: pictureRequest(picture))
                }
            }
        }
        XCTAssertEqual(broken.withLock { $0 }, 0, "reads returned bytes no writer stored")
        XCTAssertLessThanOrEqual(cache.totalSize, sizeLimit)
    }
}
