import Foundation
import ImageCodecs
import WeakImageStore

/// One message's sticker on screen, as a strategy shows it: asked at every frame what to draw.
protocol StickerCell: AnyObject {
    /// The frame to draw at `now` (the run's clock, in seconds), or nil for the placeholder. Each
    /// cell's animation starts when its first frame is ready, as a view starts playing when its
    /// image is set.
    func draw(at now: TimeInterval) -> Bitmap?
    /// Frames that were due after the first was shown but not decoded in time.
    var lateFrames: Int { get }
    /// The message left the screen.
    func disappear()
}

/// Counts decodes across every cell of a run.
final class StickerDecodeCounter: Sendable {
    private let count = LockedBox(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

/// ``StickerStrategy/everyFrameUpFront``: a background decode of every frame, then playback.
final class UpFrontStickerCell: StickerCell, @unchecked Sendable {
    private let frames = LockedBox<[Bitmap]?>(nil)
    private var timing: AnimationInfo?
    private var origin: TimeInterval?
    private(set) var lateFrames = 0

    init(file: URL, maxPixelSize: Int, decodes: StickerDecodeCounter, queue: DispatchQueue) {
        queue.async { [weak self] in
            guard let data = try? Data(contentsOf: file),
                var cursor = try? BitmapDecoder().frameCursor(
                    for: data, options: DecodeOptions(maxPixelSize: maxPixelSize))
            else { return }
            var decoded: [Bitmap] = []
            while !cursor.isFinished, self != nil {
                guard let frame = try? cursor.nextFrame().image else { return }
                decodes.increment()
                decoded.append(frame)
            }
            self?.timing = cursor.info
            self?.frames.withLock { $0 = decoded }
        }
    }

    func draw(at now: TimeInterval) -> Bitmap? {
        guard let frames = frames.withLock({ $0 }), let timing else { return nil }
        let origin = origin ?? now
        self.origin = origin
        return frames[timing.frameIndex(at: now - origin) ?? frames.count - 1]
    }

    func disappear() {
        frames.withLock { $0 = nil }
    }
}

/// ``StickerStrategy/bufferPerView``: a cursor per view, decoding up to ten frames ahead of the
/// playhead on a background queue; frames behind the playhead are dropped.
final class BufferedStickerCell: StickerCell, @unchecked Sendable {
    private struct State {
        var info: AnimationInfo?
        var start: AnimationFrameCursor?
        var cursor: AnimationFrameCursor?
        var frames: [Int: Bitmap] = [:]
        var playhead = 0
        var filling = false
        var isGone = false
        var shown: Int?
        var origin: TimeInterval?
    }

    private let state = LockedBox(State())
    private let queue: DispatchQueue
    private let decodes: StickerDecodeCounter
    private(set) var lateFrames = 0
    private var lastLate: Int?

    init(file: URL, maxPixelSize: Int, decodes: StickerDecodeCounter, queue: DispatchQueue) {
        self.queue = queue
        self.decodes = decodes
        queue.async { [weak self] in
            guard let data = try? Data(contentsOf: file),
                let cursor = try? BitmapDecoder().frameCursor(
                    for: data, options: DecodeOptions(maxPixelSize: maxPixelSize))
            else { return }
            self?.state.withLock {
                $0.info = cursor.info
                $0.start = cursor
                $0.cursor = cursor
            }
            self?.fill()
        }
    }

    func draw(at now: TimeInterval) -> Bitmap? {
        let (image, due, needsFill) = state.withLock { state -> (Bitmap?, Int?, Bool) in
            guard let info = state.info else { return (nil, nil, false) }
            guard let origin = state.origin ?? (state.frames[0] != nil ? now : nil) else {
                return (nil, nil, !state.filling)
            }
            state.origin = origin
            let due = info.frameIndex(at: now - origin) ?? info.frameCount - 1
            state.playhead = due
            state.frames = state.frames.filter {
                Self.distance(from: due, to: $0.key, count: info.frameCount) < StickerStrategy.bufferedFrames
            }
            let image = state.frames[due] ?? state.shown.flatMap { state.frames[$0] }
            if state.frames[due] != nil { state.shown = due }
            return (image, state.frames[due] == nil ? due : nil, !state.filling)
        }
        if let due, image != nil, lastLate != due {
            lateFrames += 1
            lastLate = due
        }
        if needsFill { queue.async { [weak self] in self?.fill() } }
        return image
    }

    func disappear() {
        state.withLock {
            $0.isGone = true
            $0.frames = [:]
        }
    }

    /// Decodes on until the buffer holds the frames ahead of the playhead.
    private func fill() {
        guard
            state.withLock({ state in
                guard !state.filling, !state.isGone else { return false }
                state.filling = true
                return true
            })
        else { return }
        while true {
            let next = state.withLock { state -> AnimationFrameCursor? in
                guard !state.isGone, let info = state.info, var cursor = state.cursor else { return nil }
                if cursor.isFinished, let start = state.start { cursor = start }
                let ahead = Self.distance(from: state.playhead, to: cursor.nextFrameIndex, count: info.frameCount)
                guard ahead < StickerStrategy.bufferedFrames else { return nil }
                return cursor
            }
            guard var cursor = next else { break }
            let index = cursor.nextFrameIndex
            guard let frame = try? cursor.nextFrame().image else { break }
            decodes.increment()
            state.withLock {
                $0.cursor = cursor
                $0.frames[index] = frame
            }
        }
        state.withLock { $0.filling = false }
    }

    private static func distance(from playhead: Int, to index: Int, count: Int) -> Int {
        (index - playhead + count) % count
    }
}

/// ``StickerStrategy/sharedAnimation(frameBudget:)``: the store's shared animation and a player.
final class SharedStickerCell: StickerCell {
    private let animation = LockedBox<ImageAnimation<Bitmap>?>(nil)
    private var player: ImageAnimationPlayer<Bitmap>?
    private var task: Task<Void, Never>?

    var lateFrames: Int { player?.lateFrames ?? 0 }

    init(request: ImageRequest, store: ImageStore<Bitmap>) {
        if let cached = store.cachedAnimation(for: request) {
            animation.withLock { $0 = cached }
        } else {
            let box = animation
            task = Task.detached(priority: .userInitiated) {
                let loaded = try? await store.animation(for: request, priority: .high)
                box.withLock { $0 = loaded }
            }
        }
    }

    func draw(at now: TimeInterval) -> Bitmap? {
        if player == nil, let animation = animation.withLock({ $0 }) {
            player = ImageAnimationPlayer(animation)
            player?.play(at: now)
        }
        return player?.image(at: now)
    }

    func disappear() {
        task?.cancel()
        player = nil
        animation.withLock { $0 = nil }
    }
}
