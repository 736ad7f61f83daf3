/// What the driver of a load does next, as the ``LoadStateMachine`` decides under the lock; the
/// driver (``StoreEngine``) does it outside the lock and reports the outcome as the next event.
enum LoadStep {
    /// The lookup or load is over: deliver `result` to `waiters` (a synchronous caller returns it
    /// too).
    case finished(Result<CachedImage, ImageStoreError>, waiters: [LoadWaiter])
    /// Resolve the caller's request on the file system, then report ``LoadStateMachine/resolved(_:as:by:memory:released:)``.
    case resolve
    /// Fetch the full-size image's bytes and read their header, then report
    /// ``LoadStateMachine/measured(_:size:by:memory:released:)``.
    case measure(UnsizedThumbnail)
    /// Fetch (unless in hand) and decode `source` for the load, then report
    /// ``LoadStateMachine/finished(_:of:for:result:decoded:reservedCost:memory:released:)``.
    /// The load is nil when loads are not shared (`.uncached`) or for a disk read.
    case decode(ImageLocator, LoadID?)
    /// Another thread is running the load: wait for its result (a synchronous caller only).
    case wait(LoadLatch)
    /// A network image memory does not hold, and a disk cache that may: read a fresh entry of
    /// the full-size image and decode it without joining any load, since a load in flight may be
    /// waiting on the network (a synchronous caller only). The thumbnail is set when its key is
    /// not known yet.
    case readDisk(ImageLocator, UnsizedThumbnail?)
    /// Another load of the same image took the waiters over (a loading thread only).
    case merged
}
