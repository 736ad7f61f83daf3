import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A cache folder another user prepared, or with links planted in it: the cache refuses a folder
/// it cannot trust, never follows a link inside one, and never deletes, writes or returns a file
/// outside it.
final class DiskCacheHostileFolderTests: XCTestCase {
    /// A folder of someone else's files, and a way to check they are all still there, unchanged.
    private struct Victim {
        let url: URL
        let files = ["notes.txt", "123-abc.body", "ab/0123.bin", "journal"]

        init(in directory: TestDirectory, named name: String = "victim") {
            url = directory.url.appendingPathComponent(name)
            for file in files {
                let path = url.appendingPathComponent(file)
                try? FileManager.default.createDirectory(
                    at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: path.path, contents: Data("precious \(file)".utf8))
            }
        }

        func assertIntact(file: StaticString = #filePath, line: UInt = #line) {
            for name in files {
                let contents = FileManager.default.contents(atPath: url.appendingPathComponent(name).path)
                XCTAssertEqual(contents, Data("precious \(name)".utf8), name, file: file, line: line)
            }
        }
    }

    private func mode(_ path: String) -> Int {
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0, path)
        return Int(info.st_mode) & 0o7777
    }

    private func assertRefused(
        _ folder: URL, reason: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try makeDiskCache(in: folder), file: file, line: line) { error in
            XCTAssertEqual(
                error as? ImageStoreError, .diskCacheUnavailable(folder, reason: reason), file: file, line: line)
        }
    }

    // MARK: - Folders the cache refuses

    func test_folderOwnedByAnotherUser_isRefused() throws {
        try XCTSkipIf(geteuid() != 0, "only root can give a folder to another user")
        let directory = TestDirectory()
        let folder = directory.url.appendingPathComponent("cache")
        XCTAssertEqual(mkdir(folder.path, 0o700), 0)
        XCTAssertEqual(chown(folder.path, 65_534, 65_534), 0)
        assertRefused(folder, reason: "the folder belongs to user 65534, not to this process's user 0")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func test_folderWritableByGroupOrOthers_isRefused() throws {
        let directory = TestDirectory()
        for mode in [0o777, 0o770, 0o720, 0o702] {
            let folder = directory.url.appendingPathComponent("cache-\(String(mode, radix: 8))")
            XCTAssertEqual(mkdir(folder.path, 0o700), 0)
            XCTAssertEqual(chmod(folder.path, mode_t(mode)), 0)
            assertRefused(
                folder, reason: "the folder is writable by its group or others (mode 0\(String(mode, radix: 8)))")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
        }
    }

    func test_folderThatIsASymbolicLink_isRefused_andItsTargetUntouched() throws {
        let directory = TestDirectory()
        let victim = Victim(in: directory)
        let folder = directory.url.appendingPathComponent("cache")
        try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: victim.url)
        assertRefused(folder, reason: "the folder is a symbolic link")
        victim.assertIntact()
        XCTAssertFalse(FileManager.default.fileExists(atPath: victim.url.appendingPathComponent("bodies").path))
    }

    func test_ownPrivateFolder_isAccepted_andWhatTheCacheCreatesIsPrivate() throws {
        // Given: a folder the cache creates, and one the user made 0755 beforehand
        let directory = TestDirectory()
        let created = directory.url.appendingPathComponent("parent/cache")
        let cache = try makeDiskCache(in: created)
        cache.storeData(Data([1, 2, 3]), for: pictureRequest(1))
        let existing = directory.url.appendingPathComponent("existing")
        XCTAssertEqual(mkdir(existing.path, 0o755), 0)
        XCTAssertNoThrow(try makeDiskCache(in: existing))
        // Then: folders 0700, files 0600
        let body = DiskCacheFolder(url: created).bodyPath(pictureIdentity(1))
        for folder in [
            created.path, created.path + "/tmp", created.path + "/bodies", (body as NSString).deletingLastPathComponent,
        ] {
            XCTAssertEqual(mode(folder), 0o700, folder)
        }
        XCTAssertEqual(mode(directory.url.appendingPathComponent("parent").path), 0o700)
        for file in [created.path + "/journal", created.path + "/lock", body] {
            XCTAssertEqual(mode(file), 0o600, file)
        }
    }

    // MARK: - Links and foreign entries inside

    func test_attackerPreparedFolder_leavesTheVictimsFilesIntact_onOpenAndRemoveAll() throws {
        // Given: tmp and bodies link to the victim's folders, lock to a victim's file, and the
        // journal is garbage (so that opening lists the bodies to delete unlisted ones)
        let directory = TestDirectory()
        let victim = Victim(in: directory)
        let otherVictim = Victim(in: directory, named: "other")
        let folder = directory.url.appendingPathComponent("cache")
        XCTAssertEqual(mkdir(folder.path, 0o700), 0)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("tmp"), withDestinationURL: victim.url)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("bodies"), withDestinationURL: otherVictim.url)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("lock"),
            withDestinationURL: victim.url.appendingPathComponent("notes.txt"))
        try Data("garbage, not a journal".utf8).write(to: folder.appendingPathComponent("journal"))
        // When
        let cache = try makeDiskCache(in: folder)
        // Then: the links were replaced by the cache's own folders and files, not followed
        victim.assertIntact()
        otherVictim.assertIntact()
        XCTAssertEqual(cache.statistics.errors, 1)
        for name in ["tmp", "bodies"] {
            var isFolder: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path + "/" + name, isDirectory: &isFolder))
            XCTAssertTrue(isFolder.boolValue, name)
            XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: folder.path + "/" + name))
        }
        cache.storeData(Data([1, 2, 3]), for: pictureRequest(1))
        XCTAssertEqual(cache.data(for: pictureRequest(1)), Data([1, 2, 3]))
        // When
        cache.removeAll()
        // Then
        victim.assertIntact()
        otherVictim.assertIntact()
        XCTAssertEqual(cache.count, 0)
    }

    func test_linksPlantedInsideTheBodiesFolder_areDeleted_neverFollowed() throws {
        // Given: a cache with one entry; then a body folder and a body replaced by links to the
        // victim, and the journal's tail damaged so that the next open lists the bodies
        let directory = TestDirectory()
        let victim = Victim(in: directory)
        let folder = directory.url.appendingPathComponent("cache")
        let body = seededBytes(100, seed: 1)
        try makeDiskCache(in: folder).storeData(body, for: pictureRequest(1))
        let bodyPath = DiskCacheFolder(url: folder).bodyPath(pictureIdentity(1))
        XCTAssertEqual(unlink(bodyPath), 0)
        try body.write(to: victim.url.appendingPathComponent("copy"))
        XCTAssertEqual(symlink(victim.url.appendingPathComponent("copy").path, bodyPath), 0)
        XCTAssertEqual(symlink(victim.url.path, folder.path + "/bodies/zz"), 0)
        // When: read through the link
        let cache = try makeDiskCache(in: folder)
        // Then: a link is damage, not a body: the entry goes, the victim's copy stays
        XCTAssertThrowsError(try cache.read(pictureIdentity(1)))
        XCTAssertNil(cache.entry(for: pictureIdentity(1)))
        XCTAssertEqual(try Data(contentsOf: victim.url.appendingPathComponent("copy")), body)
        // When: opened after damage (the listing), and emptied
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: folder.path + "/journal"))
        handle.seekToEndOfFile()
        handle.write(Data([0xFF, 0x00, 0x13]))
        handle.closeFile()
        try makeDiskCache(in: folder).removeAll()
        // Then
        victim.assertIntact()
        XCTAssertEqual(try Data(contentsOf: victim.url.appendingPathComponent("copy")), body)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/bodies"), [])
    }

    func test_bodyFolderThatIsALink_isNeverReadThrough() throws {
        // Given: the entry's body folder replaced by a link to a copy of it elsewhere
        let directory = TestDirectory()
        let folder = directory.url.appendingPathComponent("cache")
        let body = seededBytes(100, seed: 2)
        try makeDiskCache(in: folder).storeData(body, for: pictureRequest(2))
        let bodyFolder = (DiskCacheFolder(url: folder).bodyPath(pictureIdentity(2)) as NSString)
            .deletingLastPathComponent
        let elsewhere = directory.url.appendingPathComponent("elsewhere").path
        XCTAssertEqual(rename(bodyFolder, elsewhere), 0)
        XCTAssertEqual(symlink(elsewhere, bodyFolder), 0)
        // When
        let cache = try makeDiskCache(in: folder)
        // Then: a miss; the copy elsewhere stays, the link is gone
        XCTAssertThrowsError(try cache.read(pictureIdentity(2)))
        XCTAssertNil(cache.data(for: pictureRequest(2)))
        XCTAssertEqual((try FileManager.default.contentsOfDirectory(atPath: elsewhere)).count, 1)
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: bodyFolder))
        // And writes make the folder again, the cache's own
        cache.storeData(body, for: pictureRequest(2))
        XCTAssertEqual(cache.data(for: pictureRequest(2)), body)
        XCTAssertEqual(mode(bodyFolder), 0o700)
    }

    func test_foreignOwnedEntriesInside_areReplaced() throws {
        try XCTSkipIf(geteuid() != 0, "only root can give files to another user")
        // Given: tmp, journal and lock that belong to another user
        let directory = TestDirectory()
        let folder = directory.url.appendingPathComponent("cache")
        XCTAssertEqual(mkdir(folder.path, 0o700), 0)
        XCTAssertEqual(mkdir(folder.path + "/tmp", 0o777), 0)
        for file in ["journal", "lock"] {
            _ = FileManager.default.createFile(
                atPath: folder.path + "/" + file, contents: Data(DiskCacheJournalFormat.header))
        }
        for entry in ["tmp", "journal", "lock"] {
            XCTAssertEqual(chown(folder.path + "/" + entry, 65_534, 65_534), 0)
        }
        // When
        let cache = try makeDiskCache(in: folder)
        cache.storeData(Data([4]), for: pictureRequest(4))
        // Then: every entry is the cache's own now
        for entry in ["tmp", "journal", "lock"] {
            var info = stat()
            XCTAssertEqual(lstat(folder.path + "/" + entry, &info), 0)
            XCTAssertEqual(info.st_uid, 0, entry)
        }
        XCTAssertEqual(try makeDiskCache(in: folder).data(for: pictureRequest(4)), Data([4]))
    }
}
