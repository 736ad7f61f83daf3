/// A plain-text table with aligned columns: text left-aligned, numbers right-aligned.
struct TextTable {
    private let headers: [String]
    private var rows: [[String]] = []

    init(headers: [String]) {
        self.headers = headers
    }

    mutating func append(_ row: [String]) {
        precondition(row.count == headers.count, "a row needs \(headers.count) cells")
        rows.append(row)
    }

    /// The table, one line per row, the first column left-aligned and the others right-aligned.
    func rendered(indent: String = "  ") -> String {
        let widths = headers.indices.map { column in
            ([headers] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }
            return indent + padded.joined(separator: "  ")
        }
        let rule = indent + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(headers), rule] + rows.map(line)).joined(separator: "\n")
    }
}
