import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// The child process side of the decompression-bomb measurement: the benchmark runs itself as
/// `Benchmarks --bomb-probe BOMB MAXPIXELSIZE COUNT MODE`, and the child loads COUNT copies of
/// the bomb at once through an `ImageStore<Bitmap>` (full size when MAXPIXELSIZE is 0) — from
/// COUNT tasks (`async`) or COUNT threads calling the synchronous API (`sync`) — drops each image
/// at once, and prints how far its peak resident size rose and how many loads were refused.
///
/// The store runs one loading thread per load and the 512 MiB decode cap a 4 GiB phone gets
/// by default (``ImageStore/defaultMaximumConcurrentDecodingBytes``), so the figures show what
/// the cap does rather than this machine's memory.
enum BombProbe {
    /// The hidden flag that selects the probe.
    static let flag = "--bomb-probe"
    /// The store's decode cap in the probe: a 4 GiB phone's default.
    static let decodeCap = 512 << 20

    /// How the loads are started.
    enum Mode: String {
        /// One task per load, awaiting `fetchImage(for:priority:)`: the store's loading threads decode.
        case async
        /// One thread per load, calling `image(for:)`: each caller decodes on its own thread.
        case sync
    }

    /// The bombs of issue #34.
    enum Bomb: String, CaseIterable {
        case palettePNG = "palette-png"
        case interlacedPNG = "interlaced-png"
        case progressiveJPEG = "progressive-jpeg"

        /// The row label.
        var label: String {
            switch self {
            case .palettePNG: "1-bit palette PNG 8192²"
            case .interlacedPNG: "Adam7 16-bit RGBA PNG 8192²"
            case .progressiveJPEG: "progressive 4:4:4 JPEG 8192²"
            }
        }

        /// The file, built in memory.
        func file() -> Data {
            switch self {
            case .palettePNG: DecompressionBombs.palettePNG()
            case .interlacedPNG: DecompressionBombs.interlacedPNG()
            case .progressiveJPEG: DecompressionBombs.progressiveJPEG()
            }
        }

        /// The file name extension.
        var fileExtension: String { self == .progressiveJPEG ? "jpg" : "png" }
    }

    /// Runs the probe if the arguments ask for it.
    ///
    /// - Parameter arguments: The process's arguments, program name first.
    /// - Returns: The exit status, or `nil` if these are not probe arguments.
    static func runIfRequested(_ arguments: [String]) -> Int32? {
        guard arguments.count == 6, arguments[1] == flag else { return nil }
        guard let bomb = Bomb(rawValue: arguments[2]), let maxPixelSize = Int(arguments[3]),
            let count = Int(arguments[4]), count >= 1, let mode = Mode(rawValue: arguments[5])
        else { return 2 }
        ResidentMemory.configureAllocator()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = bomb.file()
        let names = (0..<count).map { "bomb\($0).\(bomb.fileExtension)" }
        for name in names { try? file.write(to: directory.appendingPathComponent(name)) }
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory])
        configuration.maximumConcurrentLoads = count
        configuration.maximumConcurrentDecodingBytes = decodeCap
        let store = ImageStore(configuration)
        // Page in the decoders' and the store's code on a small image.
        let warmUp = directory.appendingPathComponent("warm-up.png")
        try? PNGEncoder.encode(SyntheticImages.photo(width: 64, height: 48, seed: 1)).write(to: warmUp)
        _ = store.image(named: "warm-up.png")
        _ = DownsamplingProbe.status("VmRSS")
        _ = DownsamplingProbe.status("VmHWM")
        ResidentMemory.releaseFreeMemory()
        guard DownsamplingProbe.resetPeak(), let before = DownsamplingProbe.status("VmRSS") else { return 3 }
        let refused = RefusalCount()
        let done = DispatchSemaphore(value: 0)
        for name in names {
            let request = ImageRequest.named(name, maxPixelSize: maxPixelSize == 0 ? nil : maxPixelSize)
            // The image is dropped at once: only the decodes' memory is measured.
            switch mode {
            case .async:
                Task {
                    if (try? await store.fetchImage(for: request, priority: .normal)) == nil { refused.add() }
                    done.signal()
                }
            case .sync:
                Thread {
                    if store.image(for: request) == nil { refused.add() }
                    done.signal()
                }.start()
            }
        }
        for _ in names { done.wait() }
        guard let peak = DownsamplingProbe.status("VmHWM") else { return 3 }
        print("\(max(0, peak - before)) \(refused.count)")
        return 0
    }

    /// Measures `count` copies of `bomb` loaded at once in a child process.
    ///
    /// - Returns: The rise of the child's peak resident size and the loads refused, or `nil`
    ///   where it cannot be measured (not Linux, or the child failed).
    static func measure(
        _ bomb: Bomb, maxPixelSize: Int?, count: Int, mode: Mode
    ) -> (peakRise: Int, refused: Int)? {
        #if os(Linux)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [flag, bomb.rawValue, String(maxPixelSize ?? 0), String(count), mode.rawValue]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            return nil
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard fields.count == 2 else { return nil }
        return (fields[0], fields[1])
        #else
        return nil
        #endif
    }
}

/// The loads of a probe that found no image, counted from several tasks.
private final class RefusalCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    var count: Int { lock.withLock { value } }

    func add() { lock.withLock { value += 1 } }
}
