/// A decoded image as the non-generic engine keeps it: the object and its cost, read once.
///
/// The engine is deliberately not generic over the image type: generic code called from another
/// module runs unspecialized, paying a runtime metadata lookup for every generic type it touches,
/// which made a cache hit several times slower. ``ImageStore`` casts back to its `Image`.
struct CachedImage: Sendable {
    /// The image; always an instance of the owning store's `Image` type.
    var object: any AnyObject & Sendable
    /// `object.cost`, captured when the image was decoded.
    let cost: Int

    init(_ image: some StorableImage) {
        object = image
        cost = image.cost
    }

    init(object: any AnyObject & Sendable, cost: Int) {
        self.object = object
        self.cost = cost
    }
}
