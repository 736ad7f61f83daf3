// The macOS 12 SDK's Foundation (Swift 5.6) does not declare Data and URL Sendable, which
// Swift 6 mode requires of them; they are declared here, for the type-check only, in the first
// module checked (ImageCodecs), whose conformances the library then sees.
import Foundation

extension Data: @retroactive @unchecked Sendable {}
extension URL: @retroactive @unchecked Sendable {}
