/// The bytes of decoded animation frames that every animation of a store holds together, kept
/// under one limit (``ImageStore/Configuration/animationFrameBudget``).
///
/// Each animation asks before it keeps a frame or a keyframe; what it is refused it decodes
/// again when needed. The frame on screen and the one being decoded are never refused: they
/// exist anyway. A memory warning makes every animation drop all but the frame on screen.
final class FrameBudget: Sendable {
    private struct State {
        var held = 0
        var framesHeld = 0
        var frameDecodes = 0
        var framesLate = 0
        var animations: [ObjectIdentifier: WeakAnimation] = [:]
    }

    /// An animation the budget can ask to drop its frames, without keeping it alive.
    private struct WeakAnimation {
        weak var animation: (any FrameDropping)?
    }

    /// The most bytes of frames and keyframes kept at once.
    let limit: Int
    private let state: Lock<State>

    init(limit: Int) {
        precondition(limit >= 0, "the frame budget cannot be negative")
        self.limit = limit
        state = Lock(State())
    }

    /// Whether `frameCount` frames of `frameBytes` each fit in what is left now.
    func fitsWhole(frameCount: Int, frameBytes: Int) -> Bool {
        let (total, overflow) = frameCount.multipliedReportingOverflow(by: frameBytes)
        return !overflow && state.withLock { $0.held + total <= limit }
    }

    /// Takes `bytes` of the budget for a kept frame (or, with `isFrame` false, a keyframe), if
    /// they fit.
    func reserve(_ bytes: Int, isFrame: Bool = true) -> Bool {
        state.withLock { state in
            guard state.held + bytes <= limit else { return false }
            state.held += bytes
            if isFrame { state.framesHeld += 1 }
            return true
        }
    }

    /// Gives back what ``reserve(_:isFrame:)`` took.
    func release(_ bytes: Int, isFrame: Bool = true) {
        release(bytes, frames: isFrame ? 1 : 0)
    }

    /// Gives back `bytes` held by `frames` frames (and keyframes, which count as no frame) at once.
    func release(_ bytes: Int, frames: Int) {
        guard bytes > 0 else { return }
        state.withLock { state in
            state.held -= bytes
            state.framesHeld -= frames
        }
    }

    func recordDecode() {
        state.withLock { $0.frameDecodes += 1 }
    }

    func recordLateFrame() {
        state.withLock { $0.framesLate += 1 }
    }

    func register(_ animation: some FrameDropping) {
        state.withLock { $0.animations[ObjectIdentifier(animation)] = WeakAnimation(animation: animation) }
    }

    func unregister(_ id: ObjectIdentifier) {
        state.withLock { _ = $0.animations.removeValue(forKey: id) }
    }

    /// How many animations are alive: each one's window is its share of the budget.
    var animationCount: Int {
        state.withLock { $0.animations.count }
    }

    /// Asks every animation but `requester` to give back what lies outside its window, so the
    /// frames an animation needs next fit.
    func makeRoom(except requester: ObjectIdentifier) {
        let others = state.withLock { state in
            state.animations.filter { $0.key != requester }.compactMap(\.value.animation)
        }
        for animation in others { animation.giveBackFrames() }
    }

    /// Makes every animation drop the frames and keyframes it keeps, all but the frame on screen.
    func dropFramesOffScreen() {
        let animations = state.withLock { $0.animations.values.compactMap(\.animation) }
        for animation in animations { animation.dropFramesOffScreen() }
    }

    /// The budget's figures, into a store's statistics.
    func addStatistics(to statistics: inout ImageStoreStatistics) {
        state.withLock { state in
            statistics.animationFrameDecodes = state.frameDecodes
            statistics.animationFramesHeld = state.framesHeld
            statistics.animationFrameBytesHeld = state.held
            statistics.animationFramesLate = state.framesLate
            statistics.animationFrameBudget = limit
        }
    }
}

/// An animation whose kept frames a memory warning can take.
protocol FrameDropping: AnyObject, Sendable {
    func giveBackFrames()
    func dropFramesOffScreen()
}
