import Foundation

/// HTTP dates in the one form servers must send (RFC 9110, section 5.6.7, IMF-fixdate:
/// `Sun, 06 Nov 1994 08:49:37 GMT`), for `Date`, `Expires`, `Last-Modified` and
/// `If-Modified-Since`.
///
/// Computed by hand rather than with `DateFormatter`, whose output depends on the locale and
/// whose thread safety has varied between Foundations.
public enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday.
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` as an IMF-fixdate, to the second (rounded down).
    public static func string(from date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(fromDaysSince1970: days)
        let weekday = weekdays[((days % 7) + 7) % 7]
        return "\(weekday), \(twoDigits(day)) \(months[month - 1]) \(year) "
            + "\(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) GMT"
    }

    /// The date an IMF-fixdate names, or `nil` if `string` is not one (the weekday is not checked).
    public static func date(from string: String) -> Date? {
        let fields = string.split(separator: " ")
        guard fields.count == 6, fields[0].hasSuffix(","), fields[5] == "GMT",
            let day = Int(fields[1]), let monthIndex = months.firstIndex(of: String(fields[2])),
            let year = Int(fields[3])
        else { return nil }
        let time = fields[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (1...31).contains(day), (0...23).contains(time[0]), (0...59).contains(time[1]),
            (0...60).contains(time[2])
        else { return nil }
        let days = daysSince1970(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]))
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Howard Hinnant's `days_from_civil`: days from 1970-01-01 in the proleptic Gregorian calendar.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Howard Hinnant's `civil_from_days`, the inverse of ``daysSince1970(year:month:day:)``.
    private static func civilDate(fromDaysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
