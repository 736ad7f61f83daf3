import Foundation

/// The command line: `Benchmarks [--quick] [--out DIR] [--corpus DIR] [--only SECTION]` and the
/// network feed's link.
struct Options {
    /// A section that can run alone, with its goals, while working on it.
    enum Section: String, CaseIterable {
        case hitPath = "hit-path"
        case pngSpeed = "png-speed"
        case jpegSpeed = "jpeg-speed"
        case animationSpeed = "animation-speed"
        case webpSpeed = "webp-speed"
        case downsampling
        case scrolling
        case gallery
        case blobList = "blob-list"
        case diskCache = "disk-cache"
        case networkFeed = "network-feed"
        case bombs
        case stickers
    }

    var quick = false
    /// Run only this section and its goals; nil runs everything.
    var onlySection: Section?
    var outputDirectory = URL(fileURLWithPath: "benchmark-results")
    var corpusDirectory: URL?
    /// The network feed's link: latency, slow responses and bandwidth.
    var feedNetwork = FeedNetwork.phone
    /// The speeds the network feed scrolls at.
    var feedSpeeds = ScrollSpeed.allCases
    /// Whether a failed goal that is a count or bytes, not a time, makes the exit status 3.
    var failsOnCountGoals = false

    static let usage = """
        Usage: swift run -c release Benchmarks [--quick] [--out DIR] [--corpus DIR] [--only SECTION]
                   [--latency-ms MS] [--slow-fraction F] [--slow-latency-ms MS] [--bandwidth-kbps KBPS]
                   [--speeds LIST] [--fail-on-count-goals]

        Replays UI workloads (a shared icon, a feed scroll, a pager, a navigation stack) against
        every ImageStore cache policy and two NSCache-based peers, then measures the hit path,
        PNG and JPEG decoding. Then, on a UI thread paced at 60 frames per second with the
        default policy: scrolling (a feed of large JPEG photos, slow and flung, loaded sync, with
        GCD and async) and the gallery (a grid of JPEG photos flung through, stopped, the centred
        photo opened full size: full-size images everywhere vs thumbnails in the grid, also under a
        16 MiB live-cost budget) and the blob list (500 rows whose ≈500 KB JPEG photos are blobs
        in an in-process table: every blob read by the list's query vs rows holding ids whose
        photos a provider reads through the store), the network feed (300 rows of avatars and
        JPEG photos from a loopback HTTP server over a phone-like link, scrolled, purged by a
        memory warning, scrolled back and scrolled again after a relaunch, by the classic
        recipes (a dictionary by URL and files in a folder), URLSession + URLCache + NSCache, and
        the store) and the disk cache (opening, missing, hitting and writing at 100 to 100k
        entries against a file-per-key folder and Foundation's URLCache), and a chat of animated stickers (GIF and APNG, every frame decoded up
        front, a buffer per view, and the store's shared animations). Prints tables and PASS/FAIL
        goal lines; writes results.csv, scrolling.csv, gallery.csv, bloblist.csv, networkfeed.csv, stickers.csv
        (and per-frame CSVs) and SVG charts.

          --quick       Smaller workloads and images, fewer samples: a smoke test (about 40 s).
          --out DIR     Where to write results.csv and the charts. Defaults to benchmark-results/.
          --corpus DIR  Use every PNG and JPEG (*.png, *.jpg, *.jpeg, any case) under DIR instead
                        of the generated corpus: images of at most the LRU's admission cost play
                        icons and avatars, larger ones play photos, pages and headers, cycled as
                        often as the workloads need. Files the decoder rejects are left out.
                        (The generated corpus has PNG icons and flat UI, JPEG photos.)
          --only SECTION
                        Only one section and its goals: hit-path, png-speed, jpeg-speed,
                        animation-speed, webp-speed, downsampling, scrolling, gallery,
                        blob-list, network-feed, disk-cache, bombs or stickers.
          --latency-ms MS
                        The network feed's latency before each response. Defaults to 40.
          --slow-fraction F
                        The fraction of responses (0–1, the same ones every run) that wait
                        --slow-latency-ms instead. Defaults to 0.03.
          --slow-latency-ms MS
                        Defaults to 400.
          --bandwidth-kbps KBPS
                        Kilobits per second each connection of the network feed may send;
                        0 for no cap. Defaults to 8000 (a phone on a good 4G link).
          --speeds LIST The network feed's scroll speeds, comma-separated: reading (2 rows a
                        second, pausing), browsing (10 rows a second), slow (1 row a frame),
                        fling (5 rows a frame). Defaults to all four.
          --fail-on-count-goals
                        Exit with status 3 when a judged goal that is a count or bytes fails
                        (decodes wasted, URLs sent twice, peak bytes): what CI gates on.
          --help        Show this text.

        Otherwise the exit status is 0 even when a goal fails: timing goals are not fit to gate CI.
        """

    /// Parses `arguments` (without the program name).
    ///
    /// - Returns: The options, or nil when `--help` was asked for.
    /// - Throws: ``OptionsError`` for an unknown flag or a flag missing its value.
    static func parse(_ arguments: [String]) throws(OptionsError) -> Options? {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h":
                return nil
            case "--quick":
                options.quick = true
            case "--only":
                guard let value = remaining.popFirst() else { throw .missingValue(flag: argument) }
                guard let section = Section(rawValue: value) else { throw .unknownSection(value) }
                options.onlySection = section
            case "--out":
                guard let value = remaining.popFirst() else { throw .missingValue(flag: argument) }
                options.outputDirectory = URL(fileURLWithPath: value)
            case "--corpus":
                guard let value = remaining.popFirst() else { throw .missingValue(flag: argument) }
                options.corpusDirectory = URL(fileURLWithPath: value)
            case "--latency-ms":
                options.feedNetwork.latencyMilliseconds = try number(after: argument, &remaining, in: 0...60_000)
            case "--slow-fraction":
                options.feedNetwork.slowFraction = try number(after: argument, &remaining, in: 0...1)
            case "--slow-latency-ms":
                options.feedNetwork.slowLatencyMilliseconds = try number(after: argument, &remaining, in: 0...60_000)
            case "--speeds":
                guard let value = remaining.popFirst() else { throw .missingValue(flag: argument) }
                options.feedSpeeds = try value.split(separator: ",").map { name throws(OptionsError) in
                    guard let speed = ScrollSpeed.allCases.first(where: { $0.label == name }) else {
                        throw .unknownSpeed(String(name))
                    }
                    return speed
                }
            case "--fail-on-count-goals":
                options.failsOnCountGoals = true
            case "--bandwidth-kbps":
                let kilobits = try number(after: argument, &remaining, in: 0...100_000_000)
                options.feedNetwork.kilobitsPerSecond = kilobits == 0 ? nil : kilobits
            default:
                throw .unknownArgument(argument)
            }
        }
        return options
    }

    /// The number after `flag`, within `range`.
    private static func number(
        after flag: String, _ remaining: inout ArraySlice<String>, in range: ClosedRange<Double>
    ) throws(OptionsError) -> Double {
        guard let value = remaining.popFirst() else { throw .missingValue(flag: flag) }
        guard let number = Double(value), range.contains(number) else {
            throw .invalidNumber(flag: flag, value: value, range: range)
        }
        return number
    }
}
