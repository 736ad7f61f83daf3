import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One task's response as it arrives: refused on its redirects, status or declared length before
/// any body is read; counted against the size limit as it grows; written to a ``BodyFile`` (or
/// appended to a kept ``PartialBody``); and checked against its declared length at the end.
/// Nothing partial comes out of it, except a partial body kept for resuming.
///
/// | event | refused with |
/// |---|---|
/// | an 11th redirect | ``ImageStoreError/downloadFailed(_:reason:)`` |
/// | a redirect from https to http | ``ImageStoreError/downloadFailed(_:reason:)`` |
/// | a redirect to anything but `http` or `https` (`file:`, `ftp:`, `data:`) | ``ImageStoreError/downloadFailed(_:reason:)`` |
/// | cut off for its pace (``cutOff(because:)``) | ``ImageStoreError/downloadFailed(_:reason:)`` |
/// | a status other than 2xx, or 304 to a conditional request, or 206 to a range request | ``ImageStoreError/httpStatus(_:code:)`` |
/// | `Content-Length` over the limit | ``ImageStoreError/responseTooLarge(_:limit:)`` |
/// | body bytes past the limit | ``ImageStoreError/responseTooLarge(_:limit:)`` |
/// | the connection ends before `Content-Length` bytes | ``ImageStoreError/responseTruncated(_:expected:received:)`` |
///
/// A refusal is remembered here and the delegate cancels the task (on Linux the response
/// disposition `.cancel` is ignored), so the error that ends the task is this one, not the
/// cancellation.
///
/// When the request continues a partial body (`Range: bytes=<length>-`, `If-Range`):
///
/// | answer | what happens |
/// |---|---|
/// | 206, `Content-Range: bytes <length>-<total − 1>/<total>`, total as known, the same strong `ETag` if the partial body's validator is one | the rest is appended to the partial body's file |
/// | 200 (the representation changed) | the partial body is deleted; the new body is read from its start |
/// | 416, or a 206 that does not continue the partial body (another range, another or no `ETag`) | the partial body is deleted, and the ending asks for the whole body in a new request |
/// | anything else (a refused connection, 404) | the partial body is handed back to be kept |
struct ResponseStream: Sendable {
    /// How a task ended.
    enum Ending: Sendable {
        /// The transfer's outcome.
        ///
        /// - Parameters:
        ///   - keeping: A partial body to keep for resuming: its file is not deleted.
        ///   - resumedBytes: Bytes of the body that came from a partial body, not the network.
        case finished(Result<DownloadResponse, ImageStoreError>, keeping: PartialBody?, resumedBytes: Int)
        /// The server refused to continue the partial body, which is deleted: ask again for the
        /// whole body.
        case restartWithoutRange
    }

    /// Redirects followed before the transfer fails; URLSession's own limits differ by platform.
    static let maximumRedirects = 10

    /// The URL the caller asked for: every error names it, whatever redirects followed.
    let url: URL
    /// The identity a kept partial body is filed under.
    let identity: SourceIdentity
    /// The most body bytes accepted.
    let limit: Int
    /// Where the body's file is made.
    let bodyDirectory: URL
    /// The body's bytes in ``bodyDirectory``, counted against the disk cache's budget for
    /// downloads; nil outside a disk cache. Released when the last copy of the stream goes.
    private let reservation: DiskCacheTemporaryBudget.Reservation?
    /// Whether the request carried `If-None-Match` or `If-Modified-Since`, so a 304 is an answer.
    let isConditional: Bool
    /// Seconds since 1970 when the request was sent.
    let requestTime: Double
    /// Body bytes received, counted whether or not they were kept; a continued partial body's
    /// bytes included.
    private(set) var received = 0

    /// Whether so little of a whole, uncoded body is still to come that finishing it costs less
    /// than cancelling: its headers are in and at most `remaining` bytes are still to come. What
    /// this client has counted lags what the server has written, so a body this close to its end
    /// is largely on the wire already, and one this small is not kept to resume.
    func isNearlyDone(within remaining: Int) -> Bool {
        guard response != nil, failure == nil, let declaredLength else { return false }
        return declaredLength - received <= remaining
    }
    /// Whether the final response's headers arrived.
    var hasResponse: Bool { response != nil }

