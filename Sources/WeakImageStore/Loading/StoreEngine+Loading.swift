import Foundation

/// The driver of loads: one loop carries a load from the step the state machine returned to its
/// end, for a synchronous caller on its own thread and for the loading threads alike.
extension StoreEngine {
    /// Loading threads are the store's own lanes and drain the store's own queue, so the store
    /// decides the order and at most `maximumConcurrentLoads` of them run at once, plus the
    /// visible lane for work on screen.
    func startLoadingThreadNow(_ thread: LoadingThread) {
        lanes.run { self.runQueuedLoads(as: thread) }
    }

    private func runQueuedLoads(as thread: LoadingThread) {
        var finishedBackgroundWork: LoadID?
        while let next = state.withLock({
            $0.loads.nextQueuedLoad(for: thread, finishedBackgroundWork: finishedBackgroundWork)
        }) {
            finishedBackgroundWork = next.isBackground ? next.load : nil
            _ = drive(
                next.step, by: .loadingThread(next.load), request: next.request, data: next.data,
                cancellation: next.cancellation)
        }
    }

    /// Carries a load forward from `step` on the calling thread until it ends: each step is done
    /// outside the lock and its outcome reported to the state machine, which returns the next.
    ///
    /// - Parameters:
    ///   - runner: Who drives: a synchronous caller, or a loading thread and its load.
    ///   - request: The request to resolve, when the load starts unresolved.
    ///   - data: The bytes already in hand (downloaded), if any.
    ///   - cancellation: A loading thread's, polled before fetching and decoding; nil for a
    ///     synchronous caller, who always wants the image.
    /// - Returns: The result; nil when the load went on elsewhere (to the network, or merged into
    ///   another load) and the runner is owed nothing.
    func drive(
        _ step: LoadStep, by runner: LoadRunner, request: ImageRequest?, data: Data? = nil,
        cancellation: DecodeCancellation? = nil
    ) -> Result<CachedImage, ImageStoreError>? {
        var step = step
        var bytes = data
        // The header read to learn a thumbnail's key: the decode reuses it rather than read it again.
        var header: ImageHeader?
        while true {
            var released: [CachedImage] = []
            switch step {
            case .finished(let result, let waiters):
                for waiter in waiters { waiter.deliver(result) }
                return result
            case .resolve:
                guard let request else { preconditionFailure("a load without a request cannot be resolved") }
                let resolution = fetcher.resolve(request.source)
                step = state.withLock {
                    $0.loads.resolved(request, as: resolution, by: runner, memory: &$0.memory, released: &released)
                }
            case .measure(let thumbnail):
                if case .loadingThread(let load) = runner, let cancellation, cancellation.shouldStop() {
                    return stop(load, decoded: false, reservedCost: 0)
                }
                switch fetch(thumbnail.fullSize, inHand: bytes, by: runner) {
                case nil:
                    return nil
                case .failure(let error):
                    let waiters = state.withLock { $0.loads.failed(error, by: runner, memory: &$0.memory) }
                    for waiter in waiters { waiter.deliver(.failure(error)) }
                    return .failure(error)
                case .success(let fetched):
                    bytes = fetched
                    let read = readHeader(fetched)
                    header = read
                    step = state.withLock {
                        $0.loads.measured(
                            thumbnail, size: read?.size, by: runner, memory: &$0.memory, released: &released)
                    }
                }
            case .decode(let source, let load):
                return decode(
                    source, for: load, by: runner, request: request, inHand: bytes, header: header,
                    cancellation: cancellation)
            case .wait(let latch):
                return latch.wait()
            case .readDisk(let source, let thumbnail):
                return readDisk(source, thumbnail, by: runner, request: request)
            case .merged:
                return nil
            }
        }
    }

    /// The bytes of `source`: those in hand, else fetched on this thread; for a loading thread's
    /// network image, a fresh disk entry or nil after handing the load to the downloader.
    private func fetch(
        _ source: ImageLocator, inHand: Data?, by runner: LoadRunner
    ) -> Result<Data, ImageStoreError>? {
        if let inHand { return .success(inHand) }
        if case .loadingThread(let load) = runner, let url = source.bytes.download {
            return bytesFromDiskOrDownload(url, for: load).map { .success($0) }
        }
        return fetcher.fetch(source.bytes)
    }

    /// A synchronous lookup of a network image: a fresh disk entry decoded on the caller's
    /// thread as an unshared load, since a load in flight may be waiting on the network.
    private func readDisk(
        _ source: ImageLocator, _ thumbnail: UnsizedThumbnail?, by runner: LoadRunner, request: ImageRequest?
    ) -> Result<CachedImage, ImageStoreError>? {
        let data: Data
        switch fetcher.fetch(source.bytes) {
        case .success(let fetched): data = fetched
        case .failure(let error): return .failure(error)
        }
        var decodeAs = source
        var header: ImageHeader?
        if let thumbnail {
            let read = readHeader(data)
            header = read
            var released: [CachedImage] = []
            let found: CachedImage? = state.withLock {
                decodeAs = $0.memory.measured(thumbnail, size: read?.size)
                return $0.memory.image(for: decodeAs.key, released: &released)
            }
            if let found { return .success(found) }
        }
        return decode(
            decodeAs, for: nil, by: runner, request: request, inHand: data, header: header, cancellation: nil)
    }

