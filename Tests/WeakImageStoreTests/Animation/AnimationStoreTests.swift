import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class AnimationStoreTests: XCTestCase {
    private func store(
        _ directory: TestDirectory, decoder: SyntheticAnimationDecoder, frameBudget: Int = 64 << 20
    ) -> ImageStore<Bitmap> {
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url], decoder: decoder)
        configuration.extensions = ["anim"]
        configuration.animationFrameBudget = frameBudget
        return ImageStore(configuration)
    }

    func test_oneAnimation_isShared_whileHeld_andFreedWithItsLastUser() throws {
        // Given
        let directory = TestDirectory()
        directory.write("wave.anim", SyntheticAnimationDecoder.file(frames: 5))
        let store = store(directory, decoder: SyntheticAnimationDecoder())
        // When
        var first: ImageAnimation<Bitmap>? = try store.loadAnimation(for: .named("wave"))
        var second: ImageAnimation<Bitmap>? = try store.loadAnimation(
            for: .file(directory.url.appendingPathComponent("wave.anim").path))
        // Then
        XCTAssertTrue(first === second)
        XCTAssertEqual(second?.frameCount, 5)
        XCTAssertEqual(second?.pixelSize.width, 8)
        weak let released = first
        first = nil
        XCTAssertNotNil(released, "the second user still holds it")
        second = nil
        XCTAssertNil(released, "freed with its last user")
    }

    func test_anAnimationThatFits_decodesEachFrameOnce_overManyLoops() throws {
        // Given
        let directory = TestDirectory()
        directory.write("wave.anim", SyntheticAnimationDecoder.file(frames: 6))
        let decoder = SyntheticAnimationDecoder()
        let store = store(directory, decoder: decoder)
        let animation = try store.loadAnimation(for: .named("wave"))
        // When: three loops
        for index in 0..<18 {
            let frame = try animation.frame(at: index % 6)
            XCTAssertEqual(frame.pixels[0], UInt8(index % 6))
        }
        // Then
        XCTAssertEqual(decoder.decodes.value, 6)
        XCTAssertEqual(store.statistics.animationFrameDecodes, 6)
        XCTAssertEqual(store.statistics.animationFramesHeld, 6, "every frame, in the budget")
        XCTAssertEqual(store.statistics.animationFrameBytesHeld, 6 * 256)
    }

    func test_aLargerAnimation_keepsAWindowWithinTheBudget_andSeeksFromKeyframes() throws {
        // Given: 100 frames of 8 × 8 (256 bytes), a budget of 8 frames and a keyframe's canvas
        let directory = TestDirectory()
        directory.write("long.anim", SyntheticAnimationDecoder.file(frames: 100))
        let decoder = SyntheticAnimationDecoder()
        let store = store(directory, decoder: decoder, frameBudget: 256 * 10)
        let animation = try store.loadAnimation(for: .named("long"))
        // When: frame 60, then back to 40
        XCTAssertEqual(try animation.frame(at: 60).pixels[0], 60)
        let before = decoder.decodes.value
        XCTAssertEqual(try animation.frame(at: 40).pixels[0], 40)
        // Then: the keyframe before frame 32 or 48 spares a replay from the start
        XCTAssertLessThanOrEqual(decoder.decodes.value - before, 16)
        XCTAssertLessThanOrEqual(store.statistics.animationFrameBytesHeld, 256 * 10)
    }

    func test_anAnimationThatKeptEverything_givesBackItsFrames_whenAnotherNeedsTheRoom() throws {
        // Given: a budget of 12 frames; the first animation keeps its 10
        let directory = TestDirectory()
        directory.write("short.anim", SyntheticAnimationDecoder.file(frames: 10))
        directory.write("long.anim", SyntheticAnimationDecoder.file(frames: 40))
        let store = store(directory, decoder: SyntheticAnimationDecoder(), frameBudget: 12 * 256)
        let short = try store.loadAnimation(for: .named("short"))
        for index in 0..<10 { _ = try short.frame(at: index) }
        XCTAssertEqual(store.statistics.animationFramesHeld, 10)
        // When: the second animation plays its first frames
        let long = try store.loadAnimation(for: .named("long"))
        for index in 0..<3 { _ = try long.frame(at: index) }
        // Then: the first gave back what lies outside its window, the second keeps its window
        XCTAssertNotNil(long.cachedFrame(at: 2))
        XCTAssertLessThan((0..<10).filter { short.cachedFrame(at: $0) != nil }.count, 10)
        XCTAssertLessThanOrEqual(store.statistics.animationFrameBytesHeld, 12 * 256)
    }

    func test_memoryWarning_dropsEveryFrameButTheOneOnScreen() throws {
        // Given
        let directory = TestDirectory()
        directory.write("wave.anim", SyntheticAnimationDecoder.file(frames: 6))
        let store = store(directory, decoder: SyntheticAnimationDecoder())
        let animation = try store.loadAnimation(for: .named("wave"))
        for index in 0..<6 { _ = try animation.frame(at: index) }
        // What a player does when frame 2 is due (without its decoding ahead, which would race).
        animation.show(2, try animation.frame(at: 2))
        // When
        store.handleMemoryPressure(.warning)
        // Then
        XCTAssertEqual(store.statistics.animationFramesHeld, 0)
        XCTAssertEqual(store.statistics.animationFrameBytesHeld, 0)
        XCTAssertNotNil(animation.cachedFrame(at: 2), "the frame on screen stays")
        XCTAssertNil(animation.cachedFrame(at: 3))
    }

    func test_liveCost_countsTheFramesExactly() throws {
        // Given
        let directory = TestDirectory()
        directory.write("wave.anim", SyntheticAnimationDecoder.file(frames: 4))
        let store = store(directory, decoder: SyntheticAnimationDecoder())
        let before = store.statistics.liveCost
        // When
        var animation: ImageAnimation<Bitmap>? = try store.loadAnimation(for: .named("wave"))
        for index in 0..<4 { _ = try animation?.frame(at: index) }
        let whilePlaying = store.statistics.liveCost
        animation = nil
        // Then: four frames of 256 bytes and the file's 4 bytes, then nothing
        XCTAssertEqual(whilePlaying - before, 4 * 256 + 4)
        XCTAssertEqual(store.statistics.liveCost, before)
        XCTAssertEqual(store.statistics.animationFrameBytesHeld, 0)
    }

    func test_aStillImage_isAnAnimationOfOneFrame() throws {
        // Given
        let directory = TestDirectory()
        directory.write("still.anim", SyntheticAnimationDecoder.file(frames: 1))
        let store = store(directory, decoder: SyntheticAnimationDecoder())
        // When
        let animation = try store.loadAnimation(for: .named("still"))
        // Then
        XCTAssertEqual(animation.frameCount, 1)
        XCTAssertEqual(animation.frameIndex(at: 10), 0)
        XCTAssertEqual(try animation.frame(at: 0).width, 8)
    }

    func test_maxPixelSize_appliesToEveryFrame() throws {
        // Given
        let directory = TestDirectory()
        directory.write("wave.anim", SyntheticAnimationDecoder.file(frames: 3, width: 16, height: 8))
        let store = store(directory, decoder: SyntheticAnimationDecoder())
        // When
        let animation = try store.loadAnimation(for: .named("wave", maxPixelSize: 4))
        // Then
        XCTAssertEqual(animation.pixelSize.width, 4)
        for index in 0..<3 { XCTAssertEqual(try animation.frame(at: index).width, 4) }
        XCTAssertFalse(animation === (try store.loadAnimation(for: .named("wave"))))
    }

    func test_asyncFrames_decodeOnTheLoadingThreads() async throws {
        // Given
        let directory = TestDirectory()
        directory.write("wave.anim", SyntheticAnimationDecoder.file(frames: 5))
        let store = store(directory, decoder: SyntheticAnimationDecoder())
        let animation = try await store.animation(for: .named("wave"), priority: .high)
        // When
        let frame = try await animation.fetchFrame(at: 4, priority: .high)
        // Then
        XCTAssertEqual(frame.pixels[0], 4)
    }

    func test_player_showsTheDueFrame_countsLateOnes_andDecodesAhead() throws {
        // Given: 20 frames of 100 ms, a budget of two frames (a window of two)
        let directory = TestDirectory()
        directory.write("wave.anim", SyntheticAnimationDecoder.file(frames: 20))
        let store = store(directory, decoder: SyntheticAnimationDecoder(), frameBudget: 2 * 256)
        let player = ImageAnimationPlayer(try store.loadAnimation(for: .named("wave")))
        // When: the first frame is ready at once
        player.play(at: 5)
        XCTAssertEqual(player.image(at: 5)?.pixels[0], 0)
        // Then: the frames ahead are decoded on the loading threads before they are due
        let deadline = Date().addingTimeInterval(5)
        while player.animation.cachedFrame(at: 1) == nil, Date() < deadline { usleep(1000) }
        XCTAssertEqual(player.image(at: 5.15)?.pixels[0], 1)
        XCTAssertEqual(player.lateFrames, 0)
        // When: a jump far ahead finds its frame not decoded
        let shown = player.image(at: 6.55)
        // Then: the frame on screen stays, and the late one is counted once
        XCTAssertNotEqual(shown?.pixels[0], 15)
        _ = player.image(at: 6.56)
        XCTAssertLessThanOrEqual(player.lateFrames, 1)
        XCTAssertEqual(store.statistics.animationFramesLate, player.lateFrames)
    }

    func test_reducedMotion_showsTheFirstFrame() throws {
        // Given
        let directory = TestDirectory()
        directory.write("wave.anim", SyntheticAnimationDecoder.file(frames: 4))
        let store = store(directory, decoder: SyntheticAnimationDecoder())
        let player = ImageAnimationPlayer(try store.loadAnimation(for: .named("wave")))
        player.reducesMotion = true
        // When
        player.play(at: 0)
        // Then
        XCTAssertEqual(player.image(at: 3)?.pixels[0], 0)
    }
}
