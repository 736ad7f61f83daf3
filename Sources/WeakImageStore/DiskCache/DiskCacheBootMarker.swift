import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The file `boot` in the cache's folder: which boot of the machine last opened the cache.
///
/// A write appends its journal record, then renames its body into place, flushing neither: after
/// a power loss (only then: a process that dies leaves both in the kernel's cache) the rename may
/// have reached the disk and the record not. The body is then an orphan the index never names,
/// and opening never lists the folder to find it. So the first open after the machine restarted
/// lists `bodies/` once and deletes what the index does not name; every other open reads this
/// marker only.
enum DiskCacheBootMarker {
    /// What the marker said.
    enum Previous: Equatable {
        /// Written during this boot: nothing can have been lost since.
        case sameBoot
        /// Written during an earlier boot, or unreadable.
        case otherBoot
        /// Missing: a new folder, or one an earlier version of the cache kept.
        case unmarked
    }

    static let name = "boot"

    /// This boot of the machine: Linux's boot identifier, or the boot time elsewhere; nil when
    /// neither can be read (then the marker is never used).
    static let currentBoot: String? = {
        #if canImport(Darwin)
        var time = timeval()
        var size = MemoryLayout<timeval>.size
        guard sysctlbyname("kern.boottime", &time, &size, nil, 0) == 0 else { return nil }
        return "\(time.tv_sec).\(time.tv_usec)"
        #else
        let bytes = FileManager.default.contents(atPath: "/proc/sys/kernel/random/boot_id")
        return bytes.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        #endif
    }()

    /// Reads the marker in `folders`' root and, unless it names `boot`, writes `boot` there (to
    /// `tmp/`, then renamed over it: a link in its place is replaced, never followed).
    ///
    /// - Returns: What the marker said before.
    static func mark(_ boot: String, in folders: DiskCacheFolders) -> Previous {
        let root = folders.root
        let previous: Previous
        let descriptor = folders.fileSystem.openFile(name, in: root, O_RDONLY)
        if descriptor >= 0 {
            let bytes = try? folders.fileSystem.read(descriptor, count: 256, at: 0, path: name)
            close(descriptor)
            previous = bytes.map { String(decoding: $0, as: UTF8.self) } == boot ? .sameBoot : .otherBoot
        } else {
            previous = descriptor == -ENOENT ? .unmarked : .otherBoot
        }
        if previous != .sameBoot { write(boot, in: folders, root: root) }
        return previous
    }

    private static func write(_ boot: String, in folders: DiskCacheFolders, root: OpenDirectory) {
        guard case .success(let temporary) = folders.openTemporaryFolder() else { return }
        let temporaryName = folders.layout.temporaryName(suffix: name)
        let descriptor = folders.fileSystem.openFile(temporaryName, in: temporary, O_WRONLY | O_CREAT | O_EXCL)
        guard descriptor >= 0 else { return }
        let written =
            (try? folders.fileSystem.writeAll(descriptor, contentsOf: Array(boot.utf8), at: 0, path: name)) != nil
        close(descriptor)
        if !written || renameat(temporary.descriptor, temporaryName, root.descriptor, name) != 0 {
            unlinkat(temporary.descriptor, temporaryName, 0)
        }
    }
}
