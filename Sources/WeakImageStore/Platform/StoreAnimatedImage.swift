#if canImport(SwiftUI) && (canImport(UIKit) || (canImport(AppKit) && !targetEnvironment(macCatalyst)))
import SwiftUI
#if canImport(UIKit)
import UIKit
#else
import AppKit
#endif

/// A SwiftUI view that plays an animated image from an ``ImageStore`` — a sticker, a loading
/// indicator — sharing its decoded frames with every other view that shows it.
///
/// ```swift
/// StoreAnimatedImage(.named("stickers/wave", maxPixelSize: 240), from: images)
///     .frame(width: 80, height: 80)
/// ```
///
/// The animation loads on the store's loading threads while a placeholder shows (at once if
/// someone holds it already), then plays on the display's refresh (`TimelineView(.animation)`),
/// skipping frames that are late rather than slowing the clock. With Reduce Motion on it shows the
/// first frame. A still image shows as itself.
@MainActor
public struct StoreAnimatedImage<Placeholder: View>: View {
    #if canImport(UIKit)
    /// The images the view's store holds: `UIImage` with UIKit.
    public typealias StoredImage = UIImage
    #else
    /// The images the view's store holds: ``SharedNSImage`` with AppKit.
    public typealias StoredImage = SharedNSImage
    #endif

    private let request: ImageRequest
    private let store: ImageStore<StoredImage>
    private let priority: ImageLoadPriority
    private let placeholder: () -> Placeholder
    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    /// The player of the loaded animation, with the request it answers.
    @State private var loaded: (request: ImageRequest, player: ImageAnimationPlayer<StoredImage>)?

    /// Creates a view playing the animation `request` names.
    ///
    /// - Parameters:
    ///   - request: The file, and the size every frame is decoded at.
    ///   - store: The store to load from.
    ///   - priority: The load's priority. Defaults to `.high`: the view is on screen.
    ///   - placeholder: What to show while it loads, and if it cannot be loaded.
    public init(
        _ request: ImageRequest, from store: ImageStore<StoredImage>, priority: ImageLoadPriority = .high,
        @ViewBuilder placeholder: @escaping () -> Placeholder
    ) {
        self.request = request
        self.store = store
        self.priority = priority
        self.placeholder = placeholder
    }

    /// The playing frames, or the placeholder with the task that loads the animation.
    public var body: some View {
        if let player = player(for: request) {
            TimelineView(.animation(minimumInterval: nil, paused: reduceMotion || player.animation.frameCount == 1)) {
                context in
                frame(of: player, at: context.date)
            }
        } else {
            placeholder().task(id: request) { await load(request) }
        }
    }

    private func player(for request: ImageRequest) -> ImageAnimationPlayer<StoredImage>? {
        if let loaded, loaded.request == request { return loaded.player }
        return nil
    }

    private func frame(of player: ImageAnimationPlayer<StoredImage>, at date: Date) -> some View {
        let now = date.timeIntervalSinceReferenceDate
        player.reducesMotion = reduceMotion
        player.play(at: now)
        let image = player.image(at: now) ?? player.animation.cachedFrame(at: 0)
        return Group {
            if let image {
                Self.swiftUIImage(image).resizable().scaledToFit()
            } else {
                placeholder()
            }
        }
    }

    private func load(_ request: ImageRequest) async {
        let animation: ImageAnimation<StoredImage>?
        if let cached = store.cachedAnimation(for: request) {
            animation = cached
        } else {
            animation = try? await store.animation(for: request, priority: priority)
        }
        guard let animation, !Task.isCancelled else { return }
        loaded = (request, ImageAnimationPlayer(animation))
    }

    private static func swiftUIImage(_ image: StoredImage) -> Image {
        #if canImport(UIKit)
        Image(uiImage: image)
        #else
        Image(nsImage: image.makeNSImage())
        #endif
    }
}

extension StoreAnimatedImage where Placeholder == Color {
    /// Creates a view playing the animation `request` names over a light gray placeholder.
    ///
    /// - Parameters:
    ///   - request: The file, and the size every frame is decoded at.
    ///   - store: The store to load from.
    ///   - priority: The load's priority. Defaults to `.high`: the view is on screen.
    public init(_ request: ImageRequest, from store: ImageStore<StoredImage>, priority: ImageLoadPriority = .high) {
        self.init(request, from: store, priority: priority) { Color.gray.opacity(0.2) }
    }
}
#endif
