import Foundation
import WeakImageStore

/// Plays the blob list at every ``ScrollSpeed`` with every ``BlobListStrategy`` on a dedicated UI
/// thread, each run with a fresh store on the default policy.
struct BlobListBenchmark {
    let table: BlobTable
    let profile: BlobListProfile

    /// Every speed × strategy, reporting progress on standard error.
    func run() -> [BlobListRun] {
        ScrollSpeed.allCases.flatMap { speed in
            BlobListStrategy.allCases.map { strategy in
                Console.progress("  blob list \(speed.label), \(strategy.label)…")
                return run(strategy, speed)
            }
        }
    }

    private func run(_ strategy: BlobListStrategy, _ speed: ScrollSpeed) -> BlobListRun {
        let table = table
        let profile = profile
        table.resetUsage()
        // Provider requests never look in the store's directories; any directory will do.
        let session = UIThreadSession.run(root: FileManager.default.temporaryDirectory) { store in
            BlobListUIThread(strategy: strategy, speed: speed, table: table, profile: profile, store: store).play(
                settleSeconds: profile.settleSeconds, firstLookSeconds: profile.firstLookSeconds)
        }
        return BlobListRun(strategy: strategy, speed: speed, session: session, blobs: table.usage)
    }
}
