import Foundation

@testable import ImageCodecs
@testable import WeakImageStore

/// A test image that reports its death like a `Bitmap` and can hold its death back: while its
/// deinit waits at a ``DeathGate``, weak references read nil but the store has not heard yet.
final class GatedImage: StorableImage, DeathReporting {
    let cost: Int
    let deathNotifier = DeathNotifier()
    private let gate: DeathGate?

    init(cost: Int, gate: DeathGate?) {
        self.cost = cost
        self.gate = gate
    }

    deinit {
        // The notifier reports after this body, so the report waits for the gate too.
        gate?.imageIsDying()
    }
}

/// Stops the first image that dies inside its deinit until the test says `proceed`.
final class DeathGate: Sendable {
    let dying = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    private let armed = Lock(true)

    func imageIsDying() {
        let wasArmed = armed.withLock { armed in
            defer { armed = false }
            return armed
        }
        guard wasArmed else { return }
        dying.signal()
        proceed.wait()
    }
}

/// Decodes a file into a ``GatedImage`` whose cost is the file's size.
struct GatedDecoder: ImageDecoding {
    let gate: DeathGate?
    let calls = FakeDecoder.Calls()

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<GatedImage> {
        calls.record()
        return DecodeResult(image: GatedImage(cost: data.count, gate: gate))
    }
}

/// Returns the same bitmap for every file, to share one instance between stores.
struct FixedDecoder: ImageDecoding {
    let bitmap: Bitmap

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<Bitmap> { DecodeResult(image: bitmap) }
}

/// A test image that cannot report its death: the store falls back to weak references.
final class SilentImage: StorableImage {
    let cost: Int

    init(cost: Int) { self.cost = cost }
}

/// Decodes a file into a ``SilentImage`` whose cost is the file's size.
struct SilentDecoder: ImageDecoding {
    func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<SilentImage> {
        DecodeResult(image: SilentImage(cost: data.count))
    }
}

/// Sends a value to another thread; the test guarantees one thread uses it at a time.
final class Handoff<Value>: @unchecked Sendable {
    var value: Value?

    init(_ value: Value?) { self.value = value }
}

/// Runs `body` on a new thread and waits for it.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    done.wait()
}