    /// Fetches (unless in hand) and decodes `source` for `load`, stores the image and hands the
    /// result to the load's waiters.
    ///
    /// The bytes' header is read once: the one read to learn a thumbnail's key, else here; the
    /// live-cost reservation, the admission and the decoder all take it.
    ///
    /// - Parameter header: The header of the bytes in hand, when it was read already.
    /// - Returns: The result; `.cancelled` (owed to nobody) if the load stopped; nil if the bytes
    ///   are downloading.
    private func decode(
        _ source: ImageLocator, for load: LoadID?, by runner: LoadRunner, request: ImageRequest?, inHand: Data?,
        header: ImageHeader?, cancellation: DecodeCancellation?
    ) -> Result<CachedImage, ImageStoreError>? {
        if let load, let cancellation, cancellation.shouldStop() {
            return stop(load, decoded: false, reservedCost: 0)
        }
        let key = source.key
        let bytes: Data
        switch fetch(source, inHand: inHand, by: runner) {
        case nil: return nil
        case .success(let fetched): bytes = fetched
        case .failure(let error): return finish(load, of: key, for: request, result: .failure(error))
        }
        if let load, let cancellation, cancellation.shouldStop() {
            return stop(load, decoded: false, reservedCost: 0)
        }
        let options = DecodeOptions(
            scale: key.scale, maxPixelSize: key.maxPixelSize, header: header ?? readHeader(bytes))
        let reservedCost = reserveDecodingCost(for: key, header: options.header)
        guard let admittedBytes = admitDecode(of: bytes, options: options, cancellation: cancellation) else {
            return load.map { stop($0, decoded: false, reservedCost: reservedCost) } ?? .failure(.cancelled)
        }
        defer { decodeAdmission.release(admittedBytes) }
        let result: Result<CachedImage, ImageStoreError>
        var isDamaged = false
        do {
            let started = DispatchTime.now().uptimeNanoseconds
            let decoded =
                if let cancellation {
                    try DecodeCancellation.current.withValue(cancellation) {
                        try self.decode(bytes, options)
                    }
                } else {
                    try self.decode(bytes, options)
                }
            decodeMeter.recordDecode(
                seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9,
                megapixels: options.header.map { Double($0.width) * Double($0.height) / 1e6 })
            result = .success(decoded.image)
            isDamaged = decoded.isDamaged
        } catch {
            if let load, let cancellation, cancellation.hasStopped {
                return stop(load, decoded: true, reservedCost: reservedCost)
            }
            let failure = source.bytes.decodingFailure(reason: String(describing: error))
            // Refused for its size, the same bytes may still make a thumbnail.
            if (error as? any SizeLimitReporting)?.exceedsSizeLimit != true {
                fetcher.rejected(source.bytes, error: failure)
            }
            result = .failure(failure)
        }
        return finish(
            load, of: key, for: request, result: result, decoded: isDamaged ? .damaged : .intact,
            reservedCost: reservedCost)
    }

    /// Ends a load that stopped because nobody waits for it any more (or queues it again for
    /// whoever joined it after it stopped).
    @discardableResult
    func stop(_ load: LoadID, decoded: Bool, reservedCost: Int) -> Result<CachedImage, ImageStoreError> {
        state.withLock { $0.loads.stopped(load, decoded: decoded, reservedCost: reservedCost, memory: &$0.memory) }
        return .failure(.cancelled)
    }

    /// Under a live-cost limit, reserves what the image about to be decoded will
    /// cost and trims the LRU to make room, so the limit holds while it is decoded too: a
    /// 12-MiB photo opened over a full LRU of thumbnails would otherwise exist beside all of
    /// them until it is stored. The cost is its pixel count from the header (the thumbnail's
    /// for a thumbnail key) at 4 bytes a pixel, the most any decoder here produces.
    ///
    /// - Parameter header: The bytes' header (its size is the full-size image's).
    /// - Returns: The bytes reserved, for ``finish(_:of:for:result:decoded:reservedCost:)`` to
    ///   release; 0 without a limit or when the decoder cannot read the size.
    private func reserveDecodingCost(for key: ImageKey, header: ImageHeader?) -> Int {
        guard hasLiveCostLimit, var size = header?.size, size.width > 0, size.height > 0 else {
            return 0
        }
        if let maxPixelSize = key.maxPixelSize,
            let thumbnail = ThumbnailSize(width: size.width, height: size.height, maxPixelSize: maxPixelSize)
        {
            size = PixelSize(width: thumbnail.width, height: thumbnail.height)
        }
        // Sizes come from untrusted headers (and any decoder): at most 1 TiB a reservation, so
        // that the sum of concurrent reservations cannot overflow either.
        let pixels = size.width.multipliedReportingOverflow(by: size.height)
        let bytes = pixels.partialValue.multipliedReportingOverflow(by: 4)
        let cost =
            pixels.overflow || bytes.overflow
            ? Self.largestReservation : min(bytes.partialValue, Self.largestReservation)
        state.withLock { $0.memory.reserveDecodingCost(cost) }
        enforceLiveCostLimit()
        return cost
    }

    /// Ends a load: stores its image and hands the result to its waiters.
    private func finish(
        _ load: LoadID?, of key: ImageKey, for request: ImageRequest?,
        result: Result<CachedImage, ImageStoreError>, decoded: LoadStateMachine.DecoderOutcome? = nil,
        reservedCost: Int = 0
    ) -> Result<CachedImage, ImageStoreError> {
        var released: [CachedImage] = []
        let waiters = state.withLock {
            $0.loads.finished(
                load, of: key, for: request, result: result, decoded: decoded, reservedCost: reservedCost,
                memory: &$0.memory, released: &released)
        }
        released.removeAll()
        if case .success = result { enforceLiveCostLimit() }
        for waiter in waiters { waiter.deliver(result) }
        return result
    }
}
