import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A loopback server, a folder for the downloader's bodies, and a recorder of outcomes, for the
/// downloader's tests; the downloader is made by ``makeDownloader(maximumConcurrentDownloads:maximumResponseSize:failureBackoff:timeout:requestModifier:)``.
class DownloaderTestCase: XCTestCase {
    var server: LoopbackHTTPServer!
    var bodies: TestDirectory!
    var outcomes: DownloadOutcomes!
    var downloader: ImageDownloader!

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer()
        bodies = TestDirectory(name)
        outcomes = DownloadOutcomes()
    }

    override func tearDown() {
        downloader = nil
        XCTAssertTrue(server.stop())
        server = nil
        bodies = nil
        outcomes = nil
    }

    /// Makes ``downloader``, writing bodies in ``bodies``.
    @discardableResult
    func makeDownloader(
        maximumConcurrentDownloads: Int = 6, maximumResponseSize: Int = 1 << 20, failureBackoff: TimeInterval = 0,
        timeout: TimeInterval = 10, requestModifier: (@Sendable (inout URLRequest) -> Void)? = nil
    ) -> ImageDownloader {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        downloader = ImageDownloader(
            configuration: configuration, maximumConcurrentDownloads: maximumConcurrentDownloads,
            maximumResponseSize: maximumResponseSize, failureBackoff: failureBackoff,
            // The public initialiser's pace limits.
            transferTimeout: 120, minimumBytesPerWindow: 8 * 1024, transferRateWindow: 20,
            requestModifier: requestModifier, temporaryDirectory: bodies.url)
        return downloader
    }

    /// The source of `target` on the loopback server.
    func source(_ target: String) -> URLSource {
        URLSource(server.url(target), cacheKey: nil)
    }

    /// Downloads `target`, its outcome recorded under `label` (the target unless given).
    @discardableResult
    func download(
        _ target: String, label: String? = nil, revalidating validity: ResponseValidity? = nil,
        bodyDirectory: URL? = nil, priority: ImageLoadPriority = .normal
    ) -> DownloadTicket {
        downloader.download(
            source(target), revalidating: validity, bodyDirectory: bodyDirectory, priority: priority,
            completion: outcomes.recorder(label ?? target))
    }

    /// The files in the downloader's folder.
    func bodyFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: bodies.path)) ?? []
    }

    /// Waits until the downloader's folder is empty: a task's files are deleted when its
    /// completion reaches the session's delegate, which may come after the server saw the end.
    func waitUntilNoBodyFiles(timeout: Double = 5) -> Bool {
        waitUntil(timeout: timeout) { bodyFiles().isEmpty }
    }

    /// Checks `condition` every millisecond until it holds or `timeout` seconds pass.
    func waitUntil(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(1_000)
        }
        return true
    }

    /// The length of a dripping body that a cancellation early on cuts at the socket: more than
    /// a partial body's length is still to come, so the downloader does not finish it instead.
    let cutBodyLength = PartialBody.minimumLength + 16_000

    /// Bytes numbered from 0, for bodies.
    func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0) }
    }

    /// `count` seeded random bytes: a piece spliced at the wrong offset cannot match.
    func randomBytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
