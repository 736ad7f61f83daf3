import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Concurrent misses for one image decode it once and share the result, or the failure.
final class CoalescingTests: XCTestCase {
    func test_eightConcurrentMisses_decodeOnce_andShareTheInstance() throws {
        for policy in [CachePolicy.strong, .retainCountSweep] + weakPolicies {
            let directory = TestDirectory()
            directory.write("photo.png", size: 500)
            let decoder = FakeDecoder(delay: 0.2)
            let store = makeStore(policy: policy, directories: [directory.url], decoder: decoder)
            let results = Lock<[ObjectIdentifier]>([])

            runConcurrently(threads: 8) { _ in
                if let image = store.image(named: "photo") {
                    results.withLock { $0.append(ObjectIdentifier(image)) }
                }
            }

            XCTAssertEqual(decoder.calls.count, 1, "\(policy)")
            XCTAssertEqual(store.statistics.decodes, 1, "\(policy)")
            XCTAssertEqual(store.statistics.misses, 1, "\(policy)")
            XCTAssertEqual(store.statistics.coalescedLoads, 7, "\(policy)")
            XCTAssertEqual(results.withLock { $0.count }, 8, "\(policy)")
            XCTAssertEqual(Set(results.withLock { $0 }).count, 1, "\(policy): waiters got different instances")
        }
    }

    func test_failure_reachesEveryWaiter_andIsNotCached() throws {
        let directory = TestDirectory()
        directory.write("broken.png", Array("FAIL and then some".utf8))
        let decoder = FakeDecoder(delay: 0.2)
        let store = makeStore(policy: .weak, directories: [directory.url], decoder: decoder)
        let errors = Lock<[ImageStoreError]>([])

        runConcurrently(threads: 8) { _ in
            do throws(ImageStoreError) {
                _ = try store.loadImage(named: "broken")
            } catch {
                errors.withLock { $0.append(error) }
            }
        }

        let expected = ImageStoreError.decodingFailed(
            path: FileSystem.realPath(directory.path + "/broken.png")!, reason: "fake decoder refused the file"
        )
        XCTAssertEqual(errors.withLock { $0 }, Array(repeating: expected, count: 8))
        XCTAssertEqual(decoder.calls.count, 1)
        XCTAssertEqual(store.statistics.coalescedLoads, 7)
        XCTAssertNil(store.image(named: "broken"))
        XCTAssertEqual(decoder.calls.count, 2, "a failure is not cached: the next lookup tries again")
    }

    func test_uncached_doesNotCoalesce() throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 10)
        let decoder = FakeDecoder(delay: 0.05)
        let store = makeStore(policy: .uncached, directories: [directory.url], decoder: decoder)

        runConcurrently(threads: 4) { _ in _ = store.image(named: "icon") }

        XCTAssertEqual(decoder.calls.count, 4)
        XCTAssertEqual(store.statistics.coalescedLoads, 0)
    }
}
