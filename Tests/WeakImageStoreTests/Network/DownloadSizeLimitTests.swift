import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Bodies are bounded and whole: a declared length over the limit is refused before the body, a
/// body growing past it is stopped there, and a body shorter than its length is an error.
final class DownloadSizeLimitTests: DownloaderTestCase {
    func test_contentLengthOverTheLimit_isRefusedBeforeTheBody() {
        // Given: a 1 MB body that would take seconds to arrive
        var response = HTTPScriptedResponse.ok(bytes(1_000_000))
        response.drip = .init(bytesPerPiece: 10_000, interval: 0.02)
        server.respond(to: "/huge.png", with: response)
        makeDownloader(maximumResponseSize: 1_000)
        // When
        download("/huge.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/huge.png")?.error, .responseTooLarge(server.url("/huge.png"), limit: 1_000))
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
        XCTAssertLessThan(server.statistics.bodyBytesSent, 100_000)
        XCTAssertTrue(bodyFiles().isEmpty, "\(bodyFiles())")
    }

    func test_bodyWithoutLength_growingPastTheLimit_isStoppedAtTheLimit() {
        // Given
        var response = HTTPScriptedResponse.ok(bytes(1_000_000))
        response.contentLength = .omitted
        response.drip = .init(bytesPerPiece: 5_000, interval: 0.01)
        server.respond(to: "/endless.png", with: response)
        makeDownloader(maximumResponseSize: 20_000)
        // When
        download("/endless.png")
        // Then
        XCTAssertEqual(
            outcomes.outcome("/endless.png")?.error, .responseTooLarge(server.url("/endless.png"), limit: 20_000))
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
        XCTAssertLessThan(server.statistics.bodyBytesSent, 200_000)
        XCTAssertTrue(bodyFiles().isEmpty, "\(bodyFiles())")
    }

    func test_bodyWithoutLength_withinTheLimit_isDeliveredWhole() {
        // Given
        var response = HTTPScriptedResponse.ok(bytes(20_000))
        response.contentLength = .omitted
        server.respond(to: "/open.png", with: response)
        makeDownloader(maximumResponseSize: 20_000)
        // When
        download("/open.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/open.png")?.bytes, bytes(20_000))
    }

    func test_bodyOfExactlyTheLimit_isDelivered() {
        // Given
        server.respond(to: "/full.png", with: .ok(bytes(1_000)))
        makeDownloader(maximumResponseSize: 1_000)
        // When
        download("/full.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/full.png")?.bytes, bytes(1_000))
    }

    func test_largeBody_arrivesWhole_throughTheTemporaryFile() {
        // Given: a body that arrives in pieces, so it is written while it downloads
        var response = HTTPScriptedResponse.ok(bytes(300_000))
        response.drip = .init(bytesPerPiece: 30_000, interval: 0.01)
        server.respond(to: "/photo.jpg", with: response)
        makeDownloader()
        // When
        download("/photo.jpg")
        // Then
        XCTAssertEqual(outcomes.outcome("/photo.jpg")?.bytes, bytes(300_000))
        XCTAssertEqual(downloader.statistics.bytesDownloaded, 300_000)
    }

    func test_connectionClosedBeforeTheContentLength_isATruncatedResponse() {
        // Given: Content-Length 1000, the connection closed after 400 bytes
        var response = HTTPScriptedResponse.ok(bytes(1_000))
        response.closeAfterBodyBytes = 400
        server.respond(to: "/cut.png", with: response)
        makeDownloader()
        // When
        download("/cut.png")
        // Then
        XCTAssertEqual(
            outcomes.outcome("/cut.png")?.error,
            .responseTruncated(server.url("/cut.png"), expected: 1_000, received: 400))
        XCTAssertTrue(bodyFiles().isEmpty, "\(bodyFiles())")
    }

    func test_lengthPromisingMoreThanTheBody_isATruncatedResponse() {
        // Given: Content-Length says 10, the body has 4 bytes
        var response = HTTPScriptedResponse.ok([1, 2, 3, 4])
        response.contentLength = .declared(10)
        server.respond(to: "/short.png", with: response)
        makeDownloader()
        // When
        download("/short.png")
        // Then
        XCTAssertEqual(
            outcomes.outcome("/short.png")?.error,
            .responseTruncated(server.url("/short.png"), expected: 10, received: 4))
    }
}
