/// Why the command line was refused.
enum OptionsError: Error, CustomStringConvertible {
    case unknownArgument(String)
    case missingValue(flag: String)
    case unknownSection(String)
    case invalidNumber(flag: String, value: String, range: ClosedRange<Double>)
    case unknownSpeed(String)

    var description: String {
        switch self {
        case .unknownArgument(let argument): "unknown argument '\(argument)'"
        case .missingValue(let flag): "\(flag) needs a value"
        case .unknownSection(let name):
            "unknown section '\(name)'; --only takes "
                + Options.Section.allCases.map(\.rawValue).joined(separator: ", ")
        case .invalidNumber(let flag, let value, let range):
            "\(flag) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(value)'"
        case .unknownSpeed(let name):
            "unknown speed '\(name)'; --speeds takes " + ScrollSpeed.allCases.map(\.label).joined(separator: ", ")
        }
    }
}
