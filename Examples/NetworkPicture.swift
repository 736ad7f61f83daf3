import Foundation

/// A row of a feed of network pictures: the picture is known by its URL only.
struct NetworkPicture: Identifiable, Hashable, Sendable {
    let id: Int
    let caption: String
    let url: URL

    /// Pictures from a feed service: each row's picture at a URL of its own.
    static func sample(count: Int = 300, base: URL = URL(string: "https://images.example.com/feed")!)
        -> [NetworkPicture]
    {
        (0..<count).map { index in
            NetworkPicture(
                id: index, caption: "Picture \(index + 1)", url: base.appendingPathComponent("\(index).jpg"))
        }
    }
}
