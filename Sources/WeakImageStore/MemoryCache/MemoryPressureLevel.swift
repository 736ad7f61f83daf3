/// How urgently the system asks for memory back. See ``ImageStore/handleMemoryPressure(_:)``.
public enum MemoryPressureLevel: Sendable, Hashable {
    /// Memory is getting scarce: the strong layer is trimmed to half its limits.
    case warning
    /// Memory is critically low: every strong reference the store holds is dropped.
    case critical
}
