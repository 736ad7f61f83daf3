import Foundation
import WeakImageStore

/// One workload replayed against one `ImageStore<Bitmap>`, sampled after every step: the live
/// bytes the store reports beside the exact bytes of live bitmaps and the bytes the views hold.
struct AccountingTrace {
    let label: String
    /// The policy's live-byte budget, or nil.
    let budget: Int?
    /// `statistics.liveCost` after every step.
    var storeLiveBytes: [Int] = []
    /// `Bitmap.memory.liveBytes` (minus what was alive before) after every step.
    var bitmapLiveBytes: [Int] = []
    /// Bytes of the distinct images the views hold after every step: the floor.
    var inUseBytes: [Int] = []
    var decodes = 0
    var budgetOverruns = 0

    /// Steps at which the store's figure differs from the bitmaps' own accounting.
    var mismatchedSteps: Int {
        zip(storeLiveBytes, bitmapLiveBytes).filter { $0 != $1 }.count
    }

    /// The most live bytes exceeded max(budget, in use) by, over all steps; 0 when within.
    var largestExcessOverBudget: Int {
        guard let budget else { return 0 }
        return zip(bitmapLiveBytes, inUseBytes).map { max(0, $0 - max(budget, $1)) }.max() ?? 0
    }

    var peakLiveBytes: Int { bitmapLiveBytes.max() ?? 0 }

    /// Replays `workload` on a fresh store with `policy` over `corpus`.
    static func replay(
        _ workload: Workload, corpus: Corpus, policy: CachePolicy, label: String, budget: Int?
    ) -> AccountingTrace {
        var trace = AccountingTrace(label: label, budget: budget)
        let baseline = Bitmap.memory.liveBytes
        var configuration = ImageStore<Bitmap>.Configuration(directories: [corpus.root], decoder: BitmapDecoder())
        configuration.policy = policy
        configuration.extensions = CorpusLayout.fileExtensions
        let store = ImageStore(configuration)
        var screen = OnScreenImages()
        for step in workload.steps {
            for action in step.actions {
                switch action {
                case .show(let view, let names):
                    let images = names.compactMap { name in store.image(named: name).map { (file: name, image: $0) } }
                    screen.show(view: view, images: images)
                case .hide(let view):
                    screen.hide(view: view)
                case .memoryWarning:
                    store.handleMemoryPressure(.warning)
                }
            }
            trace.storeLiveBytes.append(store.statistics.liveCost)
            trace.bitmapLiveBytes.append(Bitmap.memory.liveBytes - baseline)
            trace.inUseBytes.append(screen.inUseBytes)
        }
        let statistics = store.statistics
        trace.decodes = statistics.decodes
        trace.budgetOverruns = statistics.budgetOverruns
        screen.removeAll()
        return trace
    }
}
