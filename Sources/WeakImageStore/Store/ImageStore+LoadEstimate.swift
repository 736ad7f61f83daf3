extension ImageStore {
    /// What getting `request`'s image ready has cost lately: for a `.url` request, the transfers
    /// from its host by this store's ``ImageDownloader`` (shared by every store that shares the
    /// downloader), and for every request, this store's decodes.
    ///
    /// ``ScrollPrefetcher`` looks ahead of a scrolling list by it.
    ///
    /// - Parameter request: The request whose cost to estimate.
    /// - Returns: The running averages; figures not measured yet are nil.
    public func loadEstimate(for request: ImageRequest) -> LoadEstimate {
        var host: String?
        if case .url(let source) = request.source { host = source.url.host }
        let transfers = engine.fetcher.network.downloader.meter.estimate(host: host)
        var estimate = engine.decodeMeter.estimate(host: nil)
        estimate.latency = transfers.latency
        estimate.bytesPerSecond = transfers.bytesPerSecond
        estimate.bytesPerImage = transfers.bytesPerImage
        estimate.transfers = transfers.transfers
        estimate.comesOverNetwork = host != nil
        return estimate
    }
}
