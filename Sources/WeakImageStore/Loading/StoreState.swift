/// Everything mutable in an ``ImageStore``, reached only under its one lock: what memory holds
/// and the loads in flight.
///
/// Each critical section is one event: it updates the state and returns what the caller does
/// next, plus the images to release once the lock is dropped.
struct StoreState: Sendable {
    var memory: MemoryState
    var loads: LoadStateMachine

    init(policy: CachePolicy, maximumConcurrentLoads: Int, readsDownloadsFromDisk: Bool) {
        memory = MemoryState(policy: policy)
        loads = LoadStateMachine(
            maximumConcurrentLoads: maximumConcurrentLoads, readsDownloadsFromDisk: readsDownloadsFromDisk)
    }
}
