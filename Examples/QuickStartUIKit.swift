// The README's UIKit quick start. The lines between the "README" markers are quoted in README.md
// verbatim (Tests/WeakImageStoreTests/Documentation/ReadmeQuickStartTests.swift checks that), so
// the README's snippet is type-checked with the other examples by Scripts/typecheck-apple.sh.
#if canImport(UIKit) && !os(watchOS)
import UIKit
import WeakImageStore

// README: begin
final class ProfileViewController: UIViewController {
    let images = ImageStore<UIImage>(.init())  // the main bundle's image files, decoded with ImageIO
    private var memoryPressure: MemoryPressureSubscription?
    private let badge = UIImageView()
    private let photo = UIImageView()

    override func viewDidLoad() {
        super.viewDidLoad()
        memoryPressure = images.subscribeToSystemMemoryPressure()  // keep it as long as the store

        // Like UIImage(named:): badge@3x.png on a 3x iPhone; a miss decodes on this thread.
        badge.image = images.image(named: "badge")

        // A large photo: loaded and decoded off the main thread, at the size it is shown.
        Task {
            // `fetchImage` is the asynchronous load: decoded on the loading threads, not this one.
            photo.image = try? await images.fetchImage(named: "beach.jpg", maxPixelSize: 1200, priority: .high)
        }
    }
}
// README: end
#endif
