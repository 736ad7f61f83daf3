/// Where a lookup found its image.
enum CacheLookup {
    case strongHit(CachedImage)
    case weakHit(CachedImage)
    case miss
}
