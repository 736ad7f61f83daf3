import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A large body cut short is kept and continued with `Range` and `If-Range` by the next transfer
/// of its URL: byte-identical to the original, checked against the whole length; a changed
/// picture restarts; a refused range restarts within the same transfer; weak validators never
/// resume; kept bodies are bounded and go with the downloader.
final class DownloadResumeTests: DownloaderTestCase {
    private let length = 200_000
    private let cutAt = 100_000

    /// The picture as the server has it: a strong entity tag, ranges supported.
    private func picture(entityTag: String? = "\"v1\"", seed: UInt64 = 1) -> HTTPScriptedResponse {
        var response = HTTPScriptedResponse.ok(randomBytes(length, seed: seed))
        response.entityTag = entityTag
        response.supportsRanges = true
        return response
    }

    /// The same picture, the connection closed after ``cutAt`` body bytes.
    private func cut(_ response: HTTPScriptedResponse) -> HTTPScriptedResponse {
        var cut = response
        cut.closeAfterBodyBytes = cutAt
        return cut
    }

    /// Drops the test's reference to the downloader and waits until it is gone: the session's
    /// delegate queue may hold it a moment longer, while it calls a completion.
    private func releaseDownloader() {
        weak let weakDownloader = downloader
        downloader = nil
        XCTAssertTrue(waitUntil { weakDownloader == nil }, "the downloader leaked")
    }

    private func requests(to target: String) -> [HTTPRequest] {
        server.receivedRequests.filter { $0.target == target }
    }

    func test_aBodyCutShort_isResumedByTheNextTransfer_byteForByte() throws {
        // Given: the first answer breaks off halfway
        server.respond(to: "/big.png", withSequence: [cut(picture()), picture()])
        makeDownloader()
        download("/big.png", label: "first")
        XCTAssertEqual(
            outcomes.outcome("first")?.error,
            .responseTruncated(server.url("/big.png"), expected: length, received: cutAt))
        XCTAssertEqual(downloader.partialBodies.map(\.length), [cutAt])
        XCTAssertEqual(bodyFiles().count, 1, "the partial body's file is kept")
        // When
        download("/big.png", label: "second")
        // Then
        XCTAssertEqual(outcomes.outcome("second")?.bytes, randomBytes(length))
        let second = try XCTUnwrap(requests(to: "/big.png").last)
        XCTAssertEqual(second.value(forHeader: "Range"), "bytes=\(cutAt)-")
        XCTAssertEqual(second.value(forHeader: "If-Range"), "\"v1\"")
        XCTAssertEqual(server.statistics.partialContentResponses, 1)
        XCTAssertEqual(server.statistics.bodyBytesSentByTarget["/big.png"], length, "no byte sent twice")
        XCTAssertEqual(downloader.statistics.downloadsResumed, 1)
        XCTAssertEqual(downloader.statistics.bytesResumed, cutAt)
        XCTAssertEqual(downloader.partialBodies, [])
        XCTAssertTrue(waitUntilNoBodyFiles(), "\(bodyFiles())")
    }

