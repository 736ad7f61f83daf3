/// A cell on screen whose images may still be loading.
protocol LoadingCell {
    /// Cancels what the cell started: it left the screen.
    func cancelLoads()
}
