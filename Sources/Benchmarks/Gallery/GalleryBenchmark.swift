import Foundation

/// Plays the gallery in every ``GalleryMode`` on a dedicated UI thread, each run with a fresh
/// store on the default policy.
struct GalleryBenchmark {
    let grid: GalleryGrid
    let root: URL
    let profile: GalleryProfile

    /// Every mode, reporting progress on standard error.
    func run() -> [GalleryRun] {
        GalleryMode.allCases.map { mode in
            FileHandle.standardError.write(Data("  gallery, \(mode.label)…\n".utf8))
            return run(mode)
        }
    }

    private func run(_ mode: GalleryMode) -> GalleryRun {
        let grid = grid
        let profile = profile
        return GalleryRun(
            mode: mode,
            session: UIThreadSession.run(root: root) { store in
                GalleryUIThread(mode: mode, grid: grid, profile: profile, store: store).play()
            })
    }
}