    /// Why the response was refused, if it was.
    private(set) var failure: ImageStoreError?
    private var redirects = 0
    /// The length the body must reach: `Content-Length` (or the `Content-Range` total), unless a
    /// content coding makes it the length of other bytes than the ones delivered.
    private var declaredLength: Int?
    private var file: BodyFile?
    /// The partial body the request asked to continue, until the answer adopts or drops it.
    private var resuming: PartialBody?
    /// Bytes of the body taken from a partial body.
    private var resumedBytes = 0
    /// The validator of the partial body continued, for a 206 that repeats none.
    private var resumedValidator: String?
    /// The final response's header fields, names lowercased, and when they arrived.
    private var response: (headers: [String: String], time: Double)?
    private var isNotModified = false
    private var restartsWithoutRange = false
    /// Why the downloader cut the task off (too slow), if it did: the error its cancellation
    /// ends with. Unlike a refusal, it leaves a partial body worth keeping.
    private var cutOffReason: String?

    /// - Parameters:
    ///   - url: The URL asked for.
    ///   - identity: Its identity.
    ///   - limit: The most body bytes accepted.
    ///   - bodyDirectory: Where the body's file is made.
    ///   - temporaryBudget: What the body's bytes there are counted against, if anything.
    ///   - isConditional: Whether the request revalidates.
    ///   - resuming: The partial body the request asks to continue; the stream owns its file
    ///     from now on.
    ///   - requestTime: Seconds since 1970 when the request is sent.
    init(
        url: URL, identity: SourceIdentity, limit: Int, bodyDirectory: URL,
        temporaryBudget: DiskCacheTemporaryBudget? = nil, isConditional: Bool = false,
        resuming: PartialBody? = nil, requestTime: Double = 0
    ) {
        self.url = url
        self.identity = identity
        self.limit = limit
        self.bodyDirectory = bodyDirectory
        reservation = temporaryBudget?.makeReservation()
        self.isConditional = isConditional
        self.resuming = resuming
        self.requestTime = requestTime
    }

    /// Decides on a redirect from `source` (the URL that answered with it) to `destination`.
    ///
    /// - Returns: Whether to follow it.
    mutating func allowsRedirect(from source: URL?, to destination: URL?) -> Bool {
        guard failure == nil else { return false }
        redirects += 1
        let scheme = destination?.scheme?.lowercased()
        if redirects > Self.maximumRedirects {
            failure = .downloadFailed(url, reason: "more than \(Self.maximumRedirects) redirects")
        } else if scheme != "http", scheme != "https" {
            // Foundation refuses most of these itself, but not on every platform and version.
            let what = scheme.map { "a \($0): URL" } ?? "a URL without a scheme"
            failure = .downloadFailed(url, reason: "refused a redirect to \(what)")
        } else if source?.scheme?.lowercased() == "https", scheme == "http" {
            let target = destination.map(CanonicalURL.withoutUserInfo) ?? "an http URL"
            failure = .downloadFailed(url, reason: "refused a redirect from https to http (\(target))")
        }
        return failure == nil
    }

    /// Ends the transfer for being too slow: the cancellation that carries it out ends the task
    /// with ``ImageStoreError/downloadFailed(_:reason:)`` saying `reason`, and the body received
    /// so far is kept as a partial body when it can be resumed.
    mutating func cutOff(because reason: String) {
        if failure == nil, cutOffReason == nil { cutOffReason = reason }
    }

