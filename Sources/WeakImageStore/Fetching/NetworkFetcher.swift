import Foundation

/// The bytes of `http` and `https` requests: the disk cache first, then the network, by HTTP's
/// caching rules (RFC 9111).
///
/// | on disk | the lookup |
/// |---|---|
/// | nothing (or no disk cache) | downloads; a storable response is written to disk before it is decoded |
/// | a fresh entry | reads it, checked, on the loading thread: no request |
/// | a stale entry with a validator | asks the server with a conditional GET: `304` refreshes the entry's metadata and its body is read; `200` replaces it |
/// | a stale entry without one | downloads again and replaces it |
/// | a stale entry, and the network or server fails | serves the stale entry: offline scrolling still shows pictures |
/// | an entry that fails its check | drops it and downloads |
///
/// Synchronous lookups never wait on the network: they get a fresh entry or
/// ``ImageStoreError/notInMemoryOrOnDisk(_:)``.
struct NetworkFetcher: Sendable {
    let downloader: ImageDownloader
    let diskCache: DiskImageCache?

    /// What the disk holds for a URL, looked at before the network is asked.
    enum DiskLookup: Sendable {
        /// A fresh entry's checked bytes.
        case fresh(Data)
        /// An entry that must be revalidated (or replaced) before use, and may be served if the
        /// network fails.
        case stale(ResponseValidity)
        /// No usable entry.
        case miss
    }

    /// How a download started after a ``DiskLookup`` ended.
    enum Outcome: Sendable {
        /// The bytes to decode: downloaded, confirmed by a 304, or stale ones served offline.
        case bytes(Data)
        case failure(ImageStoreError)
        /// A 304 confirmed an entry that left the disk meanwhile: download without conditions.
        case entryVanished
    }

    /// Looks `url` up on disk, reading the body of a fresh entry. Call it on a loading thread (or
    /// the synchronous caller's): it may read a file.
    func lookUpDisk(_ url: URLSource) -> DiskLookup {
        guard let diskCache else { return .miss }
        let digest = DiskImageCache.digest(of: url)
        guard let entry = diskCache.entry(for: url.identity, digest: digest) else {
            diskCache.recordMiss()
            return .miss
        }
        guard entry.validity.isFresh(at: Date().timeIntervalSince1970, maximumLifetime: diskCache.maximumLifetime)
        else { return .stale(entry.validity) }
        // A damaged entry is dropped and counted by the cache; the network replaces it.
        guard let (data, _) = try? diskCache.read(url.identity, digest: digest) else { return .miss }
        return .fresh(data)
    }

    /// The bytes a synchronous lookup may use: a fresh entry on disk, or the error that says the
    /// picture needs the network.
    func bytesWithoutNetwork(_ url: URLSource) -> Result<Data, ImageStoreError> {
        if case .fresh(let data) = lookUpDisk(url) { return .success(data) }
        return .failure(.notInMemoryOrOnDisk(url.url))
    }

    /// Starts (or joins) the transfer of `url` after `lookup` found no fresh entry.
    ///
    /// - Parameters:
    ///   - lookup: What the disk held: a stale entry is revalidated when it has a validator and
    ///     served when the network fails.
    ///   - completion: Gets the outcome exactly once, on the downloader's serial delivery queue,
    ///     never on the session's delegate queue or a global queue: the disk write (or read) of
    ///     the outcome happens there first, so a slow disk or a cache lock held elsewhere delays
    ///     deliveries, never other transfers.
    /// - Returns: The downloader's ticket, to cancel or reprioritize the wait.
    func download(
        _ url: URLSource, after lookup: DiskLookup, priority: ImageLoadPriority,
        completion: @escaping @Sendable (Outcome) -> Void
    ) -> DownloadTicket {
        let stale: ResponseValidity? = if case .stale(let validity) = lookup { validity } else { nil }
        let revalidating = stale.flatMap { $0.canRevalidate ? $0 : nil }
        // A body that arrives after the load was cancelled is stored all the same.
        var keepsAbandonedBody: AbandonedBodyKeeper?
        if diskCache != nil {
            let fetcher = self
            keepsAbandonedBody = { response in
                guard case .body(let data) = response.content else { return }
                fetcher.store(data, of: response, for: url)
            }
        }
        return downloader.download(
            url, revalidating: revalidating, bodyDirectory: diskCache?.temporaryDirectory,
            temporaryBudget: diskCache?.temporaryBudget, keepsAbandonedBody: keepsAbandonedBody, priority: priority
        ) { result in
            completion(outcome(of: result, for: url, stale: stale))
        }
    }

