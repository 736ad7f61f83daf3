/// A replay of UI behaviour: views appear and look up their images, hold them while on screen
/// and release them when they go. Each step is one UI event (a scroll by one row, a swipe, a
/// push), after which the replay samples memory.
struct Workload {
    /// What happens to the views during a step.
    enum Action {
        /// A view appears and looks up `images`, in order, holding every result.
        case show(view: Int, images: [String])
        /// A view goes away and releases its images.
        case hide(view: Int)
        /// The system asks for memory: the replay calls `handleMemoryPressure(.warning)`.
        case memoryWarning
    }

    /// One UI event.
    struct Step {
        let actions: [Action]

        var isMemoryWarning: Bool {
            actions.contains { if case .memoryWarning = $0 { true } else { false } }
        }
    }

    /// The file name of the chart and the key in the CSV.
    let slug: String
    let title: String
    /// What the replay does, one sentence.
    let description: String
    let steps: [Step]

    var lookupCount: Int {
        steps.reduce(0) { count, step in
            step.actions.reduce(count) { count, action in
                if case .show(_, let images) = action { count + images.count } else { count }
            }
        }
    }

    /// The four replays of the benchmark, for the corpus's layout.
    static func all(for layout: CorpusLayout, navigationEventCount: Int) -> [Workload] {
        [
            .sharedIcon(), .feedScroll(layout), .pager(layout),
            .screens(layout, navigationEventCount: navigationEventCount),
        ]
    }
}
