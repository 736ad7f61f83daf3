/// The UI thread's frames: each drawn by a ``FrameClock`` at 60 frames per second, and its time
/// kept, for a ``FrameTimedRun``.
struct FrameLoop {
    private var clock = FrameClock()
    /// Every frame drawn so far, in order.
    private(set) var frames: [ScrollingRun.Frame] = []

    /// Makes room for `count` frames, so that appending one never reallocates inside a frame loop.
    mutating func reserveCapacity(_ count: Int) {
        frames.reserveCapacity(count)
    }

    /// Waits for the next tick, runs `atTick` untimed, then runs `work` and keeps the frame's
    /// time.
    mutating func draw(atTick: () -> Void = {}, _ work: () -> Void) {
        frames.append(clock.drawFrame(atTick: atTick, work))
    }

    /// Starts the ticks again from now, as a relaunched app's display link does.
    mutating func restartClock() {
        clock = FrameClock()
    }
}
