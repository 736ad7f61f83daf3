import Foundation
import ImageStoreTestSupport
import XCTest

@testable import WeakImageStore

/// `ImageStore.Configuration`: its defaults are the ones the initialisers had, and every knob set
/// on it reaches the store.
final class ConfigurationTests: XCTestCase {
    func test_bitmapDefaults_areTheInitialisersDefaults() {
        // When
        let configuration = ImageStore<Bitmap>.Configuration(directories: [])
        // Then
        XCTAssertEqual(configuration.policy, .default)
        XCTAssertEqual(configuration.scales, [2, 3, 1])
        XCTAssertEqual(configuration.extensions, ["png"])
        XCTAssertEqual(configuration.maximumFileSize, 64 * 1024 * 1024)
        XCTAssertEqual(configuration.maximumConcurrentLoads, ProcessInfo.processInfo.activeProcessorCount)
        XCTAssertEqual(
            configuration.maximumConcurrentDecodingBytes, ImageStore<Bitmap>.defaultMaximumConcurrentDecodingBytes)
        XCTAssertNil(configuration.diskCache)
    }

    func test_bitmapDefaultDecoder_decodesPNGAndJPEG() throws {
        // Given
        let directory = TestDirectory()
        let bitmap = Bitmap(width: 8, height: 8, format: .gray8, pixels: [UInt8](repeating: 128, count: 64))
        directory.write("icon.png", [UInt8](PNGEncoder.encode(bitmap)))
        directory.write("photo.jpg", [UInt8](JPEGEncoder.encode(bitmap)))
        let store = ImageStore(ImageStore<Bitmap>.Configuration(directories: [directory.url]))
        // When
        let icon = try store.loadImage(named: "icon")
        let photo = try store.loadImage(named: "photo.jpg")
        // Then
        XCTAssertEqual(icon.width, 8)
        XCTAssertEqual(photo.width, 8)
    }

    func test_store_readsBackItsConfiguration() {
        // Given
        var configuration = ImageStore<Bitmap>.Configuration(directories: [], decoder: FakeDecoder())
        configuration.policy = .weak
        configuration.extensions = ["jpg"]
        configuration.maximumConcurrentLoads = 3
        // When
        let store = ImageStore(configuration)
        // Then
        XCTAssertEqual(store.configuration.policy, .weak)
        XCTAssertEqual(store.configuration.extensions, ["jpg"])
        XCTAssertEqual(store.configuration.maximumConcurrentLoads, 3)
    }

    func test_maximumFileSize_refusesALargerFile() throws {
        // Given
        let directory = TestDirectory()
        directory.write("huge.png", size: 2000)
        let decoder = FakeDecoder()
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url], decoder: decoder)
        configuration.maximumFileSize = 1000
        let store = ImageStore(configuration)
        // When
        XCTAssertThrowsError(try store.loadImage(named: "huge")) { error in
            // Then
            guard case .fileTooLarge(_, 2000, 1000) = error as? ImageStoreError else {
                return XCTFail("expected fileTooLarge(size: 2000, limit: 1000), got \(error)")
            }
        }
        XCTAssertEqual(decoder.calls.count, 0)
    }

    func test_maximumConcurrentLoads_boundsTheLoadsRunningAtOnce() async throws {
        // Given
        let directory = TestDirectory()
        let gate = DecodeGate()
        var gates: [UInt8: DecodeGate] = [:]
        for index in 0..<6 {
            directory.write("img\(index).png", size: 100 + index, fill: UInt8(index))
            gates[UInt8(index)] = gate
        }
        var configuration = ImageStore<Bitmap>.Configuration(
            directories: [directory.url], decoder: FakeDecoder(gates: gates))
        configuration.maximumConcurrentLoads = 1
        let store = ImageStore(configuration)
        // When
        let tasks = (0..<6).map { index in Task { try await store.fetchImage(named: "img\(index)") } }
        // Then
        XCTAssertTrue(eventually { store.statistics.loadsScheduled == 6 && gate.arrived == 1 })
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(gate.arrived, 1, "more decodes started than maximumConcurrentLoads")
        gate.open()
        for task in tasks { _ = try await task.value }
    }

    func test_scalesAndExtensions_chooseTheFile() throws {
        // Given
        let directory = TestDirectory()
        directory.write("icon@2x.png", size: 20, fill: 2)
        directory.write("icon@3x.jpg", size: 30, fill: 3)
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url], decoder: FakeDecoder())
        configuration.scales = [3, 2, 1]
        configuration.extensions = ["jpg", "png"]
        let store = ImageStore(configuration)
        // When
        let icon = try store.loadImage(named: "icon")
        // Then
        XCTAssertEqual(icon.scale, 3)
        XCTAssertEqual(icon.width, 30)
    }

    func test_policy_reachesTheStore() throws {
        // Given
        let directory = TestDirectory()
        directory.write("icon.png", size: 10)
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url], decoder: FakeDecoder())
        configuration.policy = .uncached
        let store = ImageStore(configuration)
        // When
        let first = try store.loadImage(named: "icon")
        let second = try store.loadImage(named: "icon")
        // Then: the default policy would share one instance
        XCTAssertNotIdentical(first, second)
    }
}
