#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A folder kept open, so that files in it are opened relative to it (`openat`): the kernel does
/// not walk the folder's whole path again (BENCHMARKS.md has what that saves), and no symbolic
/// link swapped in along that path can redirect the cache.
///
/// The descriptor names the folder it was opened on even after that folder is deleted or
/// replaced; ``DiskCacheFolders`` notices and opens the new one.
final class OpenDirectory: Sendable {
    /// The folder's descriptor.
    let descriptor: Int32

    /// Takes ownership of `descriptor`, an open folder.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
