/// The image names the workloads look up, and what each one stands for.
///
/// The built-in corpus and a user's corpus fill the same layout, so every workload runs
/// unchanged on either. Names carry no scale or extension, as in `UIImage(named:)`: the store
/// tries each of ``fileExtensions`` in turn and, for each, `@2x`, then `@3x`, then the plain
/// file.
struct CorpusLayout {
    /// What an image is in the app, which decides its size.
    enum Role {
        /// Toolbar glyphs, list icons, the shared "like" icon: small, reused everywhere.
        case icon
        /// Profile pictures in the feed: small, shared by many rows.
        case avatar
        /// One per feed row: large, shown once per pass.
        case photo
        /// One per pager page: the largest.
        case page
        /// One per screen: wide banners.
        case header
    }

    /// An image the layout needs, as a file name relative to the corpus root.
    struct Entry {
        let name: String
        let role: Role
    }

    /// The extensions every store and peer of the benchmark tries, in order, for a name: icons
    /// and flat UI are PNG files, photos JPEG files (a user's corpus may use either spelling).
    static let fileExtensions = ["png", "jpg", "jpeg"]

    static let avatarCount = 40
    static let feedIconCount = 12
    static let screenIconCount = 150
    static let sharedIcon = "shared/like"

    let feedRowCount: Int
    let pageCount: Int
    let screenCount: Int

    init(profile: BenchmarkProfile) {
        feedRowCount = profile.feedRowCount
        pageCount = profile.pageCount
        screenCount = profile.screenCount
    }

    static func avatar(_ index: Int) -> String { "feed/avatar-\(padded(index, 2))" }
    static func feedIcon(_ index: Int) -> String { "feed/icon-\(padded(index, 2))" }
    static func photo(_ row: Int) -> String { "feed/photo-\(padded(row, 3))" }
    static func page(_ index: Int) -> String { "pager/page-\(padded(index, 2))" }
    static func screenIcon(_ index: Int) -> String { "screens/icon-\(padded(index, 3))" }
    static func header(_ screen: Int) -> String { "screens/header-\(padded(screen, 2))" }

    /// Every image name with its role.
    var entries: [Entry] {
        [Entry(name: Self.sharedIcon, role: .icon)]
            + (0..<Self.feedIconCount).map { Entry(name: Self.feedIcon($0), role: .icon) }
            + (0..<Self.screenIconCount).map { Entry(name: Self.screenIcon($0), role: .icon) }
            + (0..<Self.avatarCount).map { Entry(name: Self.avatar($0), role: .avatar) }
            + (0..<feedRowCount).map { Entry(name: Self.photo($0), role: .photo) }
            + (0..<pageCount).map { Entry(name: Self.page($0), role: .page) }
            + (0..<screenCount).map { Entry(name: Self.header($0), role: .header) }
    }

    private static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
