import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Threads load a name while another thread keeps swapping a folder on its path (or the file
/// itself) for a symbolic link to an outside folder holding a file with a recognisable payload.
/// Whatever interleaving happens, no load may ever return the outside file's bytes.
///
/// `RACE_ITERATIONS` sets the swaps per test (default 10 000; the loaders run until they are
/// done); `RACE_SECONDS` caps each test's time (default 5), so the thread-sanitized CI run stays
/// bounded however slow it is.
final class ConfinedReadRaceTests: XCTestCase {
    private static let secret = Array("SECRET: a file outside the image directory".utf8)
    private static let inside = Array("inside".utf8)
    private static let loaderThreads = 2

    private var iterations: Int {
        ProcessInfo.processInfo.environment["RACE_ITERATIONS"].flatMap(Int.init) ?? 10_000
    }

    private var timeLimit: TimeInterval {
        ProcessInfo.processInfo.environment["RACE_SECONDS"].flatMap(TimeInterval.init) ?? 5
    }

    /// What the loads returned.
    private struct Outcomes {
        var loads = 0
        var insideFile = 0
        var secrets = 0
        var otherBytes = 0
        var errors: [String: Int] = [:]
    }

    /// A root `images/` holding `sub/icon.png`, and a folder `outside/` holding `icon.png` with
    /// the secret. An entry is swapped with `<entry>.swap`, a symbolic link to the outside: in one
    /// atomic step where the system can exchange two names (`renameat2(RENAME_EXCHANGE)` on
    /// Linux, `renamex_np(RENAME_SWAP)` on Apple's), else in two renames.
    private final class Fixture: Sendable {
        let base = TestDirectory("confinedRace")
        var root: URL { base.url.appendingPathComponent("images") }

        init() {
            base.write("images/sub/icon.png", ConfinedReadRaceTests.inside)
            base.write("outside/icon.png", ConfinedReadRaceTests.secret)
        }

        /// Prepares `images/<entry>.swap`, a symbolic link to `outside/<target>`.
        func prepareSwap(of entry: String, linkingTo target: String) {
            XCTAssertEqual(symlink(base.path + "/outside/" + target, root.path + "/" + entry + ".swap"), 0)
        }

        /// Exchanges `images/<entry>` and `images/<entry>.swap`.
        func swap(_ entry: String) {
            let path = root.path + "/" + entry
            if exchange(path, path + ".swap") { return }
            XCTAssertEqual(rename(path, path + ".parked"), 0)
            XCTAssertEqual(rename(path + ".swap", path), 0)
            XCTAssertEqual(rename(path + ".parked", path + ".swap"), 0)
        }
    }

    func test_loadsThroughAFolderSwappedForAnEscapingLink_neverReturnTheOutsideFile() {
        let outcomes = race(swapping: "sub", linkingTo: "")
        XCTAssertEqual(outcomes.secrets, 0, "the outside file was read: \(outcomes)")
        XCTAssertEqual(outcomes.otherBytes, 0, "\(outcomes)")
        XCTAssertGreaterThan(outcomes.insideFile, 0, "no load succeeded, so the race proves nothing: \(outcomes)")
    }

    func test_loadsOfAFileSwappedForAnEscapingLink_neverReturnTheOutsideFile() {
        let outcomes = race(swapping: "sub/icon.png", linkingTo: "icon.png")
        XCTAssertEqual(outcomes.secrets, 0, "the outside file was read: \(outcomes)")
        XCTAssertEqual(outcomes.otherBytes, 0, "\(outcomes)")
        XCTAssertGreaterThan(outcomes.insideFile, 0, "no load succeeded, so the race proves nothing: \(outcomes)")
    }

    /// Swaps `entry` in and out ``iterations`` times on one thread while ``loaderThreads`` threads
    /// load `sub/icon`, forgetting every resolution before each load so each one resolves and
    /// reads.
    private func race(swapping entry: String, linkingTo target: String) -> Outcomes {
        let fixture = Fixture()
        fixture.prepareSwap(of: entry, linkingTo: target)
        let store = makeStore(policy: .uncached, directories: [fixture.root], scales: [1])
        let outcomes = Lock(Outcomes())
        let swapsToMake = iterations
        let deadline = Date().addingTimeInterval(timeLimit)
        let swapping = Lock(true)
        let swaps = Lock(0)

        runConcurrently(threads: Self.loaderThreads + 1) { thread in
            if thread == Self.loaderThreads {
                defer { swapping.withLock { $0 = false } }
                for _ in 0..<swapsToMake where Date() < deadline {
                    fixture.swap(entry)  // the link in place
                    fixture.swap(entry)  // the real entry back
                    swaps.withLock { $0 += 1 }
                }
                return
            }
            while swapping.withLock({ $0 }) {
                store.removeAll()
                let result = Result { () throws(ImageStoreError) in try store.loadImage(named: "sub/icon") }
                outcomes.withLock { outcomes in
                    outcomes.loads += 1
                    switch result {
                    case .success(let image) where image.pixels == Self.secret: outcomes.secrets += 1
                    case .success(let image) where image.pixels == Self.inside: outcomes.insideFile += 1
                    case .success: outcomes.otherBytes += 1
                    case .failure(let error): outcomes.errors[Self.kind(of: error), default: 0] += 1
                    }
                }
            }
        }
        let result = outcomes.withLock { $0 }
        let swapsMade = swaps.withLock { $0 }
        print("\(name): \(result.loads) loads during \(swapsMade) swaps: \(result)")
        XCTAssertGreaterThan(swapsMade, min(swapsToMake, 100), "the file system hardly changed")
        return result
    }

    private static func kind(of error: ImageStoreError) -> String {
        switch error {
        case .invalidName: "invalidName"
        case .notFound: "notFound"
        case .unreadable(_, let reason): "unreadable: \(reason)"
        case .fileTooLarge: "fileTooLarge"
        case .decodingFailed: "decodingFailed"
        case .cancelled: "cancelled"
        case .providerFailed, .dataTooLarge, .undecodable, .unsupportedURL, .httpStatus, .downloadFailed,
            .responseTooLarge, .responseTruncated, .notInMemoryOrOnDisk, .diskCacheUnavailable:
            "not a file's error: \(error)"
        }
    }
}

#if canImport(Darwin)
/// Swaps the names `first` and `second` atomically; false if the system cannot.
private func exchange(_ first: String, _ second: String) -> Bool {
    renamex_np(first, second, UInt32(RENAME_SWAP)) == 0
}
#else
private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

/// glibc's `renameat2`, which Swift's Glibc module does not declare; nil where the C library
/// lacks it.
private let renameat2: RenameAt2? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
    return unsafeBitCast(symbol, to: RenameAt2.self)
}()

/// Swaps the names `first` and `second` atomically; false if the kernel or file system cannot.
private func exchange(_ first: String, _ second: String) -> Bool {
    let renameExchange: UInt32 = 2  // RENAME_EXCHANGE
    return renameat2?(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0
}
#endif
