/// A lookup table built once and never written or freed again, read through a raw pointer in hot
/// loops (no bounds check, no array retain per access).
///
/// `@unchecked Sendable` because nothing ever writes through the pointer after `init`, so any
/// thread may read it. (A bare `UnsafePointer` global needs `nonisolated(unsafe)` on Linux but
/// draws a warning on Apple SDKs whose `UnsafePointer` is `Sendable`; this compiles cleanly on both.)
struct ConstantTable<Element>: @unchecked Sendable {
    /// The first element; the table lives as long as the process.
    let pointer: UnsafePointer<Element>

    /// Copies `values` into memory that is never freed.
    init(_ values: [Element]) {
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: values.count)
        storage.initialize(from: values, count: values.count)
        pointer = UnsafePointer(storage)
    }
}
