import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Many threads reading, writing, revalidating and removing at random: the index's tables agree
/// throughout, the limit holds, every read is exactly what some thread wrote, and the counters
/// add up.
///
/// `STRESS_OPERATIONS` scales the operations per thread (default 400).
final class DiskCacheStressTests: XCTestCase {
    func test_randomMixFromManyThreads_keepsTheIndexConsistent() throws {
        // Given
        let directory = TestDirectory()
        let limit = 150_000
        let cache = try makeDiskCache(in: directory.url, sizeLimit: limit)
        let operations =
            ProcessInfo.processInfo.environment["STRESS_OPERATIONS"].flatMap { Int($0) }.map { min($0, 2_000) } ?? 400
        let threads = 8
        let problems = Lock([String]())
        let reads = Lock((hits: 0, misses: 0))
        // When
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var random = SeededGenerator(seed: UInt64(thread) + 7)
            for operation in 0..<operations {
                let picture = random.int(in: 0...39)
                switch random.int(in: 0...19) {
                case 0..<8:
                    cache.storeData(
                        ChildWriterBodies.body(picture: picture, generation: random.next()),
                        for: pictureRequest(picture))
                case 8..<16:
                    if let data = cache.data(for: pictureRequest(picture)) {
                        reads.withLock { $0.hits += 1 }
                        if !ChildWriterBodies.isWhole(data, picture: picture) {
                            problems.withLock { $0.append("picture \(picture) read back altered") }
                        }
                    } else {
                        reads.withLock { $0.misses += 1 }
                    }
                case 16:
                    cache.updateValidity(validity(entityTag: "\"\(operation)\""), for: pictureIdentity(picture))
                case 17, 18:
                    cache.removeData(for: pictureRequest(picture))
                default:
                    _ = cache.entry(for: pictureIdentity(picture))
                }
                if cache.totalSize > limit { problems.withLock { $0.append("over the limit") } }
                if operation % 50 == 0 { cache._checkInvariants() }
            }
        }
        // Then
        cache._checkInvariants()
        XCTAssertEqual(problems.withLock { $0 }, [])
        let statistics = cache.statistics
        let counted = reads.withLock { $0 }
        XCTAssertEqual(statistics.hits, counted.hits)
        XCTAssertEqual(statistics.misses, counted.misses)
        XCTAssertEqual(statistics.errors, 0)
        XCTAssertEqual(cache.totalSize, DiskCacheFolder(url: directory.url).bytesOnDisk)
        XCTAssertEqual(DiskCacheFolder(url: directory.url).bodyFiles.count, cache.count)
        XCTAssertEqual(DiskCacheFolder(url: directory.url).temporaryFiles, [])
        let reopened = try makeDiskCache(in: directory.url, sizeLimit: limit)
        XCTAssertEqual(reopened.count, cache.count)
        XCTAssertEqual(reopened.totalSize, cache.totalSize)
    }

    func test_threadsWritingDistinctPictures_storeExactlyWhatTheyWrote() throws {
        // Given: room for everything
        let directory = TestDirectory()
        let cache = try makeDiskCache(in: directory.url, sizeLimit: 50_000_000)
        let threads = 8
        let picturesPerThread = 40
        // When
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<picturesPerThread {
                let picture = thread * picturesPerThread + index
                cache.storeData(
                    ChildWriterBodies.body(picture: picture, generation: UInt64(picture)), for: pictureRequest(picture))
            }
        }
        // Then
        XCTAssertEqual(cache.count, threads * picturesPerThread)
        XCTAssertEqual(cache.statistics.writes, threads * picturesPerThread)
        XCTAssertEqual(cache.statistics.evictions, 0)
        for picture in 0..<(threads * picturesPerThread) {
            XCTAssertEqual(
                cache.data(for: pictureRequest(picture)),
                ChildWriterBodies.body(picture: picture, generation: UInt64(picture)))
        }
        cache._checkInvariants()
    }
}
