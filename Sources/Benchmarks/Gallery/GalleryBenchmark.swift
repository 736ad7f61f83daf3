import Foundation
import WeakImageStore

/// Plays the gallery in every ``GalleryMode`` on a dedicated UI thread, each run with a fresh
/// store: on the default policy, then under a live-cost budget of the default LRU's size.
struct GalleryBenchmark {
    /// The budgeted runs' live-cost limit: the default LRU's 16 MiB, now counting what the
    /// views hold too.
    static let liveCostLimit = 16 * 1024 * 1024

    let grid: GalleryGrid
    let root: URL
    let profile: GalleryProfile

    /// Every mode on both policies, reporting progress on standard error.
    func run() -> [GalleryRun] {
        [nil, Self.liveCostLimit].flatMap { liveCostLimit in
            GalleryMode.allCases.map { mode in run(mode, liveCostLimit: liveCostLimit) }
        }
    }

    private func run(_ mode: GalleryMode, liveCostLimit: Int?) -> GalleryRun {
        let grid = grid
        let profile = profile
        let policy = liveCostLimit.map { CachePolicy.budgeted(liveCostLimit: $0) } ?? .default
        let session = UIThreadSession.run(root: root, policy: policy) { store in
            GalleryUIThread(mode: mode, grid: grid, profile: profile, store: store).play()
        }
        let run = GalleryRun(mode: mode, liveCostLimit: liveCostLimit, session: session)
        Console.progress("  gallery, \(run.label)")
        return run
    }
}