    /// Checks the final response, which arrived at `time` (seconds since 1970), and opens the
    /// body's file.
    ///
    /// - Returns: Whether to read the body.
    mutating func accepts(_ response: URLResponse, at time: Double = Date().timeIntervalSince1970) -> Bool {
        guard failure == nil, !restartsWithoutRange else { return false }
        guard let response = response as? HTTPURLResponse else {
            failure = .downloadFailed(url, reason: "the response is not an HTTP response")
            return false
        }
        let headers = Self.headerFields(of: response)
        self.response = (headers, time)
        discardBody()  // A second final response replaces the first.
        received = 0
        resumedBytes = 0
        resumedValidator = nil
        isNotModified = false
        switch response.statusCode {
        case 304 where isConditional:
            isNotModified = true
            return true
        case 206:
            guard let partial = resuming else {
                failure = .httpStatus(url, code: 206)
                return false
            }
            return continues(partial, with: response, headers: headers)
        case 416 where resuming != nil:
            dropResumedBodyAndRestart()
            return false
        case 200..<300:
            // A whole body: the representation changed, or the server ignores ranges.
            resuming?.delete()
            resuming = nil
            return opensNewFile(for: response, headers: headers)
        default:
            failure = .httpStatus(url, code: response.statusCode)
            return false
        }
    }

    /// Appends a piece of the body, unless it would take the body past the limit.
    ///
    /// - Returns: Whether to go on reading.
    mutating func append(_ data: Data) -> Bool {
        received += data.count
        guard failure == nil, let file else { return false }
        guard received <= limit else {
            failure = .responseTooLarge(url, limit: limit)
            return false
        }
        if let reservation, !reservation.grow(by: data.count) {
            failure = .downloadFailed(url, reason: "the disk cache's room for downloads in progress is full")
            return false
        }
        do {
            try file.append(data)
        } catch {
            failure = .downloadFailed(url, reason: error.description)
            return false
        }
        return true
    }

    /// How the task ended, given the `error` it completed with: the response, or why there is
    /// none. The body's file is closed, then deleted unless kept as a partial body; the stream is
    /// spent.
    ///
    /// A refusal recorded earlier wins over the cancellation that carried it out; a cancellation
    /// nobody asked for here is ``ImageStoreError/cancelled``. A body cut short (the connection
    /// lost, a timeout, the transfer cancelled) is kept as a partial body when it can be resumed:
    /// at least ``PartialBody/minimumLength`` bytes, a strong validator, no content coding.
    mutating func finish(transportError error: (any Error)?) -> Ending {
        let file = self.file
        self.file = nil
        file?.finishWriting()
        let unadopted = resuming
        resuming = nil
        if restartsWithoutRange { return .restartWithoutRange }
        let result = outcome(transportError: error, file: file)
        var kept: PartialBody?
        if case .failure = result, failure == nil, let file, let partial = partialBody(in: file) {
            kept = partial
        } else {
            file?.delete()
        }
        // A partial body that no 2xx answer touched is still good for another try.
        return .finished(result, keeping: kept ?? unadopted, resumedBytes: resumedBytes)
    }

    /// Closes and deletes the body's file, if one is open, and the partial body the request
    /// meant to continue: nothing will resume it (the session is gone).
    mutating func discard() {
        discardBody()
        resuming?.delete()
        resuming = nil
    }

    // MARK: Answers

    /// The outcome as the caller sees it, before any partial body is kept.
    private func outcome(transportError error: (any Error)?, file: BodyFile?) -> Result<
        DownloadResponse, ImageStoreError
    > {
        if let failure { return .failure(failure) }
        let short = declaredLength.map { received < $0 } ?? false
        if let error {
            if TransportFailure.isCancellation(error) {
                return .failure(cutOffReason.map { .downloadFailed(url, reason: $0) } ?? .cancelled)
            }
            if short, !TransportFailure.isTimeout(error), let declaredLength {
                return .failure(.responseTruncated(url, expected: declaredLength, received: received))
            }
            return .failure(.downloadFailed(url, reason: TransportFailure.reason(for: error)))
        }
        if short, let declaredLength {
            return .failure(.responseTruncated(url, expected: declaredLength, received: received))
        }
        guard let response else {
            return .failure(.downloadFailed(url, reason: "the transfer ended without a response"))
        }
        let content: DownloadResponse.Content
        if isNotModified {
            content = .notModified
        } else {
            guard let file else {
                return .failure(.downloadFailed(url, reason: "the transfer ended without a response"))
            }
            do {
                content = .body(try file.contents(length: received))
            } catch {
                return .failure(.downloadFailed(url, reason: error.description))
            }
        }
        return .success(
            DownloadResponse(
                content: content, headers: response.headers, requestTime: requestTime, responseTime: response.time))
    }

