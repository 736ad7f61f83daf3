#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutual-exclusion lock that owns the state it protects.
///
/// `Mutex` from Synchronization needs iOS 18 / macOS 15, so this wraps `os_unfair_lock` on Darwin
/// and `pthread_mutex_t` elsewhere. The state is reachable only inside ``withLock(_:)``.
package final class Lock<State> {
    #if canImport(os)
    private let mutex: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    // Behind a pointer rather than a stored property: class properties get dynamic exclusivity
    // checks on every access, which cost as much as the lock itself on a cache hit.
    private let state: UnsafeMutablePointer<State>

    package init(_ initialState: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initialState)
        mutex = .allocate(capacity: 1)
        #if canImport(os)
        mutex.initialize(to: os_unfair_lock())
        #else
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        #if canImport(Glibc)
        // Critical sections are a few hash lookups: spinning briefly beats sleeping in the kernel.
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        let result = pthread_mutex_init(mutex, &attributes)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
        #endif
    }

    deinit {
        #if !canImport(os)
        pthread_mutex_destroy(mutex)
        #endif
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state. Keep `body` short: no I/O, no decoding,
    /// and nothing that could free an image (return it and let it go after unlocking).
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if canImport(os)
        os_unfair_lock_lock(mutex)
        defer { os_unfair_lock_unlock(mutex) }
        #else
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        #endif
        return try body(&state.pointee)
    }

    /// Whether the calling thread holds the lock; for tests that check what runs inside the
    /// critical sections. Another thread's critical section does not count, so the answer does
    /// not depend on timing.
    package func _isHeldByCurrentThread() -> Bool {
        #if canImport(os)
        // libplatform keeps the owner's thread port in the lock word; its low bit flags waiters.
        let owner = mutex.pointee._os_unfair_lock_opaque | 1
        return owner == pthread_mach_thread_np(pthread_self()) | 1
        #elseif canImport(Glibc)
        // glibc records the owner's kernel thread id in every mutex, whatever its type.
        return mutex.pointee.__data.__owner == Self.currentThreadID()
        #else
        return false  // Musl does not record a mutex's owner.
        #endif
    }

    #if canImport(Glibc)
    /// The calling thread's kernel id, read the way glibc records it: Swift's Glibc module does
    /// not export `gettid()`.
    private static func currentThreadID() -> Int32 {
        var probe = pthread_mutex_t()
        pthread_mutex_init(&probe, nil)
        defer { pthread_mutex_destroy(&probe) }
        pthread_mutex_lock(&probe)
        defer { pthread_mutex_unlock(&probe) }
        return probe.__data.__owner
    }
    #endif
}

// The lock serializes every access to `state`, so sharing it is safe whenever the state itself is.
extension Lock: @unchecked Sendable where State: Sendable {}
