import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The schedule alone, without a network: slots, order, sharing and dropping.
final class DownloadScheduleTests: XCTestCase {
    private var session: URLSession!
    private var ticketCount = 0

    override func setUp() {
        session = URLSession(configuration: .ephemeral)
    }

    override func tearDown() {
        session.invalidateAndCancel()
        session = nil
    }

    private func source(_ path: String) -> URLSource {
        URLSource(URL(string: "http://example.com\(path)")!, cacheKey: nil)
    }

    private func add(_ path: String, _ priority: ImageLoadPriority = .normal, to schedule: inout DownloadSchedule)
        -> (DownloadTicket, [DownloadSchedule.Start])
    {
        ticketCount += 1
        let ticket = DownloadTicket(id: ticketCount)
        let starts = schedule.add(
            ticket, for: source(path), revalidating: nil, bodyDirectory: nil, priority: priority, completion: { _ in })
        schedule._checkInvariants()
        return (ticket, starts)
    }

    /// Attaches a task (never resumed) to each start, as the downloader does.
    private func attachTasks(_ starts: [DownloadSchedule.Start], in schedule: inout DownloadSchedule) -> [Int] {
        starts.map { start in
            let task = session.dataTask(with: start.url)
            XCTAssertTrue(schedule.attach(SessionTask(task: task), to: start.transfer))
            return task.taskIdentifier
        }
    }

    func test_transfersStart_untilTheSlotsAreTaken() {
        // Given
        var schedule = DownloadSchedule(maximumConcurrentTransfers: 2)
        // When
        let starts = ["/a", "/b", "/c"].map { add($0, to: &schedule).1 }
        // Then
        XCTAssertEqual(starts.map { $0.map(\.url.path) }, [["/a"], ["/b"], []])
        XCTAssertEqual(schedule.activeTransfers, 2)
    }

    func test_aFinishedTransfer_givesItsSlotToTheNewestOfTheHighestPriority() {
        // Given
        var schedule = DownloadSchedule(maximumConcurrentTransfers: 1)
        let running = attachTasks(add("/running", to: &schedule).1, in: &schedule)
        _ = add("/old-normal", .normal, to: &schedule)
        _ = add("/new-normal", .normal, to: &schedule)
        _ = add("/low", .low, to: &schedule)
        // When
        let next = schedule.finish(taskIdentifier: running[0])
        // Then
        XCTAssertEqual(next?.finished.job.source.url.path, "/running")
        XCTAssertEqual(next?.starts.map(\.url.path), ["/new-normal"])
    }

    func test_ticketsForOneIdentity_shareOneTransfer() {
        // Given
        var schedule = DownloadSchedule(maximumConcurrentTransfers: 1)
        // When
        let first = add("/a", to: &schedule).1
        let second = add("/a", to: &schedule).1
        // Then
        XCTAssertEqual(first.count, 1)
        XCTAssertEqual(second.count, 0)
        XCTAssertEqual(schedule.transfers.entries.count, 1)
        XCTAssertEqual(schedule.transfers.entries.values.first?.waiters.count, 2)
    }

    func test_aQueuedTransferLosingItsLastTicket_isDropped() {
        // Given
        var schedule = DownloadSchedule(maximumConcurrentTransfers: 1)
        _ = add("/running", to: &schedule)
        let (queued, _) = add("/queued", to: &schedule)
        // When
        let removal = schedule.remove(queued)
        // Then
        schedule._checkInvariants()
        XCTAssertNotNil(removal)
        XCTAssertNil(removal?.abandonedTask)
        XCTAssertEqual(removal?.starts.count, 0)
        XCTAssertEqual(schedule.transfers.entries.count, 1)
        XCTAssertNil(schedule.remove(queued), "a ticket leaves once")
    }

    func test_aRunningTransferLosingItsLastTicket_returnsItsTask_andFreesTheSlot() {
        // Given
        var schedule = DownloadSchedule(maximumConcurrentTransfers: 1)
        let (ticket, starts) = add("/running", to: &schedule)
        let task = attachTasks(starts, in: &schedule)[0]
        _ = add("/next", to: &schedule)
        // When
        let removal = schedule.remove(ticket)
        // Then
        schedule._checkInvariants()
        XCTAssertEqual(removal?.abandonedTask?.task.taskIdentifier, task)
        XCTAssertEqual(removal?.starts.map(\.url.path), ["/next"])
        XCTAssertNil(schedule.finish(taskIdentifier: task), "its outcome is owed to nobody")
    }

    func test_aTransferDroppedWhileStarting_refusesItsTask() {
        // Given
        var schedule = DownloadSchedule(maximumConcurrentTransfers: 1)
        let (ticket, starts) = add("/a", to: &schedule)
        // When
        _ = schedule.remove(ticket)
        // Then
        let task = session.dataTask(with: starts[0].url)
        XCTAssertFalse(schedule.attach(SessionTask(task: task), to: starts[0].transfer))
        XCTAssertEqual(schedule.activeTransfers, 0)
    }

    func test_removeAll_returnsEveryTransfer_andFreesEverySlot() {
        // Given
        var schedule = DownloadSchedule(maximumConcurrentTransfers: 1)
        _ = add("/a", to: &schedule)
        _ = add("/b", to: &schedule)
        // When
        let all = schedule.removeAll()
        // Then
        XCTAssertEqual(Set(all.map(\.job.source.url.path)), ["/a", "/b"])
        XCTAssertEqual(schedule.activeTransfers, 0)
        XCTAssertEqual(add("/c", to: &schedule).1.count, 1)
    }
}
