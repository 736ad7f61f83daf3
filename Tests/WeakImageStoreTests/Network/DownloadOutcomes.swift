import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Records what downloads' completions got, under labels, and how often each was called; waits
/// for them with a deadline.
final class DownloadOutcomes: @unchecked Sendable {
    private let condition = NSCondition()
    private var results: [String: [Result<DownloadResponse, ImageStoreError>]] = [:]
    private var order: [String] = []
    private var issued: [String] = []

    /// A completion that records its outcome under `label`.
    func recorder(_ label: String) -> @Sendable (Result<DownloadResponse, ImageStoreError>) -> Void {
        condition.lock()
        issued.append(label)
        condition.unlock()
        return { result in
            self.condition.lock()
            self.results[label, default: []].append(result)
            self.order.append(label)
            self.condition.broadcast()
            self.condition.unlock()
        }
    }

    /// Waits until `count` completions in all have been called.
    @discardableResult
    func wait(forCount count: Int, timeout: Double = 5) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while order.count < count {
            guard condition.wait(until: deadline) else { return order.count >= count }
        }
        return true
    }

    /// Waits for the outcome of `label` and returns it, or nil after `timeout` seconds.
    func outcome(_ label: String, timeout: Double = 5) -> Result<DownloadResponse, ImageStoreError>? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while results[label]?.first == nil {
            guard condition.wait(until: deadline) else { break }
        }
        return results[label]?.first
    }

    /// How many times the completions of `label` were called so far.
    func calls(_ label: String) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return results[label]?.count ?? 0
    }

    /// How many completions were handed out.
    var expectedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return issued.count
    }

    /// The labels of the completions handed out.
    var labels: [String] {
        condition.lock()
        defer { condition.unlock() }
        return issued
    }

    /// The labels in the order their completions were called.
    var completionOrder: [String] {
        condition.lock()
        defer { condition.unlock() }
        return order
    }

    /// Every outcome so far.
    var all: [Result<DownloadResponse, ImageStoreError>] {
        condition.lock()
        defer { condition.unlock() }
        return results.values.flatMap { $0 }
    }
}

extension Result where Success == DownloadResponse, Failure == ImageStoreError {
    /// The body's bytes, or nil for a failure or a 304.
    var bytes: [UInt8]? {
        if case .success(let response) = self, let body = response.body { [UInt8](body) } else { nil }
    }

    /// Whether this is a 304's ``DownloadResponse/Content/notModified``.
    var isNotModified: Bool {
        if case .success(let response) = self, case .notModified = response.content { true } else { false }
    }

    /// The error, or nil for a success.
    var error: ImageStoreError? {
        if case .failure(let error) = self { error } else { nil }
    }
}

extension ResponseStream.Ending {
    /// The outcome, or nil for a restart.
    var result: Result<DownloadResponse, ImageStoreError>? {
        if case .finished(let result, _, _) = self { result } else { nil }
    }

    /// The partial body kept, if any.
    var keptPartialBody: PartialBody? {
        if case .finished(_, let partial, _) = self { partial } else { nil }
    }

    /// The body's bytes, or nil.
    var bytes: [UInt8]? { result?.bytes }

    /// The error, or nil.
    var error: ImageStoreError? { result?.error }
}
