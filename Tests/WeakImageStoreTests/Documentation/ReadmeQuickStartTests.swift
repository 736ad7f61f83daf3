import Foundation
import ImageStoreTestSupport
import WeakImageStore
import XCTest

/// The README's quick starts are code that compiles and runs: the two Linux ones run here, against
/// a folder of generated images and against the loopback HTTP server, and the Apple ones are
/// type-checked in `Examples/`. Each snippet is marked in its source (`// README: begin` …
/// `// README: end`), and the README must quote it line for line, so the two cannot drift apart.
final class ReadmeQuickStartTests: XCTestCase {
    func test_linuxQuickStart_sharesTheIcon_andDecodesThePhotoAndItsThumbnail() throws {
        // Given a folder as an app ships it: an icon at 2x and 3x, a photo named with its extension.
        let directory = TestDirectory()
        directory.write("icon@2x.png", [UInt8](PNGEncoder.encode(Self.opaqueImage(width: 64, height: 64))))
        directory.write("icon@3x.png", [UInt8](PNGEncoder.encode(Self.opaqueImage(width: 96, height: 96))))
        directory.write("beach.jpg", [UInt8](JPEGEncoder.encode(Self.opaqueImage(width: 640, height: 480))))
        let imagesFolder = directory.url

        // When the README's snippet runs
        // README: begin
        let images = ImageStore<Bitmap>(.init(directories: [imagesFolder]))  // PNG and JPEG, in Swift

        let icon = images.image(named: "icon")  // icon@2x.png, else icon@3x.png, else icon.png
        let same = images.image(named: "icon@2x.png")  // the same instance, while `icon` is alive
        let photo = try images.loadImage(named: "beach.jpg")  // throws ImageStoreError with the reason
        let thumbnail = images.image(named: "beach.jpg", maxPixelSize: 256)  // decoded straight to 256 × 192
        let bytes = images.statistics.liveCost  // decoded bytes of its images alive now, exactly
        // README: end

        // Then the comments are true
        let sharedIcon = try XCTUnwrap(icon)
        XCTAssertIdentical(sharedIcon, same)
        XCTAssertEqual(sharedIcon.scale, 2)
        XCTAssertEqual(sharedIcon.width, 64)
        XCTAssertEqual(photo.width, 640)
        XCTAssertEqual(photo.height, 480)
        XCTAssertEqual(photo.format, .rgba8)
        let smallPhoto = try XCTUnwrap(thumbnail)
        XCTAssertEqual(smallPhoto.width, 256)
        XCTAssertEqual(smallPhoto.height, 192)
        XCTAssertEqual(images.statistics.decodes, 3)
        // The icon is RGB without alpha, kept as rgba8 (64 × 64 × 4 bytes), and so are the photo
        // (640 × 480 × 4) and its thumbnail (256 × 192 × 4).
        XCTAssertEqual(bytes, 64 * 64 * 4 + 640 * 480 * 4 + 256 * 192 * 4)
        withExtendedLifetime((sharedIcon, photo, smallPhoto)) {
            XCTAssertEqual(images.statistics.liveCost, bytes, "nothing was freed while held")
        }
    }

    func test_linuxNetworkQuickStart_downloadsOnce_andKeepsTheBytesOnDisk() async throws {
        // Given a server with one 1024 × 768 photo, and an empty folder for the disk cache.
        let server = try LoopbackHTTPServer()
        defer { _ = server.stop() }
        let jpeg = JPEGEncoder.encode(Self.opaqueImage(width: 1024, height: 768))
        server.respond(to: "/beach.jpg", with: .ok([UInt8](jpeg)))
        let photoURL = server.url("/beach.jpg")
        let directory = TestDirectory()
        let cacheFolder = directory.url.appendingPathComponent("pictures")

        // When the README's snippet runs
        // README: begin
        var configuration = ImageStore<Bitmap>.Configuration(directories: [])  // no folders: URLs only
        configuration.diskCache = try DiskImageCache(directory: cacheFolder)  // downloads kept here, ≤ 150 MiB
        let pictures = ImageStore(configuration)

        let thumbnail = try await pictures.fetchImage(for: .url(photoURL, maxPixelSize: 256))  // one GET: 256 × 192
        let same = pictures.cachedImage(for: .url(photoURL, maxPixelSize: 256))  // from memory, the same instance
        let photo = try await pictures.fetchImage(for: .url(photoURL))  // 1024 × 768, from the disk: no second GET
        // README: end

        // Then the comments are true
        XCTAssertEqual(thumbnail.width, 256)
        XCTAssertEqual(thumbnail.height, 192)
        XCTAssertIdentical(try XCTUnwrap(same), thumbnail)
        XCTAssertEqual(photo.width, 1024)
        XCTAssertEqual(photo.height, 768)
        XCTAssertEqual(server.statistics.requests(to: "/beach.jpg"), 1, "one GET for both sizes")
        XCTAssertEqual(pictures.statistics.diskHits, 1, "the full size was read from the disk cache")
        // And a store opened later on the same folder (a relaunch) needs no network either.
        var relaunched = ImageStore<Bitmap>.Configuration(directories: [])
        relaunched.diskCache = try DiskImageCache(directory: cacheFolder)
        let afterRelaunch = try await ImageStore(relaunched).fetchImage(for: .url(photoURL, maxPixelSize: 256))
        XCTAssertEqual(afterRelaunch.width, 256)
        XCTAssertEqual(server.statistics.requests(to: "/beach.jpg"), 1, "still one GET after the relaunch")
    }

    func test_readme_quotesEveryQuickStart_lineForLine() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let sources = [
            "Tests/WeakImageStoreTests/Documentation/ReadmeQuickStartTests.swift",
            "Examples/QuickStartUIKit.swift",
            "Examples/QuickStartSwiftUI.swift",
            "Examples/QuickStartNetwork.swift",
        ]

        for path in sources {
            let source = try String(contentsOf: Self.packageRoot.appendingPathComponent(path), encoding: .utf8)
            let snippets = Self.markedSnippets(in: source)
            XCTAssertFalse(snippets.isEmpty, "\(path) has no README markers")

            for snippet in snippets {
                XCTAssertTrue(
                    readme.contains("\n" + snippet + "\n"),
                    "README.md does not quote a snippet of \(path) line for line:\n\(snippet)")
            }
        }
    }

    /// The package's folder: this file is `Tests/WeakImageStoreTests/Documentation/<name>.swift`.
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every run of lines between `// README: begin` and `// README: end`, in order, each without
    /// its common indentation.
    private static func markedSnippets(in source: String) -> [String] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }
        var snippets: [String] = []
        var searchFrom = trimmed.startIndex
        while let begin = trimmed[searchFrom...].firstIndex(of: "// README: begin"),
            let end = trimmed[begin...].firstIndex(of: "// README: end")
        {
            let body = lines[(begin + 1)..<end]
            let indentation =
                body.filter { !$0.allSatisfy(\.isWhitespace) }
                .map { $0.prefix(while: { $0 == " " }).count }
                .min() ?? 0
            snippets.append(
                body.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indentation)) }
                    .joined(separator: "\n"))
            searchFrom = end + 1
        }
        return snippets
    }

    /// An opaque RGBA image with some texture, so the encoders have something to compress.
    private static func opaqueImage(width: Int, height: Int) -> Bitmap {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8((x * 3) % 256), UInt8((y * 5) % 256), UInt8((x + y) % 256), 255]
            }
        }
        return Bitmap(width: width, height: height, format: .rgba8, pixels: pixels)
    }
}
