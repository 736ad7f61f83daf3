import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A transfer's body goes to the folder its first ticket names (the disk cache's), and its file
/// is deleted there as in the downloader's own folder: after a success, a failure, a
/// cancellation, and with the downloader.
final class DownloadBodyDirectoryTests: DownloaderTestCase {
    private var cacheFolder: TestDirectory!

    override func setUpWithError() throws {
        try super.setUpWithError()
        cacheFolder = TestDirectory(name + "-cache")
    }

    override func tearDown() {
        super.tearDown()
        cacheFolder = nil
    }

    private func cacheFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: cacheFolder.path)) ?? []
    }

    private func dripping(_ count: Int) -> HTTPScriptedResponse {
        var response = HTTPScriptedResponse.ok(bytes(count))
        response.drip = .init(bytesPerPiece: 100, interval: 0.02)
        return response
    }

    func test_theBody_isWrittenInTheGivenFolder_andDeletedAfterCompletion() {
        // Given
        server.respond(to: "/a.png", with: dripping(1_000))
        makeDownloader()
        // When
        download("/a.png", bodyDirectory: cacheFolder.url)
        // Then
        XCTAssertTrue(waitUntil { cacheFiles().count == 1 }, "the body streams to a file in the given folder")
        XCTAssertEqual(bodyFiles(), [], "not in the downloader's own")
        XCTAssertEqual(outcomes.outcome("/a.png")?.bytes, bytes(1_000))
        XCTAssertEqual(cacheFiles(), [])
    }

    func test_theFirstTicketsFolder_isTheTransfers() {
        // Given
        server.respond(to: "/a.png", with: dripping(1_000))
        makeDownloader()
        // When: a second ticket names another folder
        let other = TestDirectory(name + "-other")
        download("/a.png", label: "first", bodyDirectory: cacheFolder.url)
        download("/a.png", label: "second", bodyDirectory: other.url)
        // Then
        XCTAssertTrue(waitUntil { cacheFiles().count == 1 })
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: other.path), [])
        XCTAssertTrue(outcomes.wait(forCount: 2))
        XCTAssertEqual(outcomes.outcome("second")?.bytes, bytes(1_000))
        XCTAssertEqual(cacheFiles(), [])
    }

    func test_noFileIsLeftInTheFolder_afterACancellation_orAFailure() {
        // Given
        server.respond(to: "/slow.png", with: dripping(cutBodyLength))
        var cut = HTTPScriptedResponse.ok(bytes(1_000))
        cut.closeAfterBodyBytes = 500
        server.respond(to: "/cut.png", with: cut)
        makeDownloader()
        // When
        let ticket = download("/slow.png", bodyDirectory: cacheFolder.url)
        XCTAssertTrue(waitUntil { cacheFiles().count == 1 })
        downloader.cancel(ticket)
        download("/cut.png", bodyDirectory: cacheFolder.url)
        // Then
        XCTAssertNotNil(outcomes.outcome("/cut.png")?.error)
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
        XCTAssertTrue(waitUntil { cacheFiles().isEmpty }, "\(cacheFiles())")
    }

    func test_noFileIsLeftInTheFolder_whenTheDownloaderGoes() {
        // Given
        server.respond(to: "/slow.png", with: dripping(2_000))
        makeDownloader()
        download("/slow.png", bodyDirectory: cacheFolder.url)
        XCTAssertTrue(waitUntil { cacheFiles().count == 1 })
        // When
        downloader = nil
        // Then
        XCTAssertEqual(outcomes.outcome("/slow.png")?.error, .cancelled)
        XCTAssertTrue(waitUntil { cacheFiles().isEmpty }, "\(cacheFiles())")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cacheFolder.path), "the folder is not the downloader's")
    }
}
