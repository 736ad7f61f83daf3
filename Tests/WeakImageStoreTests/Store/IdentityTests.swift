import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Identity is the resolved file: every spelling of one file returns the same instance.
final class IdentityTests: XCTestCase {
    func test_everySpellingOfOneFile_returnsTheSameInstance() throws {
        for policy in [CachePolicy.strong, .retainCountSweep] + weakPolicies {
            let directory = TestDirectory()
            let path = directory.write("icon@2x.png", size: 10)
            let store = makeStore(policy: policy, directories: [directory.url])

            let byName = try store.loadImage(named: "icon")
            XCTAssertIdentical(try store.loadImage(named: "icon.png"), byName, "\(policy)")
            XCTAssertIdentical(try store.loadImage(named: "icon@2x"), byName, "\(policy)")
            XCTAssertIdentical(try store.loadImage(named: "icon@2x.png"), byName, "\(policy)")
            XCTAssertIdentical(try store.loadImage(contentsOfFile: path), byName, "\(policy)")
            XCTAssertEqual(store.statistics.decodes, 1, "\(policy)")
        }
    }

    func test_symbolicLinkInsideTheDirectory_sharesWithItsTarget() throws {
        let directory = TestDirectory()
        directory.write("real.png", size: 4)
        try FileManager.default.createSymbolicLink(
            atPath: directory.path + "/alias.png", withDestinationPath: "real.png"
        )
        let store = makeStore(policy: .weak, directories: [directory.url])

        let real = try store.loadImage(named: "real")
        XCTAssertIdentical(try store.loadImage(named: "alias"), real)
    }

    func test_differentScalesOfOneName_areDifferentImages() throws {
        let directory = TestDirectory()
        directory.write("icon@2x.png", size: 2)
        directory.write("icon@3x.png", size: 3)
        let store = makeStore(directories: [directory.url])

        XCTAssertNotIdentical(try store.loadImage(named: "icon@2x"), try store.loadImage(named: "icon@3x"))
    }

    func test_uncached_decodesANewInstanceEveryTime() throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 3)
        let store = makeStore(policy: .uncached, directories: [directory.url])

        let first = try store.loadImage(named: "icon")
        let second = try store.loadImage(named: "icon")

        XCTAssertNotIdentical(first, second)
        XCTAssertEqual(store.statistics.decodes, 2)
    }
}
