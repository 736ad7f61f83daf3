/// Why the command line was refused.
enum OptionsError: Error, CustomStringConvertible {
    case unknownArgument(String)
    case missingValue(flag: String)

    var description: String {
        switch self {
        case .unknownArgument(let argument): "unknown argument '\(argument)'"
        case .missingValue(let flag): "\(flag) needs a value"
        }
    }
}
