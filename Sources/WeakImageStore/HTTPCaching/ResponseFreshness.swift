/// The HTTP freshness rules of a private cache (RFC 9111 §4.2 and §4.3.4): whether a response may
/// be stored, until when it may be used without asking the server, and what a
/// `304 Not Modified` changes. Pure: headers and times in, a ``ResponseValidity`` out.
///
/// Header names are lowercase; times are seconds since 1970 (UTC).
///
/// | response headers | validity |
/// |---|---|
/// | `Cache-Control: no-store` | nil: not stored |
/// | `Cache-Control: private` | stored: this is a private cache |
/// | `max-age=N` (`s-maxage` ignored) | fresh for N seconds, whatever `Expires` says |
/// | `Expires: E`, no `max-age` | fresh for E − `Date` (E − response time without `Date`) |
/// | `Expires: 0`, or any invalid date | stale at once |
/// | an invalid `max-age` | stale at once |
/// | neither | fresh for the caller's default lifetime (no 10 % heuristic) |
/// | a lifetime over the caller's maximum (`max-age=2147483647`) | fresh for the maximum |
/// | `no-cache` (with or without field names) | revalidated on every use |
/// | `must-revalidate`, `proxy-revalidate` | nothing recorded |
/// | `ETag`, `Last-Modified` | kept as sent, to revalidate with |
///
/// The lifetime is counted from the response's age when it arrived (§4.2.3): the larger of what
/// `Date` implies and `Age` plus the request's round trip, so
/// `freshUntil = responseTime + lifetime − initialAge`.
///
/// `must-revalidate` forbids serving a stale response when the server cannot be reached. The
/// store deliberately serves stale pictures when the network fails (scrolling must work offline),
/// so the directive would change nothing and is not recorded.
enum ResponseFreshness {
    /// The validity of a response to store, or nil if it must not be stored.
    ///
    /// - Parameters:
    ///   - headers: The response's header fields, names lowercased.
    ///   - requestTime: When the request was sent.
    ///   - responseTime: When the response's headers arrived.
    ///   - defaultLifetime: Seconds a response without `max-age` or `Expires` stays fresh.
    ///   - maximumLifetime: The most seconds any response stays fresh, whatever it says.
    /// - Returns: nil for `Cache-Control: no-store`.
    static func validity(
        headers: [String: String], requestTime: Double, responseTime: Double, defaultLifetime: Double,
        maximumLifetime: Double
    ) -> ResponseValidity? {
        let cacheControl = CacheControl(headers["cache-control"] ?? "")
        guard !cacheControl.noStore else { return nil }
        let maxAge = maxAgeSeconds(cacheControl)
        let expires = expiresSeconds(headers, responseTime: responseTime)
        let freshUntil = self.freshUntil(
            maxAge: maxAge, expires: expires, headers: headers, requestTime: requestTime, responseTime: responseTime,
            defaultLifetime: defaultLifetime, maximumLifetime: maximumLifetime)
        return ResponseValidity(
            freshUntil: cacheControl.noCache ? responseTime : freshUntil, revalidatesEveryUse: cacheControl.noCache,
            entityTag: headers["etag"], lastModified: headers["last-modified"], maxAge: maxAge, expires: expires)
    }

    /// The validity of a stored response after the server answered its revalidation with
    /// `304 Not Modified` (§4.3.4).
    ///
    /// The 304's header fields replace the stored response's fields of the same name, and
    /// freshness is computed from the result, counted from the 304's `Date` and age:
    ///
    /// | the 304 carries | the result |
    /// |---|---|
    /// | `Cache-Control` | its `max-age` (or none) replaces the stored one; revalidated on every use if and only if it says `no-cache` (or `no-store`) |
    /// | no `Cache-Control` | the stored `max-age` holds; revalidated on every use if the stored response was |
    /// | `Expires` | replaces the stored one |
    /// | no `Expires` | the stored one holds |
    /// | `ETag`, `Last-Modified` | these validators replace the stored ones |
    ///
    /// Then, as for a new response: fresh for `max-age`, else until `Expires`, else for
    /// `defaultLifetime`. A `no-store` on a 304 cannot unstore the body already kept; it is read
    /// as `no-cache`, so the body is never used without asking the server again.
    ///
    /// - Parameters:
    ///   - stored: The validity kept with the response.
    ///   - notModifiedHeaders: The 304's header fields, names lowercased.
    ///   - requestTime: When the conditional request was sent.
    ///   - responseTime: When the 304 arrived.
    ///   - defaultLifetime: Seconds a response without `max-age` or `Expires` stays fresh.
    ///   - maximumLifetime: The most seconds any response stays fresh, whatever it says.
    static func refreshed(
        _ stored: ResponseValidity, by notModifiedHeaders: [String: String], requestTime: Double,
        responseTime: Double, defaultLifetime: Double, maximumLifetime: Double
    ) -> ResponseValidity {
        let cacheControlField = notModifiedHeaders["cache-control"]
        let cacheControl = CacheControl(cacheControlField ?? "")
        let revalidatesEveryUse =
            cacheControlField == nil ? stored.revalidatesEveryUse : cacheControl.noCache || cacheControl.noStore
        let maxAge = cacheControlField == nil ? stored.maxAge : maxAgeSeconds(cacheControl)
        let expires =
            notModifiedHeaders["expires"] == nil
            ? stored.expires : expiresSeconds(notModifiedHeaders, responseTime: responseTime)
        let freshUntil = self.freshUntil(
            maxAge: maxAge, expires: expires, headers: notModifiedHeaders, requestTime: requestTime,
            responseTime: responseTime, defaultLifetime: defaultLifetime, maximumLifetime: maximumLifetime)
        return ResponseValidity(
            freshUntil: revalidatesEveryUse ? responseTime : freshUntil, revalidatesEveryUse: revalidatesEveryUse,
            entityTag: notModifiedHeaders["etag"] ?? stored.entityTag,
            lastModified: notModifiedHeaders["last-modified"] ?? stored.lastModified, maxAge: maxAge,
            expires: expires)
    }

