/// Someone waiting for a job of a ``CoalescingWorkQueue``: identified, so it can leave, and
/// ranked, so the job it waits for starts in its turn.
protocol PrioritizedWaiter: Sendable {
    associatedtype ID: Hashable & Sendable
    var id: ID { get }
    var priority: ImageLoadPriority { get set }
}
