import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Bodies stream to a temporary file in the downloader's folder, and no file outlives its
/// transfer: not after a success, a failure or a cancellation, nor after the downloader. The
/// downloader, its session and the session's delegate go away together.
final class DownloadTemporaryFileTests: DownloaderTestCase {
    func test_aBodyUnderWay_isInAFile_removedOnSuccess() {
        // Given: a body that drips
        var response = HTTPScriptedResponse.ok(bytes(1_000))
        response.drip = .init(bytesPerPiece: 100, interval: 0.02)
        server.respond(to: "/a.png", with: response)
        makeDownloader()
        // When
        download("/a.png")
        // Then
        XCTAssertTrue(waitUntil { bodyFiles().count == 1 }, "the body streams to a file")
        XCTAssertEqual(outcomes.outcome("/a.png")?.bytes, bytes(1_000))
        XCTAssertEqual(bodyFiles(), [], "deleted before the completion")
    }

    func test_noFileIsLeft_afterAFailure() {
        // Given
        var response = HTTPScriptedResponse.ok(bytes(1_000))
        response.closeAfterBodyBytes = 500
        server.respond(to: "/cut.png", with: response)
        makeDownloader()
        // When
        download("/cut.png")
        // Then
        XCTAssertNotNil(outcomes.outcome("/cut.png")?.error)
        XCTAssertEqual(bodyFiles(), [])
    }

    func test_noFileIsLeft_afterACancellation() {
        // Given
        var response = HTTPScriptedResponse.ok(bytes(cutBodyLength))
        response.drip = .init(bytesPerPiece: 10, interval: 0.02)
        server.respond(to: "/slow.png", with: response)
        makeDownloader()
        let ticket = download("/slow.png")
        XCTAssertTrue(waitUntil { bodyFiles().count == 1 })
        // When
        downloader.cancel(ticket)
        // Then
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
        XCTAssertTrue(waitUntilNoBodyFiles(), "\(bodyFiles())")
    }

    func test_theDownloadersOwnFolder_goesWithIt() throws {
        // Given: a downloader with the default folder, a transfer under way
        var response = HTTPScriptedResponse.ok(bytes(2_000))
        response.drip = .init(bytesPerPiece: 10, interval: 0.02)
        server.respond(to: "/slow.png", with: response)
        var ownDownloader: ImageDownloader? = ImageDownloader()
        let folder = try XCTUnwrap(ownDownloader?.sessionDelegate.directory)
        _ = ownDownloader?.download(source("/slow.png"), priority: .normal, completion: outcomes.recorder("slow"))
        XCTAssertTrue(waitUntil { (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.count == 1 })
        // When
        ownDownloader = nil
        // Then
        XCTAssertEqual(outcomes.outcome("slow")?.error, .cancelled)
        XCTAssertTrue(waitUntil { !FileManager.default.fileExists(atPath: folder.path) }, folder.path)
    }

    func test_theDownloader_andItsSessionDelegate_areReleased() {
        // Given
        server.respond(to: "/a.png", with: .ok([1]))
        makeDownloader()
        download("/a.png")
        XCTAssertNotNil(outcomes.outcome("/a.png"))
        weak let weakDownloader = downloader
        weak let weakDelegate = downloader.sessionDelegate
        // When
        downloader = nil
        // Then: nothing keeps the downloader alive (the delegate's call that delivered the outcome
        // may still hold it for a moment after the outcome arrived), and the session lets go of
        // its delegate once it is invalidated, on its own queue
        XCTAssertTrue(waitUntil { weakDownloader == nil }, "the downloader leaked")
        XCTAssertTrue(waitUntil { weakDelegate == nil }, "the session delegate leaked")
    }
}
