/// What the disk cache keeps about a downloaded response beside its body: until when it may be
/// used without asking the server, and how to ask it (RFC 9111 §4.2, §4.3).
///
/// Made from the response's headers by ``ResponseFreshness``; stored in the cache's index with
/// the entry, and refreshed there by a `304 Not Modified`.
struct ResponseValidity: Sendable, Equatable {
    /// Seconds since 1970 (UTC) until which the entry is fresh. An entry that must be
    /// revalidated on every use (`no-cache`) has its storing time here.
    var freshUntil: Double
    /// `Cache-Control: no-cache`: ask the server before every use from disk, whatever
    /// ``freshUntil`` says; kept when a 304 omits the header.
    var revalidatesEveryUse: Bool
    /// The response's `ETag`, exactly as sent (weak ones included: `If-None-Match` compares
    /// weakly).
    var entityTag: String?
    /// The response's `Last-Modified`, exactly as sent.
    var lastModified: String?
    /// The response's `Cache-Control: max-age` in seconds (0 for an invalid one), nil without
    /// one: a `304 Not Modified` without `Cache-Control` leaves it in force (RFC 9111 §4.3.4).
    var maxAge: Double?
    /// The response's `Expires` in seconds since 1970 (0, long past, for an invalid date), nil
    /// without one: a 304 without `Expires` leaves it in force.
    var expires: Double?

    /// Whether a conditional request can revalidate the entry.
    var canRevalidate: Bool { entityTag != nil || lastModified != nil }

    /// Whether the entry may be used at `now` (seconds since 1970) without asking the server.
    ///
    /// An entry fresh for longer than `maximumLifetime` from now is read as stale: no response
    /// stored by this cache can be, so its index was altered, or the clock was set back.
    /// (`NaN` compares false, so it is stale too.)
    func isFresh(at now: Double, maximumLifetime: Double) -> Bool {
        !revalidatesEveryUse && now < freshUntil && freshUntil - now <= maximumLifetime
    }
}
