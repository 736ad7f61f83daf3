import Foundation

/// Maps data values to pixels along one chart axis, linearly or logarithmically, and picks
/// round tick values (1, 2, 5 × 10ⁿ) to label.
struct ChartAxis {
    enum Scale {
        case linear
        case logarithmic
    }

    let scale: Scale
    let lower: Double
    let upper: Double
    /// The pixel coordinates of `lower` and `upper` (the y axis runs from bottom to top).
    let pixelRange: (start: Double, end: Double)
    let ticks: [Double]

    /// A linear axis from 0 to `maximum` (or the round value above it), about five ticks.
    static func linear(maximum: Double, pixelRange: (start: Double, end: Double), endsOnRoundValue: Bool = true)
        -> ChartAxis
    {
        let step = roundStep(atLeast: max(maximum, 1e-9) / 5)
        let upper = endsOnRoundValue ? max(step, (maximum / step).rounded(.up) * step) : max(maximum, 1e-9)
        let ticks = stride(from: 0, through: upper + step / 1000, by: step).map { $0 }
        return ChartAxis(scale: .linear, lower: 0, upper: upper, pixelRange: pixelRange, ticks: ticks)
    }

    /// A logarithmic axis from a round value at or below `minimum` to one at or above `maximum`,
    /// ticks on the 1-2-5 sequence.
    static func logarithmic(minimum: Double, maximum: Double, pixelRange: (start: Double, end: Double)) -> ChartAxis {
        let candidates = (-3...6).flatMap { exponent in
            [1.0, 2, 5].map { $0 * pow(10, Double(exponent)) }
        }
        let lower = candidates.last { $0 <= minimum } ?? candidates[0]
        let upper = candidates.first { $0 >= maximum } ?? candidates[candidates.count - 1]
        let ticks = candidates.filter { $0 >= lower && $0 <= upper }
        return ChartAxis(scale: .logarithmic, lower: lower, upper: upper, pixelRange: pixelRange, ticks: ticks)
    }

    /// The pixel coordinate of `value`, clamped to the axis.
    func position(_ value: Double) -> Double {
        let fraction: Double
        switch scale {
        case .linear:
            fraction = (value - lower) / (upper - lower)
        case .logarithmic:
            fraction = (log10(max(value, lower)) - log10(lower)) / (log10(upper) - log10(lower))
        }
        let clamped = min(1, max(0, fraction))
        return pixelRange.start + (pixelRange.end - pixelRange.start) * clamped
    }

    /// A tick's label: no trailing zeros, two decimals (enough to show one digit below 0.01).
    static func label(_ value: Double) -> String {
        if value == value.rounded() { return String(Int(value)) }
        // Two decimals, more below 0.01 (a log axis of milliseconds reaches microseconds).
        let digits = value > 0 && value < 0.01 ? Int(-log10(value).rounded(.down)) : 2
        var text = String(format: "%.\(digits)f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// The smallest 1, 2 or 5 × 10ⁿ at least `minimum`.
    private static func roundStep(atLeast minimum: Double) -> Double {
        let magnitude = pow(10, floor(log10(minimum)))
        return [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= minimum } ?? 10 * magnitude
    }
}
