import Foundation

/// A lock that owns the state it protects and lets threads wait, with a deadline, until the
/// state satisfies a condition.
///
/// `NSCondition` rather than the library's lock (internal to it) or `Mutex` (iOS 18 / macOS 15):
/// the support code needs waiting, and runs wherever the tests do. Every change wakes every
/// waiter; test servers change state a few thousand times a second at most.
final class ConditionLock<State> {
    private let condition = NSCondition()
    private var state: State

    init(_ initialState: State) {
        state = initialState
    }

    /// Runs `body` with exclusive access to the state, then wakes the waiters to re-check it.
    /// Keep `body` short: no I/O, no waiting.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&state)
    }

    /// Waits until `isSatisfied` holds for the state or `deadline` passes.
    ///
    /// - Parameters:
    ///   - deadline: When to give up.
    ///   - isSatisfied: Runs under the lock, so it must not take it again.
    /// - Returns: Whether `isSatisfied` held before the deadline.
    func wait(until deadline: Date, for isSatisfied: (State) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !isSatisfied(state) {
            if !condition.wait(until: deadline) {
                return isSatisfied(state)
            }
        }
        return true
    }
}

// The condition serializes every access to `state`, so sharing it is safe whenever the state is.
extension ConditionLock: @unchecked Sendable where State: Sendable {}
