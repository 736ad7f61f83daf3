import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The disk cache's public and engine API: what goes in comes out byte for byte, under the
/// right identity, and the counters and sizes say so.
final class DiskImageCacheTests: XCTestCase {
    func test_storedBytes_comeBackExactly_andSurviveReopening() throws {
        // Given
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        let bodies = (0..<5).map { seededBytes(1_000 + 997 * $0, seed: UInt64($0)) }
        // When
        for (number, body) in bodies.enumerated() { cache.storeData(body, for: pictureRequest(number)) }
        // Then
        for (number, body) in bodies.enumerated() {
            XCTAssertTrue(cache.containsData(for: pictureRequest(number)))
            XCTAssertEqual(cache.data(for: pictureRequest(number)), body)
        }
        XCTAssertNil(cache.data(for: pictureRequest(99)))
        XCTAssertFalse(cache.containsData(for: pictureRequest(99)))
        let reopened = try makeDiskCache(in: directory.url)
        XCTAssertEqual(reopened.count, 5)
        for (number, body) in bodies.enumerated() { XCTAssertEqual(reopened.data(for: pictureRequest(number)), body) }
        XCTAssertEqual(reopened.statistics.errors, 0)
        reopened._checkInvariants()
    }

    func test_emptyBody_isStoredAndReturned() throws {
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        cache.storeData(Data(), for: pictureRequest(1))
        XCTAssertEqual(cache.data(for: pictureRequest(1)), Data())
    }

