import WeakImageStore

/// The images the views of a replay hold, and the bytes of the distinct images among them:
/// the least any strategy that shares instances can keep alive.
struct OnScreenImages {
    private var viewImages: [Int: [(file: String, image: Bitmap)]] = [:]
    /// How many held references each file has, and its decoded size.
    private var holders: [String: (count: Int, cost: Int)] = [:]
    private(set) var inUseBytes = 0

    /// A view appears holding `images`.
    mutating func show(view: Int, images: [(file: String, image: Bitmap)]) {
        precondition(viewImages[view] == nil, "view \(view) is shown twice")
        viewImages[view] = images
        for (file, image) in images {
            let held = holders[file, default: (0, image.cost)]
            if held.count == 0 { inUseBytes += image.cost }
            holders[file] = (held.count + 1, held.cost)
        }
    }

    /// A view goes away; its images are released here unless something else holds them.
    mutating func hide(view: Int) {
        guard let images = viewImages.removeValue(forKey: view) else { return }
        for (file, _) in images {
            guard let held = holders[file] else { continue }
            if held.count == 1 {
                holders[file] = nil
                inUseBytes -= held.cost
            } else {
                holders[file] = (held.count - 1, held.cost)
            }
        }
    }

    /// Every view goes away.
    mutating func removeAll() {
        viewImages.removeAll()
        holders.removeAll()
        inUseBytes = 0
    }
}
