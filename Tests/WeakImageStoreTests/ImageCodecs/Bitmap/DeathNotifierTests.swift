import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class DeathNotifierTests: XCTestCase {
    private final class Observer: ImageDeathObserver {
        let deaths = Lock<[DeathToken]>([])
        func imageDied(_ token: DeathToken) { deaths.withLock { $0.append(token) } }
    }

    func test_notifier_reportsEveryRegistration_whenBitmapDies() {
        let first = Observer()
        let second = Observer()
        var bitmap: Bitmap? = Bitmap(width: 2, height: 1, format: .gray8, pixels: [1, 2])
        bitmap!.deathNotifier.register(DeathRegistration(observer: first, token: DeathToken(value: 7)))
        bitmap!.deathNotifier.register(DeathRegistration(observer: second, token: DeathToken(value: 9)))

        XCTAssertEqual(first.deaths.withLock { $0 }, [])
        bitmap = nil

        XCTAssertEqual(first.deaths.withLock { $0 }, [DeathToken(value: 7)])
        XCTAssertEqual(second.deaths.withLock { $0 }, [DeathToken(value: 9)])
    }

    func test_notifier_skipsObserver_thatDiedFirst() {
        var observer: Observer? = Observer()
        let survivor = Observer()
        var bitmap: Bitmap? = Bitmap(width: 1, height: 1, format: .gray8, pixels: [1])
        bitmap!.deathNotifier.register(DeathRegistration(observer: observer, token: DeathToken(value: 1)))
        bitmap!.deathNotifier.register(DeathRegistration(observer: survivor, token: DeathToken(value: 2)))
        weak let observerWatch = observer

        observer = nil
        XCTAssertNil(observerWatch, "a registration must not keep its observer alive")
        bitmap = nil

        XCTAssertEqual(survivor.deaths.withLock { $0 }, [DeathToken(value: 2)])
    }

    func test_notifierOf_findsBitmapsOwn_andNoneForSilentTypes() {
        let bitmap = Bitmap(width: 1, height: 1, format: .gray8, pixels: [1])

        XCTAssertIdentical(DeathNotifier.of(bitmap as any AnyObject & Sendable), bitmap.deathNotifier)
        XCTAssertNil(DeathNotifier.of(SilentImage(cost: 1)))
    }
}
