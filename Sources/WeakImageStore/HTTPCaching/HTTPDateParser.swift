/// Reads the three forms of HTTP-date a recipient must accept (RFC 9110 §5.6.7), for `Date`,
/// `Expires` and `Age` arithmetic in ``ResponseFreshness``.
///
/// | form | example |
/// |---|---|
/// | IMF-fixdate (what servers send) | `Sun, 06 Nov 1994 08:49:37 GMT` |
/// | obsolete RFC 850 | `Sunday, 06-Nov-94 08:49:37 GMT` |
/// | obsolete asctime | `Sun Nov  6 08:49:37 1994` |
///
/// Hand-written rather than `DateFormatter`: it runs on every response, and a formatter's result
/// depends on its locale and calendar. Names are matched without regard to case (servers vary);
/// the weekday is checked to be a day's name but not against the date, which is what counts.
enum HTTPDateParser {
    private static let months: [[UInt8]] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ].map { Array($0.utf8) }
    private static let shortWeekdays: [[UInt8]] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map {
        Array($0.utf8)
    }
    private static let longWeekdays: [[UInt8]] = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ].map { Array($0.utf8) }

    /// The instant `text` names, in seconds since 1970 (UTC), or nil if it is no HTTP-date.
    ///
    /// - Parameters:
    ///   - text: The field value; whitespace around it is ignored.
    ///   - now: Seconds since 1970; decides the century of an RFC 850 date's two-digit year: the
    ///     one that puts the date no more than 50 years after `now`.
    static func secondsSince1970(_ text: some StringProtocol, now: Double) -> Double? {
        var bytes = Array(text.utf8)[...]
        while bytes.first == UInt8(ascii: " ") || bytes.first == UInt8(ascii: "\t") { bytes.removeFirst() }
        while bytes.last == UInt8(ascii: " ") || bytes.last == UInt8(ascii: "\t") { bytes.removeLast() }
        var reader = Reader(bytes: bytes)
        guard let weekday = reader.letters() else { return nil }
        let fields: Fields?
        if reader.skip(",") {
            if shortWeekdays.contains(weekday) {
                fields = imfFixdate(&reader)
            } else if longWeekdays.contains(weekday) {
                fields = rfc850Date(&reader, now: now)
            } else {
                return nil
            }
        } else {
            guard shortWeekdays.contains(weekday) else { return nil }
            fields = asctimeDate(&reader)
        }
        guard let fields, reader.isAtEnd else { return nil }
        return fields.secondsSince1970
    }

    /// The date and time of day, checked.
    private struct Fields {
        let year: Int
        let month: Int
        let day: Int
        let hour: Int
        let minute: Int
        let second: Int

        var secondsSince1970: Double? {
            guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
                (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
            else { return nil }
            let days = Self.daysSince1970(year: year, month: month, day: day)
            return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
        }

        private static func daysIn(month: Int, year: Int) -> Int {
            switch month {
            case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }

        /// Days from 1970-01-01 in the proleptic Gregorian calendar (the "days from civil"
        /// algorithm: years counted from March, so the leap day ends the year).
        private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
            let marchYear = month <= 2 ? year - 1 : year
            let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
            let yearOfEra = marchYear - era * 400
            let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }
    }

    /// After `Sun,`: ` 06 Nov 1994 08:49:37 GMT`.
    private static func imfFixdate(_ reader: inout Reader) -> Fields? {
        guard reader.skip(" "), let day = reader.digits(2), reader.skip(" "), let month = month(&reader),
            reader.skip(" "), let year = reader.digits(4), reader.skip(" "), let time = time(&reader),
            reader.skip(" "), reader.skipWord("gmt")
        else { return nil }
        return Fields(year: year, month: month, day: day, hour: time.0, minute: time.1, second: time.2)
    }

    /// After `Sunday,`: ` 06-Nov-94 08:49:37 GMT`.
    private static func rfc850Date(_ reader: inout Reader, now: Double) -> Fields? {
        guard reader.skip(" "), let day = reader.digits(2), reader.skip("-"), let month = month(&reader),
            reader.skip("-"), let shortYear = reader.digits(2), reader.skip(" "), let time = time(&reader),
            reader.skip(" "), reader.skipWord("gmt")
        else { return nil }
        // RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is the latest past year
        // with those digits. Computed on years, which is precise enough for a 50-year window.
        let currentYear = 1970 + Int((now / 31_556_952).rounded(.down))
        var year = currentYear - currentYear % 100 + shortYear
        if year > currentYear + 50 { year -= 100 }
        return Fields(year: year, month: month, day: day, hour: time.0, minute: time.1, second: time.2)
    }

    /// After `Sun`: ` Nov  6 08:49:37 1994`.
    private static func asctimeDate(_ reader: inout Reader) -> Fields? {
        guard reader.skip(" "), let month = month(&reader), reader.skip(" ") else { return nil }
        let day: Int
        if reader.skip(" ") {
            guard let digit = reader.digits(1) else { return nil }
            day = digit
        } else {
            guard let digits = reader.digits(2) else { return nil }
            day = digits
        }
        guard reader.skip(" "), let time = time(&reader), reader.skip(" "), let year = reader.digits(4) else {
            return nil
        }
        return Fields(year: year, month: month, day: day, hour: time.0, minute: time.1, second: time.2)
    }

    /// `08:49:37`.
    private static func time(_ reader: inout Reader) -> (Int, Int, Int)? {
        guard let hour = reader.digits(2), reader.skip(":"), let minute = reader.digits(2), reader.skip(":"),
            let second = reader.digits(2)
        else { return nil }
        return (hour, minute, second)
    }

    /// `Nov` → 11.
    private static func month(_ reader: inout Reader) -> Int? {
        guard let name = reader.letters(), let index = months.firstIndex(of: name) else { return nil }
        return index + 1
    }

    /// A cursor over the field's bytes.
    private struct Reader {
        var bytes: ArraySlice<UInt8>

        var isAtEnd: Bool { bytes.isEmpty }

        /// Skips `character` if it comes next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard bytes.first == UInt8(ascii: character) else { return false }
            bytes.removeFirst()
            return true
        }

        /// Skips `lowercaseWord` (in any case) if it comes next, whole.
        mutating func skipWord(_ lowercaseWord: String) -> Bool {
            guard let word = letters() else { return false }
            return word == Array(lowercaseWord.utf8)
        }

        /// The ASCII letters that come next, lowercased; nil if none do.
        mutating func letters() -> [UInt8]? {
            var word: [UInt8] = []
            while let byte = bytes.first, (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") {
                word.append(byte | 0x20)
                bytes.removeFirst()
            }
            return word.isEmpty ? nil : word
        }

        /// Exactly `count` decimal digits, as a number.
        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                bytes.removeFirst()
            }
            return value
        }
    }
}
