import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the request modifier set for one origin never reaches another through a redirect,
/// unless the modifier, run again for the new URL, sets it there; redirects to anything but
/// http(s) are refused by the downloader; URL credentials stay out of identities and messages.
final class DownloadRedirectCredentialTests: DownloaderTestCase {
    /// A second origin: the same machine on 127.0.0.2.
    private var otherOrigin: LoopbackHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        do {
            otherOrigin = try LoopbackHTTPServer(address: "127.0.0.2")
        } catch {
            throw XCTSkip("127.0.0.2 cannot be bound here (macOS answers on 127.0.0.1 only): \(error)")
        }
    }

    override func tearDown() {
        XCTAssertTrue(otherOrigin?.stop() ?? true)
        otherOrigin = nil
        super.tearDown()
    }

    /// The app's modifier: a token for `host` only, recorded per URL it saw.
    private func tokenModifier(for host: String, calls: ModifiedURLs) -> @Sendable (inout URLRequest) -> Void {
        { request in
            calls.record(request.url)
            guard request.url?.host == host else { return }
            request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
            request.setValue("key-for-\(host)", forHTTPHeaderField: "X-Api-Key")
        }
    }

    func test_redirectToAnotherOrigin_doesNotCarryTheModifiersFields() throws {
        // Given
        server.respond(to: "/a.png", with: .redirect(to: otherOrigin.url("/b.png").absoluteString))
        otherOrigin.respond(to: "/b.png", with: .ok([7]))
        let calls = ModifiedURLs()
        makeDownloader(requestModifier: tokenModifier(for: "127.0.0.1", calls: calls))
        // When
        download("/a.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/a.png")?.bytes, [7])
        XCTAssertEqual(server.receivedRequests.first?.value(forHeader: "Authorization"), "Bearer secret")
        let redirected = try XCTUnwrap(otherOrigin.receivedRequests.first)
        XCTAssertNil(redirected.value(forHeader: "Authorization"))
        XCTAssertNil(redirected.value(forHeader: "X-Api-Key"))
        XCTAssertEqual(calls.urls, [server.url("/a.png"), otherOrigin.url("/b.png")])
    }

    func test_redirectToAnotherOrigin_carriesWhatTheModifierSetsForIt() throws {
        // Given: a modifier that signs every host, each with its own key
        server.respond(to: "/a.png", with: .redirect(to: otherOrigin.url("/b.png").absoluteString))
        otherOrigin.respond(to: "/b.png", with: .ok([7]))
        makeDownloader { request in
            request.setValue("Bearer for-\(request.url?.host ?? "")", forHTTPHeaderField: "Authorization")
        }
        // When
        download("/a.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/a.png")?.bytes, [7])
        let redirected = try XCTUnwrap(otherOrigin.receivedRequests.first)
        XCTAssertEqual(redirected.value(forHeader: "Authorization"), "Bearer for-127.0.0.2")
    }

    func test_redirectToAnotherPortOfTheSameHost_isAnotherOrigin() throws {
        // Given: a token for the first server's port only
        let otherPort = try LoopbackHTTPServer()
        defer { otherPort.stop() }
        server.respond(to: "/a.png", with: .redirect(to: otherPort.url("/b.png").absoluteString))
        otherPort.respond(to: "/b.png", with: .ok([7]))
        let port = Int(server.port)
        makeDownloader { request in
            guard request.url?.port == port else { return }
            request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        }
        // When
        download("/a.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/a.png")?.bytes, [7])
        XCTAssertEqual(server.receivedRequests.first?.value(forHeader: "Authorization"), "Bearer secret")
        XCTAssertEqual(otherPort.statistics.requests(to: "/b.png"), 1)
        XCTAssertNil(otherPort.receivedRequests.first?.value(forHeader: "Authorization"))
    }

    func test_redirectWithinTheOrigin_keepsTheModifiersFields_withoutAnotherCall() throws {
        // Given
        server.respond(to: "/a.png", with: .redirect(to: "/b.png"))
        server.respond(to: "/b.png", with: .ok([7]))
        let calls = ModifiedURLs()
        makeDownloader(requestModifier: tokenModifier(for: "127.0.0.1", calls: calls))
        // When
        download("/a.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/a.png")?.bytes, [7])
        XCTAssertEqual(server.receivedRequests.last?.value(forHeader: "Authorization"), "Bearer secret")
        XCTAssertEqual(calls.urls, [server.url("/a.png")])
    }

    func test_redirectToAnotherOrigin_keepsTheConditionalFields() throws {
        // Given: a stored response to revalidate, redirected to a CDN that still has it
        server.respond(to: "/a.png", with: .redirect(to: otherOrigin.url("/b.png").absoluteString))
        var current = HTTPScriptedResponse.ok([7])
        current.entityTag = "\"v1\""
        otherOrigin.respond(to: "/b.png", with: current)
        makeDownloader()
        let stored = ResponseValidity(freshUntil: 0, revalidatesEveryUse: false, entityTag: "\"v1\"", lastModified: nil)
        // When
        download("/a.png", revalidating: stored)
        // Then
        XCTAssertEqual(outcomes.outcome("/a.png")?.isNotModified, true)
        XCTAssertEqual(otherOrigin.receivedRequests.first?.value(forHeader: "If-None-Match"), "\"v1\"")
    }

    func test_redirectToFileFTPOrData_isRefusedByTheDownloader() {
        // Given
        let targets = ["file:///etc/passwd", "ftp://127.0.0.1/a.png", "data:image/png;base64,iVBORw0KGgo="]
        for (index, target) in targets.enumerated() {
            server.respond(to: "/\(index).png", with: .redirect(to: target))
        }
        makeDownloader()
        // When
        for index in targets.indices { download("/\(index).png") }
        // Then: Foundation on Linux would have asked this server for /etc/passwd
        for (index, scheme) in ["file", "ftp", "data"].enumerated() {
            XCTAssertEqual(
                outcomes.outcome("/\(index).png")?.error,
                .downloadFailed(server.url("/\(index).png"), reason: "refused a redirect to a \(scheme): URL"))
        }
        XCTAssertEqual(server.receivedRequests.map(\.target).sorted(), ["/0.png", "/1.png", "/2.png"])
    }

    func test_userInfo_staysOutOfIdentities_andErrorMessages() throws {
        // Given
        let url = try XCTUnwrap(URL(string: "https://alice:hunter2@Example.com/a.png?w=1"))
        // When
        let identity = URLSource(url, cacheKey: nil).identity
        let messages = [
            ImageStoreError.downloadFailed(url, reason: "x"), .httpStatus(url, code: 404),
            .responseTooLarge(url, limit: 1), .responseTruncated(url, expected: 2, received: 1),
            .notInMemoryOrOnDisk(url), .unsupportedURL(url, reason: "x"),
        ].map(\.description)
        var stream = ResponseStream(
            url: url, identity: identity, limit: 1, bodyDirectory: bodies.url)
        _ = stream.allowsRedirect(from: url, to: URL(string: "http://bob:secret@example.com/b.png"))
        // Then
        XCTAssertEqual(identity.value, "https://example.com/a.png?w=1")
        XCTAssertEqual(messages.first, "cannot download https://Example.com/a.png?w=1: x")
        for text in messages + [ImageRequest.url(url).description, stream.failure?.description ?? ""] {
            XCTAssertFalse(text.contains("alice") || text.contains("hunter2") || text.contains("secret"), text)
        }
    }
}

/// The URLs a request modifier saw, from any thread.
private final class ModifiedURLs: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [URL?] = []

    func record(_ url: URL?) {
        lock.lock()
        seen.append(url)
        lock.unlock()
    }

    var urls: [URL?] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}
