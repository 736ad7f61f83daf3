/// Why the blob table could not hand out a row's photo.
enum BlobTableError: Error, Equatable, CustomStringConvertible {
    case noSuchRow(id: Int)

    var description: String {
        switch self {
        case .noSuchRow(let id): "the photos table has no row \(id)"
        }
    }
}
