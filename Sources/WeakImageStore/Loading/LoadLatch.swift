#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The result a synchronous caller blocks on while another thread runs the load it joined.
///
/// Set exactly once by ``complete(with:)``; ``wait()`` returns it to the one caller that owns the
/// latch. A condition variable rather than `DispatchGroup` or `DispatchSemaphore`, which Darwin's
/// Dispatch does not mark `Sendable`.
final class LoadLatch: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`; behind a pointer so no dynamic exclusivity check is involved.
    private let outcome = UnsafeMutablePointer<Result<CachedImage, ImageStoreError>?>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        outcome.initialize(to: nil)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        outcome.deinitialize(count: 1)
        condition.deallocate()
        mutex.deallocate()
        outcome.deallocate()
    }

    /// Publishes the result and wakes the waiting caller. Called exactly once.
    func complete(with result: Result<CachedImage, ImageStoreError>) {
        pthread_mutex_lock(mutex)
        outcome.pointee = result
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until ``complete(with:)`` has run, then returns its result.
    func wait() -> Result<CachedImage, ImageStoreError> {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = outcome.pointee { return result }
            pthread_cond_wait(condition, mutex)
        }
    }
}