    private func outcome(
        of result: Result<DownloadResponse, ImageStoreError>, for url: URLSource, stale: ResponseValidity?
    ) -> Outcome {
        switch result {
        case .success(let response):
            switch response.content {
            case .body(let data):
                store(data, of: response, for: url)
                return .bytes(data)
            case .notModified:
                return revalidated(url, stale: stale, by: response)
            }
        case .failure(.cancelled):
            return .failure(.cancelled)
        case .failure(let error):
            guard stale != nil, Self.allowsStaleAnswer(after: error), let diskCache,
                let (data, _) = try? diskCache.read(url.identity, digest: DiskImageCache.digest(of: url))
            else { return .failure(error) }
            return .bytes(data)
        }
    }

    /// Writes a downloaded body to disk when its headers allow storing it; a body another
    /// waiter of the same transfer already wrote is not written twice.
    private func store(_ data: Data, of response: DownloadResponse, for url: URLSource) {
        guard let diskCache,
            let validity = ResponseFreshness.validity(
                headers: response.headers, requestTime: response.requestTime, responseTime: response.responseTime,
                defaultLifetime: diskCache.defaultLifetime, maximumLifetime: diskCache.maximumLifetime)
        else { return }
        let digest = DiskImageCache.digest(of: url)
        if let entry = diskCache.entry(for: url.identity, digest: digest), entry.validity == validity,
            entry.size == data.count
        {
            return
        }
        // A failed write is counted by the cache; the bytes are decoded all the same.
        _ = try? diskCache.write(data, validity: validity, for: url.identity, digest: digest)
    }

    /// A 304 answered a conditional request: refresh the entry and read its body.
    private func revalidated(_ url: URLSource, stale: ResponseValidity?, by response: DownloadResponse) -> Outcome {
        guard let diskCache, let stale else {
            // The transfer was shared with a waiter that asked conditionally; this one has no entry.
            return .entryVanished
        }
        let validity = ResponseFreshness.refreshed(
            stale, by: response.headers, requestTime: response.requestTime, responseTime: response.responseTime,
            defaultLifetime: diskCache.defaultLifetime, maximumLifetime: diskCache.maximumLifetime)
        let digest = DiskImageCache.digest(of: url)
        diskCache.updateValidity(validity, for: url.identity, digest: digest)
        guard let (data, _) = try? diskCache.read(url.identity, digest: digest) else {
            return .entryVanished
        }
        return .bytes(data)
    }

    /// The bytes of `url` did not decode (a captive portal's page, a server's mistake): its disk
    /// entry goes, so the disk never serves them again, and the failure is remembered with the
    /// transfer failures, so the network is not asked again before the back-off ends.
    func rejectUndecodable(_ url: URLSource, error: ImageStoreError) {
        diskCache?.remove(url.identity, digest: DiskImageCache.digest(of: url))
        downloader.rememberUndecodable(error, for: url.identity)
    }

    /// Whether a stale entry may stand in for the network's answer: when the network failed or
    /// the server did (5xx), not when it said the picture is gone or forbidden (4xx).
    private static func allowsStaleAnswer(after error: ImageStoreError) -> Bool {
        switch error {
        case .downloadFailed, .responseTruncated: true
        case .httpStatus(_, let code): code >= 500
        default: false
        }
    }
}
