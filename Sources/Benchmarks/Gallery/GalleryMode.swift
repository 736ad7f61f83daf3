/// What size the gallery's grid cells ask for.
enum GalleryMode: CaseIterable {
    /// Every cell asks for the full-size photo, what apps do by default.
    case fullSize
    /// Cells ask for a thumbnail of the cell's size; only the opened photo is full size.
    case thumbnails

    var label: String {
        switch self {
        case .fullSize: "full size everywhere"
        case .thumbnails: "thumbnails"
        }
    }

    /// A name for files and CSV fields.
    var slug: String {
        switch self {
        case .fullSize: "full-size"
        case .thumbnails: "thumbnails"
        }
    }
}
