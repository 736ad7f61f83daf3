import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app's request modifier changes each request before it goes out, once per transfer.
final class DownloadRequestModifierTests: DownloaderTestCase {
    func test_headersAdded_reachTheServer_oncePerTransfer() {
        // Given
        var response = HTTPScriptedResponse.ok([1])
        response.gate = "go"
        server.respond(to: "/private.png", with: response)
        let calls = ModifierCalls()
        makeDownloader { request in
            calls.count()
            request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        }
        // When: two tickets share one transfer
        download("/private.png", label: "1")
        download("/private.png", label: "2")
        server.openGate("go")
        // Then
        XCTAssertTrue(outcomes.wait(forCount: 2))
        XCTAssertEqual(server.receivedRequests.map { $0.value(forHeader: "Authorization") }, ["Bearer secret"])
        XCTAssertEqual(calls.total, 1)
    }

    func test_noCookiesAreSent() {
        // Given: a server that sets a cookie
        let response = HTTPScriptedResponse(headers: [("Set-Cookie", "session=1; Path=/")], body: [1])
        server.respond(to: "/a.png", with: response)
        makeDownloader()
        download("/a.png", label: "1")
        XCTAssertNotNil(outcomes.outcome("1"))
        downloader.waitForDeliveries()
        // When
        download("/a.png", label: "2")
        // Then
        XCTAssertNotNil(outcomes.outcome("2"))
        XCTAssertEqual(server.receivedRequests.map { $0.value(forHeader: "Cookie") }, [nil, nil])
    }
}

/// Counts calls from any thread.
private final class ModifierCalls: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0

    func count() {
        lock.lock()
        calls += 1
        lock.unlock()
    }

    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return calls
    }
}
