/// GIF's interlaced row order: four passes, of rows 0, 8, 16…; 4, 12…; 2, 6, 10…; 1, 3, 5…
enum GIFInterlacing {
    /// The frame row that the `storedRow`th stored row of an interlaced frame of `height` rows is.
    static func frameRow(ofStoredRow storedRow: Int, height: Int) -> Int {
        var row = storedRow
        let firstPass = (height + 7) / 8
        if row < firstPass { return row * 8 }
        row -= firstPass
        let secondPass = (height + 3) / 8
        if row < secondPass { return 4 + row * 8 }
        row -= secondPass
        let thirdPass = (height + 1) / 4
        if row < thirdPass { return 2 + row * 4 }
        return 1 + (row - thirdPass) * 2
    }
}