    func test_requestsThatAreNotNetworkURLs_areNeverStored() throws {
        // Given
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        let file = directory.write("local.png", size: 10)
        let requests: [ImageRequest] = [
            .named("icon"), .file(file), .url(URL(fileURLWithPath: file)), .url(URL(string: "ftp://host/a.png")!),
            .provider(TestDataProvider(identity: "blob", version: "1", bytes: [1, 2, 3])),
        ]
        // When
        for request in requests { cache.storeData(Data([1, 2, 3]), for: request) }
        // Then
        for request in requests {
            XCTAssertFalse(cache.containsData(for: request), "\(request)")
            XCTAssertNil(cache.data(for: request), "\(request)")
        }
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.statistics.writes, 0)
    }

    func test_urlAndCacheKey_nameDifferentEntries_andEqualCacheKeysShareOne() throws {
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        let url = URL(string: "https://pictures.example/a.png?token=1")!
        cache.storeData(Data([1]), for: .url(url))
        cache.storeData(Data([2]), for: .url(url, cacheKey: "a"))
        XCTAssertEqual(cache.data(for: .url(URL(string: "HTTPS://PICTURES.example:443/a.png?token=1")!)), Data([1]))
        XCTAssertEqual(cache.data(for: .url(URL(string: "https://other.example/b")!, cacheKey: "a")), Data([2]))
        XCTAssertEqual(cache.count, 2)
    }

    func test_replacingAnEntry_keepsOneEntryWithTheNewBytes() throws {
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        cache.storeData(seededBytes(5_000, seed: 1), for: pictureRequest(1))
        cache.storeData(seededBytes(300, seed: 2), for: pictureRequest(1))
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.data(for: pictureRequest(1)), seededBytes(300, seed: 2))
        XCTAssertEqual(DiskCacheFolder(url: directory.url).bodyFiles.values.sorted(), [300])
        cache._checkInvariants()
    }

    func test_totalSize_isTheBodiesPlusTheJournal_asMeasuredOnDisk() throws {
        // Given
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        let folder = DiskCacheFolder(url: directory.url)
        XCTAssertEqual(cache.totalSize, folder.bytesOnDisk)
        XCTAssertEqual(cache.totalSize, DiskCacheJournalFormat.headerSize)
        // When
        for number in 0..<10 {
            cache.storeData(seededBytes(100 * number, seed: UInt64(number)), for: pictureRequest(number))
        }
        _ = cache.data(for: pictureRequest(3))
        cache.removeData(for: pictureRequest(4))
        // Then
        XCTAssertEqual(cache.count, 9)
        XCTAssertEqual(cache.totalSize, folder.bytesOnDisk)
        XCTAssertEqual(folder.bodyFiles.values.reduce(0, +), (0..<10).map { 100 * $0 }.reduce(0, +) - 400)
    }

    func test_removeData_removesTheEntryAndItsFile_forThisAndLaterOpens() throws {
        // Given
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        cache.storeData(Data([1, 2]), for: pictureRequest(1))
        cache.storeData(Data([3, 4]), for: pictureRequest(2))
        // When
        cache.removeData(for: pictureRequest(1))
        cache.removeData(for: pictureRequest(7))
        // Then
        XCTAssertFalse(cache.containsData(for: pictureRequest(1)))
        XCTAssertNil(cache.data(for: pictureRequest(1)))
        XCTAssertEqual(cache.count, 1)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: DiskCacheFolder(url: directory.url).bodyPath(pictureIdentity(1))))
        let reopened = try makeDiskCache(in: directory.url)
        XCTAssertNil(reopened.data(for: pictureRequest(1)))
        XCTAssertEqual(reopened.data(for: pictureRequest(2)), Data([3, 4]))
    }

    func test_removeAll_emptiesTheCacheAndTheFolder() throws {
        // Given
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        for number in 0..<20 { cache.storeData(seededBytes(500, seed: UInt64(number)), for: pictureRequest(number)) }
        // When
        cache.removeAll()
        // Then
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.totalSize, DiskCacheJournalFormat.headerSize)
        let folder = DiskCacheFolder(url: directory.url)
        XCTAssertEqual(folder.bodyFiles.count, 0)
        XCTAssertEqual(folder.journalSize, DiskCacheJournalFormat.headerSize)
        XCTAssertNil(cache.data(for: pictureRequest(3)))
        cache.storeData(Data([9]), for: pictureRequest(3))
        XCTAssertEqual(try makeDiskCache(in: directory.url).data(for: pictureRequest(3)), Data([9]))
        cache._checkInvariants()
    }

    func test_entryInfo_andValidity_roundTripThroughTheJournal() throws {
        // Given
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        let stored = ResponseValidity(
            freshUntil: 1_700_000_000.25, revalidatesEveryUse: true,
            entityTag: "W/\"a long entity tag, longer than 15\"",
            lastModified: "Wed, 21 Oct 2015 07:28:00 GMT")
        let empty = ResponseValidity(freshUntil: 0, revalidatesEveryUse: false, entityTag: "", lastModified: nil)
        // When
        XCTAssertTrue(try cache.write(Data([1, 2, 3]), validity: stored, for: pictureIdentity(1)))
        XCTAssertTrue(try cache.write(Data([4]), validity: empty, for: pictureIdentity(2)))
        // Then
        for opened in [cache, try makeDiskCache(in: directory.url)] {
            XCTAssertEqual(opened.entry(for: pictureIdentity(1))?.validity, stored)
            XCTAssertEqual(opened.entry(for: pictureIdentity(1))?.size, 3)
            XCTAssertEqual(opened.entry(for: pictureIdentity(2))?.validity, empty)
            XCTAssertNil(opened.entry(for: pictureIdentity(3)))
            let read = try opened.read(pictureIdentity(1))
            XCTAssertEqual(read?.data, Data([1, 2, 3]))
            XCTAssertEqual(read?.validity, stored)
        }
    }

    func test_storeData_isFreshForTheDefaultLifetime_withoutValidators() throws {
        let directory = TestDirectory()
        let cache = try DiskImageCache(directory: directory.url, defaultLifetime: 600)
        let before = Date().timeIntervalSince1970
        cache.storeData(Data([1]), for: pictureRequest(1))
        let validity = try XCTUnwrap(cache.entry(for: pictureIdentity(1))?.validity)
        XCTAssertEqual(validity.freshUntil, before + 600, accuracy: 5)
        XCTAssertFalse(validity.revalidatesEveryUse)
        XCTAssertNil(validity.entityTag)
        XCTAssertNil(validity.lastModified)
        XCTAssertEqual(cache.defaultLifetime, 600)
    }

    func test_updateValidity_replacesOnlyTheValidity_andCountsARevalidation() throws {
        // Given
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        try cache.write(Data([7, 7]), validity: validity(entityTag: "\"1\""), for: pictureIdentity(1))
        let renewed = validity(entityTag: "\"2\"", lastModified: nil)
        // When
        cache.updateValidity(renewed, for: pictureIdentity(1))
        cache.updateValidity(renewed, for: pictureIdentity(2))
        // Then
        XCTAssertEqual(cache.entry(for: pictureIdentity(1))?.validity, renewed)
        XCTAssertNil(cache.entry(for: pictureIdentity(2)))
        XCTAssertEqual(cache.statistics.revalidations, 1)
        XCTAssertEqual(cache.statistics.writes, 1)
        let reopened = try makeDiskCache(in: directory.url)
        XCTAssertEqual(try reopened.read(pictureIdentity(1))?.data, Data([7, 7]))
        XCTAssertEqual(reopened.entry(for: pictureIdentity(1))?.validity, renewed)
    }

    func test_statistics_countHitsMissesAndWrites() throws {
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        cache.storeData(Data([1]), for: pictureRequest(1))
        cache.storeData(Data([2]), for: pictureRequest(2))
        _ = cache.data(for: pictureRequest(1))
        _ = cache.data(for: pictureRequest(1))
        _ = cache.data(for: pictureRequest(3))
        _ = cache.containsData(for: pictureRequest(4))
        XCTAssertEqual(
            cache.statistics,
            DiskCacheStatistics(hits: 2, misses: 1, writes: 2, revalidations: 0, evictions: 0, errors: 0))
    }

    func test_entryNames_areHexDigestsOfKindAndValue_inTwoLevelFolders() throws {
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        cache.storeData(Data([1]), for: pictureRequest(1))
        let name = SHA256.hash("url\nhttps://pictures.example/1.png").description
        let path = directory.url.appendingPathComponent("bodies/\(name.prefix(2))/\(name)").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertNotEqual(DiskImageCache.digest(of: .cacheKey("x")), DiskImageCache.digest(of: .url("x")))
    }

    func test_openingWhereNoFolderCanBeMade_throwsDiskCacheUnavailable() throws {
        // A regular file on the path stops even root.
        let directory = TestDirectory()
        let file = directory.write("file", size: 1)
        let target = URL(fileURLWithPath: file).appendingPathComponent("cache")
        XCTAssertThrowsError(try DiskImageCache(directory: target)) { error in
            guard case .diskCacheUnavailable(let url, let reason) = error as? ImageStoreError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(url, target)
            XCTAssertEqual(reason, FileSystem.errorDescription(ENOTDIR))
        }
        XCTAssertEqual(
            ImageStoreError.diskCacheUnavailable(URL(fileURLWithPath: "/c"), reason: "No space").description,
            "cannot open the disk cache in /c: No space")
    }
}
