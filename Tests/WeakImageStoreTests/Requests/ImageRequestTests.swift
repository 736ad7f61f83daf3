import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// `ImageRequest` as a value: equal exactly when it names the same image (the source's identity
/// plus the output size), with a hash and a description to match.
final class ImageRequestTests: XCTestCase {
    private func url(_ string: String) -> URL {
        URL(string: string)!
    }

    private func assertEqualRequests(
        _ first: ImageRequest, _ second: ImageRequest, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(first, second, file: file, line: line)
        XCTAssertEqual(first.hashValue, second.hashValue, "equal requests hash apart", file: file, line: line)
        XCTAssertEqual(Set([first, second]).count, 1, file: file, line: line)
    }

    // MARK: Size

    func test_maxPixelSize_isPartOfTheRequest() {
        let full = ImageRequest.named("icon")
        let thumbnail = ImageRequest.named("icon", maxPixelSize: 64)

        XCTAssertNil(full.maxPixelSize)
        XCTAssertEqual(thumbnail.maxPixelSize, 64)
        XCTAssertNotEqual(full, thumbnail)
        XCTAssertNotEqual(thumbnail, .named("icon", maxPixelSize: 65))
        assertEqualRequests(thumbnail, .named("icon", maxPixelSize: 64))
    }

    func test_withMaxPixelSize_keepsTheSource_andChangesOnlyTheSize() {
        let provider = TestDataProvider(identity: "avatar/42", size: 10)
        let requests: [ImageRequest] = [
            .named("icon"), .file("/images/photo.png"), .url(url("https://example.com/a.png")),
            .url(url("https://example.com/a.png?token=1"), cacheKey: "a"), .provider(provider),
        ]

        for request in requests {
            let thumbnail = request.withMaxPixelSize(64)

            XCTAssertEqual(thumbnail.maxPixelSize, 64, "\(request)")
            XCTAssertNotEqual(thumbnail, request, "\(request)")
            XCTAssertEqual(thumbnail.withMaxPixelSize(nil), request, "\(request)")
            XCTAssertEqual(thumbnail.withMaxPixelSize(32), request.withMaxPixelSize(32), "\(request)")
        }
        assertEqualRequests(ImageRequest.named("icon").withMaxPixelSize(64), .named("icon", maxPixelSize: 64))
        assertEqualRequests(ImageRequest.provider(provider).withMaxPixelSize(8), .provider(provider, maxPixelSize: 8))
    }

    // MARK: URLs

    func test_urlIdentity_ignoresSchemeAndHostCase_defaultPort_andFragment() {
        let canonical = ImageRequest.url(url("http://example.com/images/a.png"))

        assertEqualRequests(.url(url("HTTP://Example.COM/images/a.png")), canonical)
        assertEqualRequests(.url(url("http://example.com:80/images/a.png")), canonical)
        assertEqualRequests(.url(url("http://example.com/images/a.png#top")), canonical)
        assertEqualRequests(.url(url("Http://EXAMPLE.com:80/images/a.png#top")), canonical)
        assertEqualRequests(.url(url("HTTPS://Example.com:443/a.png")), .url(url("https://example.com/a.png")))
    }

    func test_urlIdentity_keepsTheQuery_thePath_theScheme_andOtherPorts() {
        let plain = ImageRequest.url(url("https://example.com/a.png"))
        let different: [ImageRequest] = [
            .url(url("https://example.com/a.png?size=large")),
            .url(url("https://example.com/a.png?size=small")),
            .url(url("https://example.com/A.png")),
            .url(url("http://example.com/a.png")),
            .url(url("https://example.com:8443/a.png")),
            .url(url("https://example.org/a.png")),
        ]

        for request in different { XCTAssertNotEqual(request, plain, "\(request)") }
        XCTAssertEqual(Set(different + [plain]).count, different.count + 1, "distinct URLs collided in a set")
    }

    func test_cacheKey_replacesTheURL_inTheIdentity() {
        let first = ImageRequest.url(url("https://cdn.example.com/a.png?token=abc"), cacheKey: "photo-7")
        let second = ImageRequest.url(url("https://mirror.example.org/b.png?token=xyz"), cacheKey: "photo-7")

        assertEqualRequests(first, second)
        assertEqualRequests(first.withMaxPixelSize(64), second.withMaxPixelSize(64))
        XCTAssertNotEqual(first, .url(url("https://cdn.example.com/a.png?token=abc"), cacheKey: "photo-8"))
        XCTAssertNotEqual(first, .url(url("https://cdn.example.com/a.png?token=abc")), "a cache key is not the URL")
    }

    // MARK: Providers

    func test_providers_areEqual_exactlyWhenIdentityAndVersionAre() {
        let provider = TestDataProvider(identity: "avatar/42", version: "3", size: 10)
        let twin = TestDataProvider(identity: "avatar/42", version: "3", size: 10)

        assertEqualRequests(.provider(provider), .provider(twin))
        assertEqualRequests(.provider(provider, maxPixelSize: 64), .provider(twin, maxPixelSize: 64))
        XCTAssertNotEqual(
            ImageRequest.provider(provider), .provider(TestDataProvider(identity: "avatar/42", version: "4", size: 10)))
        XCTAssertNotEqual(
            ImageRequest.provider(provider), .provider(TestDataProvider(identity: "avatar/43", version: "3", size: 10)))
    }

    func test_identitiesOfDifferentKinds_neverCollide() {
        let path = "/images/icon.png"
        let requests: [ImageRequest] = [
            .named("icon.png"),
            .named(path),
            .file(path),
            .url(url("https://example.com/icon.png")),
            .url(url("https://example.com/other.png"), cacheKey: path),
            .provider(TestDataProvider(identity: path, size: 10)),
            .provider(TestDataProvider(identity: "icon.png", size: 10)),
            .provider(TestDataProvider(identity: "https://example.com/icon.png", size: 10)),
        ]

        XCTAssertEqual(Set(requests).count, requests.count, "requests of different kinds compared equal")
    }

    // MARK: Description

    func test_description_namesTheSource_andTheSize() {
        let provider = TestDataProvider(identity: "avatar/42", version: "v3", size: 10)

        XCTAssertTrue(ImageRequest.named("icon").description.contains("icon"))
        XCTAssertTrue(ImageRequest.file("/images/photo.png").description.contains("/images/photo.png"))
        XCTAssertTrue(ImageRequest.url(url("https://example.com/a.png")).description.contains("example.com/a.png"))
        XCTAssertTrue(
            ImageRequest.url(url("https://example.com/a.png"), cacheKey: "photo-7").description.contains("photo-7"))
        let providerDescription = ImageRequest.provider(provider).description
        XCTAssertTrue(providerDescription.contains("avatar/42"), providerDescription)
        XCTAssertTrue(providerDescription.contains("v3"), providerDescription)
        XCTAssertTrue(ImageRequest.named("icon", maxPixelSize: 64).description.contains("64"))
    }

    func test_description_differs_forRequestsThatDiffer() {
        let requests: [ImageRequest] = [
            .named("icon"), .named("icon", maxPixelSize: 64), .named("icon", maxPixelSize: 128),
            .file("/images/icon.png"), .url(url("https://example.com/icon.png")),
            .url(url("https://example.com/icon.png"), cacheKey: "icon"),
            .provider(TestDataProvider(identity: "icon", version: "1", size: 10)),
            .provider(TestDataProvider(identity: "icon", version: "2", size: 10)),
        ]

        let descriptions = requests.map(\.description)

        XCTAssertEqual(Set(descriptions).count, requests.count, "\(descriptions)")
    }
}
