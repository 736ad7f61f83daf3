import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Crash safety, for real: a child process writing from several threads is killed with SIGKILL
/// at a random moment, again and again; every open afterwards finds, for every picture, a miss or
/// exactly the bytes some writer stored, no temporary file left, and the limit kept.
///
/// `DISK_CACHE_KILLS` sets the number of kills (default 50).
final class DiskCacheCrashTests: XCTestCase {
    private let sizeLimit = 150_000

    func test_childKilledAtRandomMoments_leavesOnlyWholeEntries() throws {
        let kills = ProcessInfo.processInfo.environment["DISK_CACHE_KILLS"].flatMap { Int($0) } ?? 50
        let directory = TestDirectory()
        let folder = directory.url.appendingPathComponent("cache")
        var random = SeededGenerator(seed: 2_024)
        var entriesSeen = 0
        for round in 0..<kills {
            // Given: a child writing
            let ready = directory.url.appendingPathComponent("ready-\(round)").path
            let child = try ChildWriterProcess.launch(
                directory: folder, sizeLimit: sizeLimit, seed: UInt64(round + 1), operations: 0, readyFile: ready)
            XCTAssertTrue(waitForFile(ready, process: child), "kill \(round): the child never opened its cache")
            // When: killed a random moment later
            usleep(UInt32(random.int(in: 0...40_000)))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal, "kill \(round): the child ended by itself")
            // Then
            let cache = try makeDiskCache(in: folder, sizeLimit: sizeLimit)
            for picture in 0..<ChildWriterProcess.pictures {
                guard let data = cache.data(for: pictureRequest(picture)) else { continue }
                entriesSeen += 1
                XCTAssertTrue(
                    ChildWriterBodies.isWhole(data, picture: picture), "kill \(round): picture \(picture) is not whole")
            }
            let onDisk = DiskCacheFolder(url: folder)
            XCTAssertEqual(onDisk.temporaryFiles, [], "kill \(round)")
            XCTAssertLessThanOrEqual(cache.totalSize, sizeLimit, "kill \(round)")
            XCTAssertLessThanOrEqual(onDisk.bytesOnDisk, sizeLimit, "kill \(round)")
            cache._checkInvariants()
        }
        print("\(kills) kills: \(entriesSeen) whole entries read back, none partial")
        XCTAssertGreaterThan(entriesSeen, kills, "the children hardly wrote anything")
    }

    private func waitForFile(_ path: String, process: Process) -> Bool {
        for _ in 0..<5_000 {
            if FileManager.default.fileExists(atPath: path) { return true }
            if !process.isRunning { return false }
            usleep(2_000)
        }
        return false
    }
}
