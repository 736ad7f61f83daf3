import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A name that finds nothing says what was tried, where, and what came close: the mistakes a
/// newcomer makes (no extension for a JPEG, the wrong letter case, a folder that is not there).
final class NameSearchTests: XCTestCase {
    private func search(_ name: String, in directories: [URL]) throws -> NameSearch {
        let store = makeStore(directories: directories)
        do {
            _ = try store.loadImage(named: name)
        } catch {
            guard case .notFound(let found, let search?) = error else { throw error }
            XCTAssertEqual(found, name)
            XCTAssertEqual(error.localizedDescription, error.description, "LocalizedError gives the same sentence")
            return search
        }
        throw UnexpectedlyFound(name: name)
    }

    private struct UnexpectedlyFound: Error {
        let name: String
    }

    func test_missingName_listsTheFilesTriedInEachDirectory() throws {
        let directory = TestDirectory()
        let search = try self.search("ghost", in: [directory.url])
        XCTAssertEqual(search.fileNames, ["ghost@2x.png", "ghost@3x.png", "ghost.png"])
        XCTAssertEqual(search.directories, [directory.url.standardizedFileURL.path])
        XCTAssertEqual(search.missingDirectories, [])
        XCTAssertEqual(search.configuredExtensions, ["png"])
        XCTAssertEqual(search.differentCase + search.otherExtensions, [])
        XCTAssertTrue(
            search.description.hasPrefix("tried ghost@2x.png, ghost@3x.png, ghost.png in \(search.directories[0])"),
            search.description)
    }

    func test_nameWithoutItsExtension_pointsAtTheFileWithAnotherExtension() throws {
        // Given: beach.jpg, asked for as "beach" from a store whose extensions are ["png"]
        let directory = TestDirectory()
        directory.write("beach.jpg", size: 10)
        directory.write("beach@2x.jpeg", size: 10)
        directory.write("beachball.jpg", size: 10)
        // When
        let search = try self.search("beach", in: [directory.url])
        // Then
        XCTAssertEqual(search.otherExtensions, ["beach.jpg", "beach@2x.jpeg"])
        XCTAssertTrue(search.description.contains("store's extensions only (png)"), search.description)
        XCTAssertTrue(search.description.contains("beach.jpg (another extension"), search.description)
    }

    func test_wrongLetterCase_isNamed() throws {
        // Given: the file's extension is upper case, and a folder's file differs in case
        let directory = TestDirectory()
        directory.write("beach.JPG", size: 10)
        _ = directory.makeDirectory("photos")
        directory.write("photos/Sunset.png", size: 10)
        // When
        let beach = try search("beach.jpg", in: [directory.url])
        let sunset = try search("photos/sunset", in: [directory.url])
        // Then
        XCTAssertEqual(beach.differentCase, ["beach.JPG"])
        XCTAssertEqual(beach.configuredExtensions, [], "the name gave its extension")
        XCTAssertEqual(sunset.differentCase, ["photos/Sunset.png"])
        XCTAssertTrue(beach.description.contains("letter case differs"), beach.description)
    }

    func test_directoryThatDoesNotExist_isSaidToBeMissing() throws {
        let directory = TestDirectory()
        let absent = directory.url.appendingPathComponent("Images")
        let search = try self.search("icon", in: [absent, directory.url])
        XCTAssertEqual(search.missingDirectories, [absent.standardizedFileURL.path])
        XCTAssertTrue(search.description.contains("Images (does not exist)"), search.description)
    }

    func test_folderOutsideTheDirectory_isNotListed() throws {
        // Given: a link inside the directory to a folder outside it, holding a similar file
        let outside = TestDirectory()
        outside.write("secret.jpg", size: 10)
        let directory = TestDirectory()
        try FileManager.default.createSymbolicLink(
            atPath: directory.url.appendingPathComponent("linked").path, withDestinationPath: outside.url.path)
        // When
        let search = try self.search("linked/secret", in: [directory.url])
        // Then: nothing of the outside folder is named
        XCTAssertEqual(search.otherExtensions + search.differentCase, [])
    }

    func test_errorsAndBitmaps_describeThemselves() {
        let error: Error = PNGError.badSignature
        XCTAssertEqual(error.localizedDescription, (error as? PNGError)?.description)
        XCTAssertEqual(
            Bitmap(width: 3, height: 2, scale: 2, format: .rgba8, pixels: [UInt8](repeating: 0, count: 24)).description,
            "Bitmap(3 × 2 rgba8, scale 2)")
    }
}
