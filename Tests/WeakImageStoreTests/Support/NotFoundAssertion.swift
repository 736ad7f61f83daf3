import WeakImageStore
import XCTest

/// Asserts that `error` is ``ImageStoreError/notFound(name:search:)`` for `name` after a search by
/// name (its ``NameSearch`` is checked by the resolution tests).
func XCTAssertNotFound(_ error: Error?, name: String, file: StaticString = #filePath, line: UInt = #line) {
    guard case .notFound(let found, let search)? = error as? ImageStoreError else {
        return XCTFail("expected notFound(\(name)), got \(String(describing: error))", file: file, line: line)
    }
    XCTAssertEqual(found, name, file: file, line: line)
    XCTAssertNotNil(search, "a lookup by name says what it tried", file: file, line: line)
}
