#if canImport(os) && (os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
import os
#endif

/// `os_proc_available_memory()` where the platform has it.
enum AvailableMemory {
    /// The bytes this process may still allocate before the system's limit, or nil where the
    /// platform does not say (macOS, Linux).
    static var bytes: Int? {
        #if canImport(os) && (os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
        return Int(clamping: os_proc_available_memory())
        #else
        return nil
        #endif
    }
}
