/// The directives of a `Cache-Control` field (RFC 9111 §5.2), as far as a private cache of
/// images needs them.
///
/// | field value | reads as |
/// |---|---|
/// | `No-Store` | `no-store` (names are case-insensitive) |
/// | `max-age="60"` | `max-age` 60 (a quoted value is the same value) |
/// | `no-cache="Set-Cookie, Vary", max-age=5` | `no-cache` and `max-age` 5 (commas inside quotes split nothing) |
/// | ` ,max-age=5 ,, private` | `max-age` 5 and `private` (empty list members are skipped) |
/// | `max-age=5, max-age=9` | `max-age` 5: the first of a repeated directive counts |
/// | `max-age=soon`, `max-age` | an invalid `max-age`: the response is stale |
struct CacheControl: Sendable, Equatable {
    /// What a `max-age` directive said.
    enum Lifetime: Sendable, Equatable {
        /// A number of seconds, capped at 2³¹ as RFC 9111 §1.2.2 asks.
        case seconds(Double)
        /// A value that is no delta-seconds; RFC 9111 §4.2.1 encourages treating the response as
        /// stale.
        case invalid
    }

    /// The directives in the order sent: names lowercased, values unquoted (nil when absent).
    let directives: [(name: String, value: String?)]

    /// The largest delta-seconds kept; larger values (and overflows) become this.
    static let largestDeltaSeconds = 2_147_483_648.0

    /// Parses a field value; the lines of a repeated field arrive joined by commas, which is the
    /// same list.
    init(_ fieldValue: String) {
        var reader = Substring(fieldValue).unicodeScalars[...]
        var directives: [(name: String, value: String?)] = []
        while !reader.isEmpty {
            let name = Self.token(&reader).lowercased()
            Self.skipWhitespace(&reader)
            var value: String?
            if reader.first == "=" {
                reader.removeFirst()
                Self.skipWhitespace(&reader)
                value = reader.first == "\"" ? Self.quotedString(&reader) : Self.token(&reader)
                Self.skipWhitespace(&reader)
            }
            // Whatever else stands before the next comma is malformed: dropped with it.
            while let next = reader.first, next != "," { reader.removeFirst() }
            if !reader.isEmpty { reader.removeFirst() }
            if !name.isEmpty { directives.append((name, value)) }
        }
        self.directives = directives
    }

    static func == (lhs: CacheControl, rhs: CacheControl) -> Bool {
        lhs.directives.elementsEqual(rhs.directives) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Whether the directive `name` (lowercase) is present, with or without a value.
    func contains(_ name: String) -> Bool {
        directives.contains { $0.name == name }
    }

    /// The first value of directive `name` (lowercase): nil if absent, `.some(nil)` if it has none.
    func value(of name: String) -> String?? {
        directives.first { $0.name == name }.map(\.value)
    }

    /// `no-store`: the response must not be stored.
    var noStore: Bool { contains("no-store") }

    /// `no-cache`, with or without field names: a private cache storing images treats both as a
    /// demand to revalidate on every use (the named fields are headers it does not keep anyway).
    var noCache: Bool { contains("no-cache") }

    /// The `max-age` directive; nil when there is none. `s-maxage` is for shared caches and is
    /// ignored.
    var maxAge: Lifetime? {
        guard let value = value(of: "max-age") else { return nil }
        guard let value, let seconds = Self.deltaSeconds(value) else { return .invalid }
        return .seconds(seconds)
    }

    /// A delta-seconds value (RFC 9111 §1.2.2): digits only, capped at ``largestDeltaSeconds``.
    static func deltaSeconds(_ text: some StringProtocol) -> Double? {
        guard !text.isEmpty else { return nil }
        var seconds = 0.0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            seconds = min(seconds * 10 + Double(byte - UInt8(ascii: "0")), largestDeltaSeconds)
        }
        return seconds
    }

    // MARK: Lexing

    private static func skipWhitespace(_ reader: inout Substring.UnicodeScalarView.SubSequence) {
        while reader.first == " " || reader.first == "\t" { reader.removeFirst() }
    }

    /// Skips leading whitespace, then takes characters up to `=`, `,`, whitespace or a quote.
    private static func token(_ reader: inout Substring.UnicodeScalarView.SubSequence) -> String {
        skipWhitespace(&reader)
        var token = String.UnicodeScalarView()
        while let next = reader.first, next != "=", next != ",", next != " ", next != "\t", next != "\"" {
            token.append(next)
            reader.removeFirst()
        }
        return String(token)
    }

    /// A quoted-string (RFC 9110 §5.6.4), backslash escapes resolved; an unterminated one runs to
    /// the end.
    private static func quotedString(_ reader: inout Substring.UnicodeScalarView.SubSequence) -> String {
        reader.removeFirst()
        var text = String.UnicodeScalarView()
        while let next = reader.popFirst() {
            if next == "\"" { break }
            if next == "\\", let escaped = reader.popFirst() {
                text.append(escaped)
            } else {
                text.append(next)
            }
        }
        return String(text)
    }
}
