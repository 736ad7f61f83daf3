import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

#if canImport(Glibc)
private let descriptorLimit = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
private let descriptorLimit = RLIMIT_NOFILE
#endif

/// A body the system cannot open for now — no descriptor left, an I/O error, a permission — may
/// be whole: reading it is a miss and a counted error, and deletes nothing. Only evidence of
/// damage (a missing body, a wrong length or checksum, a link) removes an entry.
final class DiskCacheTransientFaultTests: XCTestCase {
    /// Runs `body` with the process unable to open another file (`EMFILE`): the soft limit on
    /// descriptors is lowered to the lowest one free.
    private func withoutFreeDescriptors<Result>(_ body: () throws -> Result) rethrows -> Result {
        var limit = rlimit()
        XCTAssertEqual(getrlimit(descriptorLimit, &limit), 0)
        let lowestFree = dup(0)
        close(lowestFree)
        var lowered = limit
        lowered.rlim_cur = rlim_t(lowestFree)
        XCTAssertEqual(setrlimit(descriptorLimit, &lowered), 0)
        defer { setrlimit(descriptorLimit, &limit) }
        return try body()
    }

    func test_bodyThatCannotBeOpenedForNow_isAMissAndAnError_andStays() throws {
        // Given
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url)
        let body = seededBytes(1_000, seed: 1)
        cache.storeData(body, for: pictureRequest(1))
        // When: no descriptor left
        let result = withoutFreeDescriptors { Result { try cache.read(pictureIdentity(1)) } }
        // Then: a typed error naming the system's reason; a miss and an error; nothing deleted
        guard case .failure(let error) = result,
            case .readFailed(pictureIdentity(1), let reason)? = error as? DiskCacheError
        else {
            return XCTFail("\(result)")
        }
        XCTAssertTrue(reason.hasSuffix(FileSystem.errorDescription(EMFILE)), reason)
        XCTAssertEqual(cache.statistics.misses, 1)
        XCTAssertEqual(cache.statistics.errors, 1)
        XCTAssertTrue(cache.containsData(for: pictureRequest(1)))
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: DiskCacheFolder(url: directory.url).bodyPath(pictureIdentity(1))))
        // When: descriptors are free again
        XCTAssertEqual(cache.data(for: pictureRequest(1)), body)
        XCTAssertEqual(try makeDiskCache(in: directory.url).data(for: pictureRequest(1)), body)
        cache._checkInvariants()
    }
}
