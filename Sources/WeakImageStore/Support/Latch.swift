#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value one thread blocks on until another sets it: the result of a load a synchronous
/// caller joined, or the bytes of a provider read another load started.
///
/// Set exactly once by ``complete(with:)``; ``wait()`` returns it to every caller, at once if it
/// is set already. A condition variable rather than `DispatchGroup` or `DispatchSemaphore`, which Darwin's
/// Dispatch does not mark `Sendable`.
final class Latch<Value: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`; behind a pointer so no dynamic exclusivity check is involved.
    private let outcome = UnsafeMutablePointer<Value?>.allocate(capacity: 1)

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

    /// Publishes the value and wakes the waiting callers. Called exactly once.
    func complete(with value: Value) {
        pthread_mutex_lock(mutex)
        outcome.pointee = value
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until ``complete(with:)`` has run, then returns its value.
    func wait() -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let value = outcome.pointee { return value }
            pthread_cond_wait(condition, mutex)
        }
    }
}
