import Foundation

/// Loads of `http` and `https` requests: their bytes come from the disk cache on the loading
/// thread, or from the network without holding one.
extension StoreEngine {
    /// On a loading thread: the bytes of `url` from a fresh disk entry, or nil after handing the
    /// load to the network; the load is queued again, bytes in hand, when they arrive.
    func bytesFromDiskOrDownload(_ url: URLSource, for load: LoadID) -> Data? {
        let lookup = fetcher.network.lookUpDisk(url)
        if case .fresh(let data) = lookup { return data }
        download(url, after: lookup, for: load)
        return nil
    }

    /// Hands `load`'s bytes to the network; the loading thread goes on with other work.
    private func download(_ url: URLSource, after lookup: NetworkFetcher.DiskLookup, for load: LoadID) {
        guard let priority = state.withLock({ $0.loads.awaitsDownload(load, memory: &$0.memory) }) else { return }
        let ticket = fetcher.network.download(url, after: lookup, priority: priority) { [weak self] outcome in
            self?.downloadFinished(load, url: url, with: outcome)
        }
        let (wanted, changes) = state.withLock {
            ($0.loads.downloadStarted(ticket, for: load), $0.loads.takeDownloadChanges())
        }
        if !wanted { fetcher.network.downloader.cancel(ticket) }
        apply(changes)
    }

    private func downloadFinished(_ load: LoadID, url: URLSource, with outcome: NetworkFetcher.Outcome) {
        switch outcome {
        case .bytes(let data):
            if let thread = state.withLock({ $0.loads.downloaded(data, for: load) }) { startLoadingThreadNow(thread) }
        case .failure(.cancelled):
            // Only a load that nobody waits for any more cancels its download.
            break
        case .failure(let error):
            let waiters = state.withLock { $0.loads.downloadFailed(for: load) }
            for waiter in waiters { waiter.deliver(.failure(error)) }
        case .entryVanished:
            download(url, after: .miss, for: load)
        }
    }

    /// Tells the downloader what changed under the lock. Never call it under the lock.
    func apply(_ changes: [InFlightLoads.DownloadChange]) {
        for change in changes {
            switch change {
            case .cancel(let ticket): fetcher.network.downloader.cancel(ticket)
            case .reprioritize(let ticket, let priority): fetcher.network.downloader.setPriority(priority, of: ticket)
            }
        }
    }
}
