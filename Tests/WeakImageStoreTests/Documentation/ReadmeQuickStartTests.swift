import Foundation
import ImageStoreTestSupport
import WeakImageStore
import XCTest

/// The README's quick starts are code that compiles and runs: the Linux one runs here against a
/// folder of generated images, and the Apple ones are type-checked in `Examples/`. Each snippet
/// is marked in its source (`// README: begin` … `// README: end`), and the README must quote it
/// line for line, so the two cannot drift apart.
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
            let snippet = try XCTUnwrap(Self.markedSnippet(in: source), "\(path) has no README markers")

            XCTAssertTrue(
                readme.contains("\n" + snippet + "\n"),
                "README.md does not quote the snippet of \(path) line for line:\n\(snippet)")
        }
    }

    /// The package's folder: this file is `Tests/WeakImageStoreTests/Documentation/<name>.swift`.
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The lines between `// README: begin` and `// README: end`, without their common indentation.
    private static func markedSnippet(in source: String) -> String? {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = trimmed.firstIndex(of: "// README: begin"),
            let end = trimmed[begin...].firstIndex(of: "// README: end")
        else { return nil }
        let body = lines[(begin + 1)..<end]
        let indentation =
            body.filter { !$0.allSatisfy(\.isWhitespace) }
            .map { $0.prefix(while: { $0 == " " }).count }
            .min() ?? 0
        return body.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indentation)) }
            .joined(separator: "\n")
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