    /// `max-age` in seconds: 0 for an invalid one (stale at once), nil without one.
    private static func maxAgeSeconds(_ cacheControl: CacheControl) -> Double? {
        switch cacheControl.maxAge {
        case .seconds(let seconds): seconds
        case .invalid: 0
        case nil: nil
        }
    }

    /// `Expires` in seconds since 1970, nil without one. §5.3: an invalid date, "0" above all,
    /// means already expired: 0.
    private static func expiresSeconds(_ headers: [String: String], responseTime: Double) -> Double? {
        headers["expires"].map { HTTPDateParser.secondsSince1970($0, now: responseTime) ?? 0 }
    }

    /// `responseTime + lifetime − initialAge`, the age and `Expires`'s reference from `headers`,
    /// the lifetime at most `maximumLifetime`.
    private static func freshUntil(
        maxAge: Double?, expires: Double?, headers: [String: String], requestTime: Double, responseTime: Double,
        defaultLifetime: Double, maximumLifetime: Double
    ) -> Double {
        let date = headers["date"].flatMap { HTTPDateParser.secondsSince1970($0, now: responseTime) }
        let declared = freshnessLifetime(
            maxAge: maxAge, expires: expires, date: date ?? responseTime, defaultLifetime: defaultLifetime)
        // A lifetime that is not a number is none at all.
        let lifetime = declared.isNaN ? 0 : min(declared, maximumLifetime)
        return responseTime + lifetime
            - initialAge(headers: headers, date: date, requestTime: requestTime, responseTime: responseTime)
    }

    /// §4.2.1: `max-age`, else `Expires − Date`, else the default.
    ///
    /// - Parameters:
    ///   - maxAge: `max-age` in seconds, or nil.
    ///   - expires: `Expires` in seconds since 1970, or nil.
    ///   - date: The `Date` header's instant, or the response time without one: what `Expires`
    ///     is measured from.
    static func freshnessLifetime(maxAge: Double?, expires: Double?, date: Double, defaultLifetime: Double) -> Double {
        if let maxAge { return maxAge }
        guard let expires else { return defaultLifetime }
        return max(0, expires - date)
    }

    /// §4.2.3: the response's age when it arrived, the larger of what `Date` implies and what
    /// `Age` says plus the time the request took (which may have aged it upstream).
    ///
    /// - Parameter date: The `Date` header's instant; nil when absent or invalid, which implies
    ///   no age (RFC 9110 §6.6.1: the recipient's clock stands in for it).
    static func initialAge(
        headers: [String: String], date: Double?, requestTime: Double, responseTime: Double
    ) -> Double {
        let apparentAge = date.map { max(0, responseTime - $0) } ?? 0
        // Several Age lines arrive joined: the first counts; an invalid one is ignored.
        let ageValue = headers["age"].flatMap { field in
            CacheControl.deltaSeconds(trimmingWhitespace(field.split(separator: ",").first ?? ""))
        }
        let responseDelay = max(0, responseTime - requestTime)
        let correctedAgeValue = (ageValue ?? 0) + responseDelay
        return max(apparentAge, correctedAgeValue)
    }

    /// `text` without spaces and tabs at either end.
    private static func trimmingWhitespace(_ text: Substring) -> Substring {
        var trimmed = text
        while trimmed.first == " " || trimmed.first == "\t" { trimmed.removeFirst() }
        while trimmed.last == " " || trimmed.last == "\t" { trimmed.removeLast() }
        return trimmed
    }
}
