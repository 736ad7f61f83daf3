import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A power loss can keep a body's rename and lose its journal record, leaving a body the index
/// never names. The first open after the machine restarted finds and deletes such orphans; opens
/// during the same boot never list the folder.
final class DiskCacheUncleanShutdownTests: XCTestCase {
    private func openCache(_ directory: TestDirectory, boot: String?) throws -> DiskImageCache {
        try DiskImageCache(directory: directory.url, sizeLimit: 1 << 20, fileSystem: .posix, boot: boot)
    }

    /// Writes a body file for picture `number` without a journal record, as a power loss after
    /// the rename and before the record reached the disk would leave it.
    private func plantOrphan(_ number: Int, in directory: TestDirectory) throws -> String {
        let path = DiskCacheFolder(url: directory.url).bodyPath(pictureIdentity(number))
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try seededBytes(500, seed: UInt64(number)).write(to: URL(fileURLWithPath: path))
        return path
    }

    func test_orphanLeftByAPowerLoss_isDeletedByTheFirstOpenOfTheNextBoot_listedBodiesStay() throws {
        // Given: entries written during boot A, then an orphan
        let directory = TestDirectory()
        let writer = try openCache(directory, boot: "boot-A")
        for number in 0..<3 { writer.storeData(seededBytes(100, seed: UInt64(number)), for: pictureRequest(number)) }
        let orphan = try plantOrphan(9, in: directory)
        // When: opened again during boot A (the writer's process may still run)
        _ = try openCache(directory, boot: "boot-A")
        // Then: not listed, so the orphan stays
        XCTAssertTrue(FileManager.default.fileExists(atPath: orphan))
        // When: the machine restarted
        let reopened = try openCache(directory, boot: "boot-B")
        // Then
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan))
        XCTAssertEqual(DiskCacheFolder(url: directory.url).bodyFiles.count, 3)
        for number in 0..<3 {
            XCTAssertEqual(reopened.data(for: pictureRequest(number)), seededBytes(100, seed: UInt64(number)))
        }
        XCTAssertEqual(reopened.statistics.errors, 0)
        XCTAssertEqual(reopened.totalSize, DiskCacheFolder(url: directory.url).bytesOnDisk)
    }

    func test_opensAfterTheFirstOfABoot_neverListTheFolder() throws {
        // Given: boot B has opened the folder once
        let directory = TestDirectory()
        try openCache(directory, boot: "boot-A").storeData(Data([1]), for: pictureRequest(1))
        _ = try openCache(directory, boot: "boot-B")
        let orphan = try plantOrphan(9, in: directory)
        // When: opened again and again during boot B
        for _ in 0..<3 { _ = try openCache(directory, boot: "boot-B") }
        // Then
        XCTAssertTrue(FileManager.default.fileExists(atPath: orphan))
    }

    func test_markerReplacedByALink_isReplaced_notFollowed() throws {
        let directory = TestDirectory()
        try openCache(directory, boot: "boot-A").storeData(Data([1]), for: pictureRequest(1))
        let victim = directory.url.appendingPathComponent("victim").path
        XCTAssertTrue(FileManager.default.createFile(atPath: victim, contents: Data("precious".utf8)))
        let marker = directory.url.appendingPathComponent("boot").path
        XCTAssertEqual(unlink(marker), 0)
        XCTAssertEqual(symlink(victim, marker), 0)
        _ = try openCache(directory, boot: "boot-B")
        XCTAssertEqual(FileManager.default.contents(atPath: victim), Data("precious".utf8))
        XCTAssertEqual(FileManager.default.contents(atPath: marker), Data("boot-B".utf8))
    }
}
