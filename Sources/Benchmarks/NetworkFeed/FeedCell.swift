import Foundation
import WeakImageStore

/// A reusable cell of the feed: the row it shows (nil while in the reuse pool), the tag of its
/// current configuration, and the pictures set into it.
struct FeedCell {
    /// The row on screen, nil while the cell waits in the reuse pool.
    var row: Int?
    var tag = -1
    /// The URLs it shows now: the avatar's, then the photo's.
    var urls: [URL] = []
    var shownAt: UInt64 = 0
    /// What is set into each slot now, right or wrong.
    var pictures: [Bitmap?] = [nil, nil]
    /// Whether each slot holds the picture of ``urls``.
    var isRight = [false, false]
    /// Whether the photo was set here since the cell was configured.
    var photoWasSet = false

    /// `prepareForReuse` and the configuration for `row`: placeholders until the pictures come.
    mutating func configure(row: Int, tag: Int, urls: [URL], at now: UInt64) {
        self.row = row
        self.tag = tag
        self.urls = urls
        shownAt = now
        pictures = [nil, nil]
        isRight = [false, false]
        photoWasSet = false
    }

    /// Off screen, into the reuse pool: a reused cell lets go of its pictures.
    mutating func enterReusePool() {
        row = nil
        pictures = [nil, nil]
        isRight = [false, false]
    }
}
