import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs

/// The suites' compressed references: every stored one is listed, and a reference is returned
/// only when what the package's inflater produced has the listed digest.
final class SuiteReferencesTests: XCTestCase {
    /// SHA-256 of "abc", FIPS 180-4's first example.
    private static let abcDigest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    func test_everySuite_listsExactlyTheReferencesItStores() throws {
        for (suite, count) in [("pngsuite", 161), ("jpegsuite", 293), ("thumbsuite", 312)] {
            // Given
            let folder = try SharedTestData.directory(named: suite)
            // When
            let references = try SuiteReferences(folder: folder)
            let stored = try FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent("reference").path)
            // Then: no raw reference left beside the packed ones, none unlisted
            XCTAssertEqual(Set(stored.map { "reference/\($0)" }), references.storedPaths, suite)
            XCTAssertEqual(references.storedPaths.count, count, suite)
            XCTAssertTrue(stored.allSatisfy { $0.hasSuffix(".rgba.zz") }, suite)
        }
    }

    func test_pixels_areTheInflatedBytes_whenTheirDigestMatches() throws {
        // Given
        let folder = makeSuite(listing: "reference/abc.rgba.zz\t3\t\(Self.abcDigest)")
        // When
        let pixels = try SuiteReferences(folder: folder.url).pixels("reference/abc.rgba")
        // Then
        XCTAssertEqual(pixels, Array("abc".utf8))
    }

    func test_pixels_throwDigestMismatch_whenTheInflatedBytesDiffer() throws {
        // Given: the digest of "abd" listed for "abc"
        let wrong = "a52d159f262b2c6ddb724a61840befc36eb30c88877a4030b65cbe86298449c9"
        let folder = makeSuite(listing: "reference/abc.rgba.zz\t3\t\(wrong)")
        // When / Then
        XCTAssertThrowsError(try SuiteReferences(folder: folder.url).pixels("reference/abc.rgba")) { error in
            XCTAssertEqual(
                error as? SuiteReferences.Failure,
                .digestMismatch(path: "reference/abc.rgba.zz", listed: wrong, computed: Self.abcDigest))
        }
    }

    func test_pixels_throwTheInflaterError_whenTheListedSizeIsWrong() throws {
        // Given
        let folder = makeSuite(listing: "reference/abc.rgba.zz\t4\t\(Self.abcDigest)")
        // When / Then
        XCTAssertThrowsError(try SuiteReferences(folder: folder.url).pixels("reference/abc.rgba")) { error in
            XCTAssertEqual(
                error as? SuiteReferences.Failure,
                .inflate(path: "reference/abc.rgba.zz", .tooLittleData(expected: 4, actual: 3)))
        }
    }

    func test_pixels_throwNotListed_forAReferenceMissingFromTheTable() throws {
        // Given
        let folder = makeSuite(listing: "reference/abc.rgba.zz\t3\t\(Self.abcDigest)")
        // When / Then
        XCTAssertThrowsError(try SuiteReferences(folder: folder.url).pixels("reference/abd.rgba")) { error in
            XCTAssertEqual(error as? SuiteReferences.Failure, .notListed(path: "reference/abd.rgba.zz"))
        }
    }

    /// A suite folder holding "abc" compressed as `reference/abc.rgba.zz`, listed by `listing`.
    private func makeSuite(listing: String) -> TestDirectory {
        let folder = TestDirectory()
        folder.write("reference/abc.rgba.zz", ZlibStream.compressed(Array("abc".utf8)))
        folder.write("REFERENCES.tsv", Array("file\tbytes\tsha256\n\(listing)\n".utf8))
        return folder
    }
}
