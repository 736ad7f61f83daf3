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
/// Keep the subscription for as long as the store should listen. It holds the store weakly.
public final class MemoryPressureSubscription {
    private let source: any DispatchSourceMemoryPressure
    private var notificationToken: (any NSObjectProtocol)?

    init(handler: @escaping @Sendable (MemoryPressureLevel) -> Void) {
        source = DispatchSource.makeMemoryPressureSource(eventMask: [.warning, .critical], queue: .global())
        source.setEventHandler { [source] in
            let event = source.data
            if event.contains(.critical) {
                handler(.critical)
            } else if event.contains(.warning) {
                handler(.warning)
            }
        }
        source.activate()
        #if canImport(UIKit) && !os(watchOS)
        notificationToken = NotificationCenter.default.addObserver(
            forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: nil
        ) { _ in
            handler(.critical)
        }
        #endif
    }

    deinit {
        cancel()
    }

    /// Stops forwarding.
    public func cancel() {
        source.cancel()
        if let notificationToken {
            NotificationCenter.default.removeObserver(notificationToken)
            self.notificationToken = nil
        }
    }
}

extension ImageStore {
    /// Subscribes the store to the system's memory warnings.
    ///
    /// ```swift
    /// let images = ImageStore<UIImage>()
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