    /// The body cut short in `file`, if it is worth keeping and can be resumed.
    private func partialBody(in file: BodyFile) -> PartialBody? {
        guard let headers = response?.headers, received >= PartialBody.minimumLength,
            declaredLength.map({ received < $0 }) ?? true,
            let validator = PartialBody.rangeValidator(of: headers) ?? resumedValidator
        else { return nil }
        return PartialBody(
            identity: identity, path: file.path, length: received, validator: validator, totalLength: declaredLength)
    }

    /// Checks a whole body's declared length and opens a new file for it.
    private mutating func opensNewFile(for response: HTTPURLResponse, headers: [String: String]) -> Bool {
        let length = response.expectedContentLength
        if length > Int64(limit) {
            failure = .responseTooLarge(url, limit: limit)
            return false
        }
        let coding = headers["content-encoding"]?.lowercased() ?? "identity"
        declaredLength = length >= 0 && coding == "identity" ? Int(length) : nil
        do {
            file = try BodyFile.create(in: bodyDirectory)
        } catch {
            failure = .downloadFailed(url, reason: error.description)
            return false
        }
        return true
    }

    /// Adopts `partial` if the 206 continues it exactly; otherwise drops it and asks for a
    /// restart. A partial body kept under a strong `ETag` takes only a 206 that carries the same
    /// one (strong comparison, RFC 9110 §8.8.3.2): a 206 without it may be another
    /// representation's bytes, and splicing those on would make a picture nobody sent.
    private mutating func continues(
        _ partial: PartialBody, with response: HTTPURLResponse, headers: [String: String]
    ) -> Bool {
        guard let range = headers["content-range"].flatMap(Self.contentRange),
            range.first == partial.length,
            let total = range.total ?? partial.totalLength, partial.totalLength.map({ $0 == total }) ?? true,
            range.last == total - 1,
            response.expectedContentLength < 0 || response.expectedContentLength == Int64(total - partial.length),
            (headers["content-encoding"]?.lowercased() ?? "identity") == "identity",
            !partial.validator.hasPrefix("\"") || headers["etag"] == partial.validator
        else {
            dropResumedBodyAndRestart()
            return false
        }
        guard total <= limit else {
            resuming?.delete()
            resuming = nil
            failure = .responseTooLarge(url, limit: limit)
            return false
        }
        do {
            file = try BodyFile.openForAppending(path: partial.path, expectedLength: partial.length)
        } catch {
            dropResumedBodyAndRestart()
            return false
        }
        resuming = nil
        received = partial.length
        resumedBytes = partial.length
        resumedValidator = partial.validator
        declaredLength = total
        return true
    }

    private mutating func dropResumedBodyAndRestart() {
        resuming?.delete()
        resuming = nil
        restartsWithoutRange = true
    }

    /// Closes and deletes the body's file, if one is open.
    private mutating func discardBody() {
        guard let file else { return }
        self.file = nil
        file.finishWriting()
        file.delete()
    }

    // MARK: Header fields

    /// `bytes first-last/total` (RFC 9110 §14.4); `total` nil for `*`.
    static func contentRange(_ value: String) -> (first: Int, last: Int, total: Int?)? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.decimal(bounds[0]), let last = Self.decimal(bounds[1]),
            first <= last
        else { return nil }
        if parts[1] == "*" { return (first, last, nil) }
        guard let total = Self.decimal(parts[1]), last < total else { return nil }
        return (first, last, total)
    }

    /// Digits only, no sign, no overflow.
    private static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text)
    }

    /// Where a redirect leads by its `Location` field, resolved against the URL that answered;
    /// nil without one.
    static func redirectTarget(of response: HTTPURLResponse) -> URL? {
        guard let location = headerFields(of: response)["location"] else { return nil }
        return URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: response.url)?.absoluteURL
    }

    /// The response's header fields with lowercased names.
    static func headerFields(of response: HTTPURLResponse) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            let key = name.lowercased()
            fields[key] = fields[key].map { "\($0), \(value)" } ?? value
        }
        return fields
    }
}