    func test_aBodyWithOnlyLastModified_resumesWithTheDate() throws {
        // Given
        var withDate = picture(entityTag: nil)
        withDate.lastModified = "Sun, 06 Nov 1994 08:49:37 GMT"
        server.respond(to: "/big.png", withSequence: [cut(withDate), withDate])
        makeDownloader()
        download("/big.png", label: "first")
        XCTAssertNotNil(outcomes.outcome("first")?.error)
        // When
        download("/big.png", label: "second")
        // Then
        XCTAssertEqual(outcomes.outcome("second")?.bytes, randomBytes(length))
        XCTAssertEqual(requests(to: "/big.png").last?.value(forHeader: "If-Range"), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(server.statistics.partialContentResponses, 1)
    }

    func test_aCancelledTransfer_isResumed() throws {
        // Given: a transfer cancelled after more than 64 KiB
        var slow = picture()
        slow.drip = .init(bytesPerPiece: 16_384, interval: 0.01)
        server.respond(to: "/big.png", withSequence: [slow, picture()])
        makeDownloader()
        let ticket = download("/big.png", label: "first")
        XCTAssertTrue(server.waitUntil { $0.bodyBytesSentByTarget["/big.png", default: 0] >= 81_920 })
        downloader.cancel(ticket)
        XCTAssertEqual(outcomes.outcome("first")?.error, .cancelled)
        XCTAssertTrue(waitUntil { self.downloader.partialBodies.count == 1 })
        let kept = try XCTUnwrap(downloader.partialBodies.first?.length)
        XCTAssertGreaterThanOrEqual(kept, PartialBody.minimumLength)
        // When
        download("/big.png", label: "second")
        // Then
        XCTAssertEqual(outcomes.outcome("second")?.bytes, randomBytes(length))
        XCTAssertEqual(requests(to: "/big.png").last?.value(forHeader: "Range"), "bytes=\(kept)-")
        XCTAssertEqual(server.statistics.partialContentResponses, 1)
        XCTAssertEqual(downloader.statistics.bytesResumed, kept)
        XCTAssertTrue(waitUntilNoBodyFiles(), "\(bodyFiles())")
    }

    func test_aChangedPicture_failsIfRange_andComesBackWhole() throws {
        // Given: the picture changed (a new entity tag) after the first attempt broke off
        let changed = picture(entityTag: "\"v2\"", seed: 2)
        server.respond(to: "/big.png", withSequence: [cut(picture()), changed])
        makeDownloader()
        download("/big.png", label: "first")
        XCTAssertNotNil(outcomes.outcome("first")?.error)
        // When
        download("/big.png", label: "second")
        // Then: the server ignored the range; the new picture, whole
        XCTAssertEqual(outcomes.outcome("second")?.bytes, randomBytes(length, seed: 2))
        XCTAssertEqual(requests(to: "/big.png").last?.value(forHeader: "If-Range"), "\"v1\"")
        XCTAssertEqual(server.statistics.partialContentResponses, 0)
        XCTAssertEqual(downloader.statistics.bytesResumed, 0)
        XCTAssertEqual(downloader.partialBodies, [])
        XCTAssertTrue(waitUntilNoBodyFiles(), "\(bodyFiles())")
    }

    func test_aRefusedRange_restartsWithinTheSameTransfer() throws {
        // Given: the picture shrank below the kept length (416), then comes whole
        var shrunk = HTTPScriptedResponse.ok(randomBytes(1_000, seed: 3))
        shrunk.entityTag = "\"v1\""
        shrunk.supportsRanges = true
        server.respond(to: "/big.png", withSequence: [cut(picture()), shrunk])
        makeDownloader()
        download("/big.png", label: "first")
        XCTAssertNotNil(outcomes.outcome("first")?.error)
        // When
        download("/big.png", label: "second")
        // Then: one transfer, two requests: the range, then the whole body
        XCTAssertEqual(outcomes.outcome("second")?.bytes, randomBytes(1_000, seed: 3))
        let sent = requests(to: "/big.png")
        XCTAssertEqual(sent.count, 3)
        XCTAssertNotNil(sent[1].value(forHeader: "Range"))
        XCTAssertNil(sent[2].value(forHeader: "Range"))
        XCTAssertEqual(downloader.statistics.downloadsStarted, 2, "a restart is no new transfer")
        XCTAssertEqual(downloader.statistics.downloadsCompleted, 1)
        XCTAssertEqual(outcomes.calls("second"), 1)
        XCTAssertTrue(waitUntilNoBodyFiles(), "\(bodyFiles())")
    }

    func test_aRangeThatDoesNotContinueTheBody_restartsWithinTheSameTransfer() throws {
        // Given: a server that answers any range with the wrong slice
        var wrongSlice = HTTPScriptedResponse(
            status: 206, headers: [("Content-Range", "bytes 0-9/\(length)")], body: Array(randomBytes(10)))
        wrongSlice.entityTag = "\"v1\""
        server.respond(to: "/big.png", withSequence: [cut(picture()), wrongSlice, picture()])
        makeDownloader()
        download("/big.png", label: "first")
        XCTAssertNotNil(outcomes.outcome("first")?.error)
        // When
        download("/big.png", label: "second")
        // Then
        XCTAssertEqual(outcomes.outcome("second")?.bytes, randomBytes(length))
        XCTAssertEqual(requests(to: "/big.png").count, 3)
        XCTAssertNil(requests(to: "/big.png").last?.value(forHeader: "Range"))
        XCTAssertEqual(downloader.statistics.bytesResumed, 0)
        XCTAssertTrue(waitUntilNoBodyFiles(), "\(bodyFiles())")
    }

    func test_a206WithoutTheStrongEntityTag_restartsFromZero() throws {
        for (label, sentTag) in [("none", nil), ("another", "\"v2\""), ("its weak form", "W/\"v1\"")] {
            // Given: the picture changed, and the server answers the range with its new bytes,
            // matching If-Range against the old tag but sending another (or none)
            server.resetStatistics()
            var changed = picture(seed: 2)
            if let sentTag {
                changed.headers.append(("ETag", sentTag))
            } else {
                changed.omittedHeaders = ["ETag"]
            }
            let target = "/\(label.replacingOccurrences(of: " ", with: "-")).png"
            server.respond(to: target, withSequence: [cut(picture()), changed, picture(seed: 2)])
            makeDownloader()
            download(target, label: "first \(label)")
            XCTAssertNotNil(outcomes.outcome("first \(label)")?.error, label)
            // When
            download(target, label: "second \(label)")
            // Then: the whole new picture, never the old start spliced onto the new end
            XCTAssertEqual(outcomes.outcome("second \(label)")?.bytes, randomBytes(length, seed: 2), label)
            let sent = requests(to: target)
            XCTAssertEqual(sent.count, 3, label)
            XCTAssertNil(sent.last?.value(forHeader: "Range"), label)
            XCTAssertEqual(downloader.statistics.bytesResumed, 0, label)
            XCTAssertTrue(waitUntilNoBodyFiles(), "\(label): \(bodyFiles())")
        }
    }

    func test_aWeakEntityTag_isNeverResumed() {
        // Given
        let weak = picture(entityTag: "W/\"v1\"")
        server.respond(to: "/big.png", withSequence: [cut(weak), weak])
        makeDownloader()
        download("/big.png", label: "first")
        XCTAssertNotNil(outcomes.outcome("first")?.error)
        XCTAssertEqual(downloader.partialBodies, [])
        XCTAssertTrue(waitUntilNoBodyFiles(), "\(bodyFiles())")
        // When
        download("/big.png", label: "second")
        // Then
        XCTAssertEqual(outcomes.outcome("second")?.bytes, randomBytes(length))
        XCTAssertEqual(server.statistics.rangeRequests, 0)
    }

    func test_aConditionalTransfer_doesNotResume() {
        // Given: a kept partial body
        server.respond(to: "/big.png", withSequence: [cut(picture()), picture(entityTag: "\"v2\"", seed: 2)])
        makeDownloader()
        download("/big.png", label: "first")
        XCTAssertNotNil(outcomes.outcome("first")?.error)
        // When: revalidating a stored copy
        let stored = ResponseValidity(freshUntil: 0, revalidatesEveryUse: false, entityTag: "\"v0\"", lastModified: nil)
        download("/big.png", label: "second", revalidating: stored)
        // Then: no range; the new body supersedes the partial one
        XCTAssertEqual(outcomes.outcome("second")?.bytes, randomBytes(length, seed: 2))
        XCTAssertEqual(server.statistics.rangeRequests, 0)
        XCTAssertEqual(downloader.partialBodies, [])
        XCTAssertTrue(waitUntilNoBodyFiles(), "\(bodyFiles())")
    }

    func test_partialBodies_areBounded_andDeletedWithTheDownloader() {
        // Given: a size limit that holds two partial bodies, and three cut transfers
        makeDownloader(maximumResponseSize: 250_000)
        for index in 1...3 { server.respond(to: "/p\(index).png", with: cut(picture(seed: UInt64(index)))) }
        // When
        for index in 1...3 {
            download("/p\(index).png")
            XCTAssertNotNil(outcomes.outcome("/p\(index).png")?.error)
        }
        // Then: the oldest was dropped, and its file deleted
        XCTAssertEqual(
            downloader.partialBodies.map(\.identity), [source("/p2.png").identity, source("/p3.png").identity])
        XCTAssertTrue(waitUntil { self.bodyFiles().count == 2 }, "\(bodyFiles())")
        // When
        releaseDownloader()
        // Then
        XCTAssertEqual(bodyFiles(), [])
    }

    func test_atMostEightPartialBodies_areKept() {
        // Given
        makeDownloader(maximumResponseSize: 10 << 20)
        for index in 1...10 { server.respond(to: "/p\(index).png", with: cut(picture(seed: UInt64(index)))) }
        // When
        for index in 1...10 { download("/p\(index).png") }
        XCTAssertTrue(outcomes.wait(forCount: 10, timeout: 10))
        // Then
        XCTAssertEqual(downloader.partialBodies.count, PartialBodies.maximumCount)
        XCTAssertTrue(waitUntil { self.bodyFiles().count == PartialBodies.maximumCount }, "\(bodyFiles())")
        releaseDownloader()
        XCTAssertEqual(bodyFiles(), [])
    }

    func test_partialBodiesInTheGivenFolder_goWithTheDownloader() {
        // Given
        let cacheFolder = TestDirectory(name + "-cache")
        server.respond(to: "/big.png", with: cut(picture()))
        makeDownloader()
        download("/big.png", bodyDirectory: cacheFolder.url)
        XCTAssertNotNil(outcomes.outcome("/big.png")?.error)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: cacheFolder.path))?.count, 1)
        // When
        releaseDownloader()
        // Then
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path), [])
    }
}
