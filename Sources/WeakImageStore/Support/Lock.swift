#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
import Synchronization
#elseif canImport(Musl)
import Musl
import Synchronization
#endif

/// A mutual-exclusion lock that owns the state it protects.
///
/// `Mutex` from Synchronization needs iOS 18 / macOS 15, so on Darwin this wraps
/// `os_unfair_lock`. Elsewhere it is that `Mutex`: a futex taken with one compare-and-swap,
/// about a third of what `pthread_mutex_lock` and `pthread_mutex_unlock` cost on a cache hit.
/// The state is reachable only inside ``withLock(_:)``.
final class Lock<State> {
    #if canImport(os)
    private let mutex: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let mutex = Mutex(())
    #endif
    // Behind a pointer rather than a stored property: class properties get dynamic exclusivity
    // checks on every access, which cost as much as the lock itself on a cache hit.
    private let state: UnsafeMutablePointer<State>

    init(_ initialState: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initialState)
        #if canImport(os)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: os_unfair_lock())
        #endif
    }

    deinit {
        #if canImport(os)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        #endif
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state. Keep `body` short: no I/O, no decoding,
    /// and nothing that could free an image (return it and let it go after unlocking).
    @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if canImport(os)
        os_unfair_lock_lock(mutex)
        defer { os_unfair_lock_unlock(mutex) }
        return try body(&state.pointee)
        #else
        // `Mutex.withLock` returns a `sending` result, which a value read from state that is not
        // `Sendable` cannot be; these are the same lock and unlock without that check.
        mutex._unsafeLock()
        defer { mutex._unsafeUnlock() }
        return try body(&state.pointee)
        #endif
    }

    /// Whether the calling thread holds the lock; for tests that check what runs inside the
    /// critical sections. Another thread's critical section does not count, so the answer does
    /// not depend on timing.
    func _isHeldByCurrentThread() -> Bool {
        #if canImport(os)
        // libplatform keeps the owner's thread port in the lock word; its low bit flags waiters.
        let owner = mutex.pointee._os_unfair_lock_opaque | 1
        return owner == pthread_mach_thread_np(pthread_self()) | 1
        #elseif canImport(Glibc)
        // Synchronization's Linux `Mutex` is a priority-inheritance futex: its word is the
        // owner's kernel thread id, with the kernel's waiter and owner-died flags in the top bits.
        let word = withUnsafeBytes(of: mutex) { $0.load(as: UInt32.self) }
        return Int32(bitPattern: word & 0x3FFF_FFFF) == Self.currentThreadID()
        #else
        return false
        #endif
    }

    #if canImport(Glibc)
    /// The calling thread's kernel id, read from a mutex glibc records it in: Swift's Glibc module
    /// does not export `gettid()`.
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
