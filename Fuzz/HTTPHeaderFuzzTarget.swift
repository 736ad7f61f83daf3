// libFuzzer entry point for the parsers of HTTP header fields a server controls, compiled
// together with the library's sources by Scripts/fuzz.sh (not part of the package). The first
// byte picks the parser, the rest is the field value (UTF-8, invalid bytes repaired):
//
//   0  Cache-Control      (CacheControl)
//   1  an HTTP-date       (HTTPDateParser, for Date, Expires, Last-Modified)
//   2  Content-Range      (ResponseStream.contentRange, for resuming)
//   3  a whole header     ("name: value" lines, through ResponseFreshness and
//                          PartialBody.rangeValidator, as a response's fields reach them)
//
// Whatever the bytes, each must return without trapping, and what it returns must hold its
// documented bounds; a violation is a crash.
import Foundation

/// A fixed "now" (2024-06-01), so a run is reproducible.
private let now = 1_717_200_000.0

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPHeaders(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 0 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: bytes + 1, count: count - 1), as: UTF8.self)
    switch bytes[0] % 4 {
    case 0: checkCacheControl(text)
    case 1: checkHTTPDate(text)
    case 2: checkContentRange(text)
    default: checkHeaderFields(text)
    }
    return 0
}

private func checkCacheControl(_ text: String) {
    let cacheControl = CacheControl(text)
    for directive in cacheControl.directives {
        guard !directive.name.isEmpty, directive.name == directive.name.lowercased() else {
            fatalError("\(text.debugDescription): directive name \(directive.name.debugDescription)")
        }
    }
    if case .seconds(let seconds) = cacheControl.maxAge {
        guard seconds >= 0, seconds <= CacheControl.largestDeltaSeconds else {
            fatalError("\(text.debugDescription): max-age \(seconds)")
        }
    }
    _ = (cacheControl.noStore, cacheControl.noCache)
}

private func checkHTTPDate(_ text: String) {
    guard let seconds = HTTPDateParser.secondsSince1970(text, now: now) else { return }
    // Years 0000 to 9999 at most: four digits, or two for RFC 850 dates.
    guard seconds.isFinite, seconds >= -62_200_000_000, seconds <= 253_402_300_800 else {
        fatalError("\(text.debugDescription): \(seconds) seconds")
    }
}

private func checkContentRange(_ text: String) {
    guard let range = ResponseStream.contentRange(text) else { return }
    guard range.first >= 0, range.first <= range.last, range.total.map({ range.last < $0 }) ?? true else {
        fatalError("\(text.debugDescription): \(range)")
    }
}

private func checkHeaderFields(_ text: String) {
    var headers: [String: String] = [:]
    for line in text.split(whereSeparator: \.isNewline) {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }
    let maximumLifetime = 30 * 86_400.0
    if let validity = ResponseFreshness.validity(
        headers: headers, requestTime: now - 1, responseTime: now, defaultLifetime: 3_600,
        maximumLifetime: maximumLifetime)
    {
        guard !validity.freshUntil.isNaN else { fatalError("\(text.debugDescription): freshUntil is NaN") }
        guard validity.freshUntil <= now + maximumLifetime else {
            fatalError("\(text.debugDescription): fresh beyond the maximum lifetime")
        }
        _ = validity.isFresh(at: now, maximumLifetime: maximumLifetime)
    }
    if let validator = PartialBody.rangeValidator(of: headers), validator.hasPrefix("W/") {
        fatalError("\(text.debugDescription): a weak validator for If-Range")
    }
}
