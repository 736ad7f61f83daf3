import Foundation

/// One row of the example feed: a title and the name of its image in the store.
struct FeedItem: Hashable, Identifiable, Sendable {
    let id: Int
    let title: String
    /// A store name such as `"avatars/ada"`: `avatars/ada@2x.png`, `avatars/ada@3x.png`, …
    let imageName: String

    /// A feed of `count` rows over `distinctImages` avatars, so rows share images as real feeds do.
    static func sample(count: Int = 500, distinctImages: Int = 40) -> [FeedItem] {
        (0..<count).map { index in
            FeedItem(id: index, title: "Post \(index + 1)", imageName: "avatars/\(index % distinctImages)")
        }
    }
}
