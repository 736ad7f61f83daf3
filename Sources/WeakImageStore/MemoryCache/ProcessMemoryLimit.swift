import Foundation

/// How much memory this process may use, as the system limits it: the basis of a default
/// live-byte budget for `.weakWithBudgetedLRU`.
///
/// | platform | limit, first that applies |
/// |---|---|
/// | Linux | cgroup v2 `/sys/fs/cgroup/memory.max`, cgroup v1 `/sys/fs/cgroup/memory/memory.limit_in_bytes`, physical memory |
/// | iOS, tvOS, watchOS, visionOS | `os_proc_available_memory()`, physical memory |
/// | macOS | physical memory |
///
/// A cgroup file that is missing, unreadable, says `max`, holds anything but a byte count, or
/// allows more than the machine has falls through to the next source. `os_proc_available_memory()`
/// is what the process may still allocate at the moment of the call, so call it early.
public struct ProcessMemoryLimit: Sendable, Equatable {
    /// Where a limit came from.
    public enum Source: Sendable, Equatable {
        /// The cgroup v2 `memory.max` file.
        case controlGroupV2
        /// The cgroup v1 `memory.limit_in_bytes` file.
        case controlGroupV1
        /// `os_proc_available_memory()`.
        case availableMemory
        /// `ProcessInfo.physicalMemory`: no narrower limit was found.
        case physicalMemory
    }

    /// The limit in bytes.
    public var bytes: Int
    /// Where it came from.
    public var source: Source

    /// The share of the limit ``recommendedLiveCostLimit(fraction:)`` gives images by default: a
    /// quarter.
    ///
    /// Decoded images are usually an app's largest use of memory, and this budget counts the
    /// images on screen, not only a cache's; a quarter leaves the rest of the app three times as
    /// much, and sits between an eighth commonly given to bitmap caches alone and the half at
    /// which systems start warning.
    public static let recommendedFraction = 0.25

    /// The default cgroup v2 limit file.
    public static let controlGroupV2Path = "/sys/fs/cgroup/memory.max"
    /// The default cgroup v1 limit file.
    public static let controlGroupV1Path = "/sys/fs/cgroup/memory/memory.limit_in_bytes"

    /// Creates a limit.
    ///
    /// - Parameters:
    ///   - bytes: The limit in bytes.
    ///   - source: Where it came from.
    public init(bytes: Int, source: Source) {
        self.bytes = bytes
        self.source = source
    }

    /// This process's limit, from the sources in the table above.
    public static var current: ProcessMemoryLimit {
        let physicalMemory = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        #if os(Linux)
        return fromControlGroups(physicalMemory: physicalMemory)
        #else
        if let available = AvailableMemory.bytes, available > 0 {
            return ProcessMemoryLimit(bytes: min(available, physicalMemory), source: .availableMemory)
        }
        return ProcessMemoryLimit(bytes: physicalMemory, source: .physicalMemory)
        #endif
    }

    /// A live-byte budget for `.weakWithBudgetedLRU`: `fraction` of ``current``.
    ///
    /// ```swift
    /// var configuration = ImageStore<Bitmap>.Configuration(directories: [resources])
    /// configuration.policy = .budgeted(liveCostLimit: ProcessMemoryLimit.recommendedLiveCostLimit())
    /// let store = ImageStore(configuration)
    /// ```
    ///
    /// - Parameter fraction: The share of the limit, in 0...1. Defaults to ``recommendedFraction``.
    /// - Returns: The budget in bytes.
    public static func recommendedLiveCostLimit(fraction: Double = recommendedFraction) -> Int {
        current.liveCostLimit(fraction: fraction)
    }

    /// `fraction` of ``bytes``, rounded down.
    ///
    /// - Parameter fraction: The share, in 0...1.
    /// - Returns: The budget in bytes.
    public func liveCostLimit(fraction: Double = recommendedFraction) -> Int {
        precondition((0...1).contains(fraction), "fraction must be in 0...1, got \(fraction)")
        return Int(Double(bytes) * fraction)
    }

    /// The Linux limit: cgroup v2, else cgroup v1, else `physicalMemory`. The paths are
    /// parameters so tests can point them at fixture files.
    ///
    /// - Parameters:
    ///   - controlGroupV2Path: The cgroup v2 `memory.max` file.
    ///   - controlGroupV1Path: The cgroup v1 `memory.limit_in_bytes` file.
    ///   - physicalMemory: The machine's memory in bytes.
    /// - Returns: The narrowest limit found.
    public static func fromControlGroups(
        controlGroupV2Path: String = controlGroupV2Path, controlGroupV1Path: String = controlGroupV1Path,
        physicalMemory: Int
    ) -> ProcessMemoryLimit {
        let sources: [(String, Source)] = [
            (controlGroupV2Path, .controlGroupV2), (controlGroupV1Path, .controlGroupV1),
        ]
        for (path, source) in sources {
            // cgroup v1 writes a huge number for "no limit": anything not below the machine's memory limits nothing.
            if let bytes = limit(inFile: path), bytes < physicalMemory {
                return ProcessMemoryLimit(bytes: bytes, source: source)
            }
        }
        return ProcessMemoryLimit(bytes: physicalMemory, source: .physicalMemory)
    }

    /// The byte count in a cgroup limit file, or nil for `max`, garbage, or a missing file.
    static func limit(inFile path: String) -> Int? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        // A limit is at most 20 digits; reading a bounded prefix keeps an odd file harmless.
        guard let data = try? file.read(upToCount: 64), let text = String(data: data, encoding: .utf8) else {
            return nil
        }
        return parseLimit(text)
    }

    /// The byte count in the text of a cgroup limit file: digits, then an optional newline.
    ///
    /// - Returns: The count, or nil for `max`, an empty file, or anything else.
    static func parseLimit(_ text: String) -> Int? {
        let trimmed = text.hasSuffix("\n") ? text.dropLast() : Substring(text)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int(trimmed)
    }
}
