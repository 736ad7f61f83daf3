#if canImport(UIKit) && !os(watchOS)
import UIKit

/// A view that plays an ``ImageAnimation`` on the display's refresh (`CADisplayLink`), sharing the
/// animation's decoded frames with every other view that shows it.
///
/// ```swift
/// let view = AnimatedImageView()
/// view.animation = try store.loadAnimation(for: .named("stickers/wave", maxPixelSize: 240))
/// ```
///
/// It plays while it is in a window, visible and not fully transparent, and stops otherwise; it
/// shows the first frame only when Reduce Motion is on. A frame not decoded when it is due is
/// skipped — the clock never slows — and counted in ``ImageStoreStatistics/animationFramesLate``.
/// ``ImageViewLoader/setAnimation(_:from:priority:placeholder:)`` loads animations into it for
/// cells.
@MainActor
public final class AnimatedImageView: UIImageView {
    /// The animation shown; nil shows ``UIImageView/image`` as a plain image view does.
    public var animation: ImageAnimation<UIImage>? {
        didSet {
            guard animation !== oldValue else { return }
            player = animation.map(ImageAnimationPlayer.init)
            if let animation { image = animation.cachedFrame(at: 0) }
            updatePlayback()
        }
    }

    private var player: ImageAnimationPlayer<UIImage>?
    private var displayLink: CADisplayLink?
    /// Whether the app wants it to play: ``startAnimating()`` and ``stopAnimating()``.
    private var wantsPlayback = true
    private var reduceMotionObserver: (any NSObjectProtocol)?

    /// Whether the animation is playing now.
    public var isPlaying: Bool { player?.isPlaying ?? false }

    /// Whether the animation is playing now (UIKit's name for ``isPlaying``).
    public override var isAnimating: Bool { isPlaying }

    /// Plays the animation whenever the view is visible (the default).
    public override func startAnimating() {
        wantsPlayback = true
        updatePlayback()
    }

    /// Stops the animation on the frame shown until ``startAnimating()``.
    public override func stopAnimating() {
        wantsPlayback = false
        updatePlayback()
    }

    public override func didMoveToWindow() {
        super.didMoveToWindow()
        if window != nil, reduceMotionObserver == nil {
            reduceMotionObserver = NotificationCenter.default.addObserver(
                forName: UIAccessibility.reduceMotionStatusDidChangeNotification, object: nil, queue: .main
            ) { [weak self] _ in
                MainActor.assumeIsolated { self?.updatePlayback() }
            }
        }
        updatePlayback()
    }

    public override var isHidden: Bool {
        didSet { updatePlayback() }
    }

    public override var alpha: CGFloat {
        didSet { updatePlayback() }
    }

    /// Starts or stops the clock and the display link for what the view is now.
    private func updatePlayback() {
        guard let player else {
            stopDisplayLink()
            return
        }
        player.reducesMotion = UIAccessibility.isReduceMotionEnabled
        let now = CACurrentMediaTime()
        let visible = window != nil && !isHidden && alpha > 0
        if wantsPlayback, visible, !player.reducesMotion, player.animation.frameCount > 1 {
            player.play(at: now)
            startDisplayLink()
        } else {
            player.pause(at: now)
            stopDisplayLink()
            if let frame = player.image(at: now) { image = frame }
        }
    }

    private func startDisplayLink() {
        guard displayLink == nil else { return }
        let link = CADisplayLink(target: DisplayLinkTarget(self), selector: #selector(DisplayLinkTarget.step(_:)))
        link.add(to: .main, forMode: .common)
        displayLink = link
    }

    private func stopDisplayLink() {
        displayLink?.invalidate()
        displayLink = nil
    }

    fileprivate func step(at time: CFTimeInterval) {
        guard let player else { return }
        if let frame = player.image(at: time), frame !== image { image = frame }
        if !player.isPlaying { stopDisplayLink() }
    }
}

/// The display link's target: a display link retains its target, which must not be the view.
@MainActor
private final class DisplayLinkTarget: NSObject {
    private weak var view: AnimatedImageView?

    init(_ view: AnimatedImageView) {
        self.view = view
    }

    @objc func step(_ link: CADisplayLink) {
        guard let view else {
            link.invalidate()
            return
        }
        view.step(at: link.targetTimestamp)
    }
}
#endif
