#if canImport(Darwin)
import Dispatch
import Foundation
#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif

/// Forwards the system's memory warnings to an ``ImageStore`` until it is cancelled or freed.
///
/// | source | forwarded as |
/// |---|---|
/// | `DispatchSource` memory pressure `.warning` | ``MemoryPressureLevel/warning`` |
/// | `DispatchSource` memory pressure `.critical` | ``MemoryPressureLevel/critical`` |
/// | `UIApplication.didReceiveMemoryWarningNotification` | ``MemoryPressureLevel/critical`` (the app's last notice before termination) |
///
/// Keep the subscription for as long as the store should listen; freeing it cancels it. It holds
/// the store weakly, so it never keeps a store alive, and nothing else holds the subscription.
/// Warnings are forwarded on a Dispatch queue or on the thread that posts the notification (the
/// main thread): the store's ``ImageStore/handleMemoryPressure(_:)`` is safe on any thread.
public final class MemoryPressureSubscription {
    private let sources: [any DispatchSourceMemoryPressure]
    private var notificationObserver: (any NSObjectProtocol)?

    init(handler: @escaping @Sendable (MemoryPressureLevel) -> Void) {
        // One source per level, so a handler needs nothing but its level: it does not capture its
        // source, and no source, handler and subscription can keep each other alive.
        sources = [(DispatchSource.MemoryPressureEvent.warning, MemoryPressureLevel.warning), (.critical, .critical)]
            .map { event, level in
                let source = DispatchSource.makeMemoryPressureSource(eventMask: event, queue: .global(qos: .utility))
                source.setEventHandler { handler(level) }
                source.activate()
                return source
            }
        #if canImport(UIKit) && !os(watchOS)
        notificationObserver = NotificationCenter.default.addObserver(
            forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: nil
        ) { _ in
            handler(.critical)
        }
        #endif
    }

    deinit {
        cancel()
    }

    /// Stops forwarding. Calling it again does nothing.
    public func cancel() {
        for source in sources {
            source.cancel()
        }
        if let notificationObserver {
            NotificationCenter.default.removeObserver(notificationObserver)
            self.notificationObserver = nil
        }
    }
}

extension ImageStore {
    /// Subscribes the store to the system's memory warnings.
    ///
    /// ```swift
    /// let images = ImageStore<UIImage>(.init())
    /// let subscription = images.subscribeToSystemMemoryPressure()  // keep it
    /// ```
    ///
    /// - Returns: The subscription; the store listens while it is alive.
    public func subscribeToSystemMemoryPressure() -> MemoryPressureSubscription {
        MemoryPressureSubscription { [weak self] level in
            self?.handleMemoryPressure(level)
        }
    }
}
#endif
