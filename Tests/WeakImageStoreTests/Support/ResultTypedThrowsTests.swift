import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class ResultTypedThrowsTests: XCTestCase {
    func test_typedGet_returnsTheValue_whenSuccess() throws {
        let result = Result<Int, ImageStoreError>.success(7)

        XCTAssertEqual(try result.typedGet(), 7)
    }

    func test_typedGet_throwsTheFailureWithItsType_whenFailure() {
        let result = Result<Int, ImageStoreError>.failure(.notFound(name: "icon"))

        do throws(ImageStoreError) {
            _ = try result.typedGet()
            XCTFail("expected a thrown ImageStoreError")
        } catch {
            XCTAssertEqual(error, .notFound(name: "icon"))
        }
    }

    func test_typedCatching_capturesTheValue_whenBodyReturns() {
        let result = Result<Int, ImageStoreError>(typedCatching: { () throws(ImageStoreError) -> Int in 3 })

        XCTAssertEqual(result, .success(3))
    }

    func test_typedCatching_capturesTheError_whenBodyThrows() {
        let result = Result<Int, ImageStoreError>(typedCatching: { () throws(ImageStoreError) -> Int in
            throw .fileTooLarge(path: "/a.png", size: 9, limit: 8)
        })

        XCTAssertEqual(result, .failure(.fileTooLarge(path: "/a.png", size: 9, limit: 8)))
    }
}
