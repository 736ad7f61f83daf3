import Foundation

/// The non-generic machinery behind ``ImageStore``: lookups, resolution, loading and the locked
/// state. Being non-generic lets the compiler specialize all of it inside the library, so a cache
/// hit costs hash lookups rather than runtime generic-metadata lookups.
final class StoreEngine: Sendable {
    /// Decodes a file into an image of the store's type, wrapped with its cost.
    typealias Decode = @Sendable (_ data: Data, _ scale: Int) throws -> CachedImage

    let state: Lock<StoreState>
    private let resolver: ImageResolver
    private let reader: ImageFileReader
    private let decode: Decode

    init(policy: CachePolicy, resolver: ImageResolver, reader: ImageFileReader, decode: @escaping Decode) {
        state = Lock(StoreState(policy: policy))
        self.resolver = resolver
        self.reader = reader
        self.decode = decode
        state.withLock { $0.live.observer = self }
    }

    deinit {
        for observer in state.withLock({ $0.budget.allObservers }) { observer.finish() }
    }

    func load(_ request: LookupRequest) throws(ImageStoreError) -> CachedImage {
        // Declared before the critical sections so evicted images are freed after unlocking.
        var released: [CachedImage] = []
        var step = state.withLock { $0.lookUp(request, released: &released) }
        if case .found(let image) = step {
            return image
        }
        if case .resolve = step {
            let resolution = resolve(request)
            step = state.withLock { $0.resolved(request, as: resolution, released: &released) }
        }
        // Evicted images go now, before this thread blocks on a load.
        released.removeAll()
        switch step {
        case .found(let image):
            return image
        case .failed(let error):
            throw error
        case .resolve:
            preconditionFailure("a resolved request asked to be resolved again")
        case .wait(let pending):
            return try pending.wait().get()
        case .load(let key, let pending):
            let (result, decoded) = readAndDecode(key)
            state.withLock {
                $0.finishLoad(request, of: key, result: result, decoded: decoded, released: &released)
            }
            pending?.complete(with: result)
            released.removeAll()
            enforceLiveCostLimit()
            return try result.get()
        }
    }

    func handleMemoryPressure(_ level: MemoryPressureLevel) {
        var released: [CachedImage] = []
        state.withLock { $0.handleMemoryPressure(level, released: &released) }
    }

    func removeAll() {
        var released: [CachedImage] = []
        state.withLock { $0.removeAll(released: &released) }
    }

    var statistics: ImageStoreStatistics {
        state.withLock { $0.statistics }
    }

    /// Runs `body` on the locked state; for tests.
    func _withState<Result>(_ body: (inout StoreState) -> Result) -> Result {
        state.withLock(body)
    }

    /// Whether some thread holds the lock right now; for tests.
    func _isLocked() -> Bool {
        state._isLocked()
    }

    private func resolve(_ request: LookupRequest) -> Result<ResourceKey, ImageStoreError> {
        Result { () throws(ImageStoreError) -> ResourceKey in
            switch request {
            case .name(let name): try resolver.resolve(name: name)
            case .path(let path): try resolver.resolve(path: path)
            }
        }
    }

    /// Reads and decodes the file; `decoded` tells whether the decoder ran.
    private func readAndDecode(_ key: ResourceKey) -> (Result<CachedImage, ImageStoreError>, decoded: Bool) {
        let data: Data
        do {
            data = try reader.read(path: key.path)
        } catch {
            return (.failure(error), false)
        }
        do {
            return (.success(try decode(data, key.scale)), true)
        } catch {
            return (.failure(.decodingFailed(path: key.path, reason: String(describing: error))), true)
        }
    }
}
