/// Order statistics of a set of measurements.
struct Distribution {
    private let sorted: [Double]

    init(_ samples: [Double]) {
        sorted = samples.sorted()
    }

    init(_ samples: [UInt64]) {
        self.init(samples.map { Double($0) })
    }

    var median: Double { percentile(50) }
    var minimum: Double { sorted.first ?? 0 }
    var maximum: Double { sorted.last ?? 0 }

    /// The nearest-rank percentile: the smallest sample with at least `percent`% of the samples at
    /// or below it. 0 for no samples.
    func percentile(_ percent: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
