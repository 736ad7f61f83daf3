/// Defaults for storages without a weak table or a budget: nothing to remove, nothing to trim.
extension ImageCacheStorage {
    var liveCostLimit: Int? { nil }

    func store(_ image: CachedImage, for key: ImageKey, token: DeathToken, released: inout [CachedImage]) {
        store(image, for: key, released: &released)
    }

    func imageDied(for key: ImageKey, token: DeathToken) {}

    func liveCostDidChange(to liveCost: Int) {}

    func evictLeastRecentlyUsed(cost: Int, released: inout [CachedImage]) -> Bool { false }
}
