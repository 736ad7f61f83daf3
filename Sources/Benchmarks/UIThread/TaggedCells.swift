/// The cells on screen, each configured for one item (a row, a photo) under a tag of its own,
/// as an app sets a reused cell's tag and checks it when a result comes back.
///
/// Tags count up from 0 and are never reused, so a result for a cell that left the screen finds
/// no cell under its tag and is dropped.
struct TaggedCells<Cell: LoadingCell> {
    /// The cells on screen by tag.
    private(set) var byTag: [Int: Cell] = [:]
    private var tagOfItem: [Int: Int] = [:]
    /// The item each tag was given to.
    private var itemOfTag: [Int] = []

    /// The items that have a cell on screen.
    var items: [Int] { Array(tagOfItem.keys) }

    /// Whether every cell on screen satisfies `predicate`.
    func allSatisfy(_ predicate: (Cell) -> Bool) -> Bool {
        byTag.values.allSatisfy(predicate)
    }

    /// The item `tag` was given to, on screen or gone.
    func item(ofTag tag: Int) -> Int {
        itemOfTag[tag]
    }

    /// A new tag for `item`, not yet bound to a cell (a view shown apart from the cells, such as
    /// an opened photo, keeps its own).
    mutating func newTag(for item: Int) -> Int {
        itemOfTag.append(item)
        return itemOfTag.count - 1
    }

    /// Puts `cell` on screen under `tag`, for the item the tag was given to.
    mutating func bind(_ cell: Cell, tag: Int) {
        tagOfItem[itemOfTag[tag]] = tag
        byTag[tag] = cell
    }

    /// The cell under `tag`, while it is on screen; setting it updates the cell.
    subscript(tag: Int) -> Cell? {
        get { byTag[tag] }
        set { byTag[tag] = newValue }
    }

    /// Takes `item`'s cell off the screen, as a cell that is reused: its loads are cancelled
    /// (its images are released by the caller, on the UI thread, as a reused cell's would be).
    ///
    /// - Returns: The cell, or nil if `item` had none on screen.
    mutating func unbind(_ item: Int) -> Cell? {
        guard let tag = tagOfItem.removeValue(forKey: item), let cell = byTag.removeValue(forKey: tag) else {
            return nil
        }
        cell.cancelLoads()
        return cell
    }
}
