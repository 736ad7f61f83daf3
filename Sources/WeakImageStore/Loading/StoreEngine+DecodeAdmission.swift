import Foundation

/// Admitting decodes against the store's shared byte cap, so that several large decodes wait
/// for each other instead of multiplying their peaks.
extension StoreEngine {
    /// Waits until the decode of `bytes` for `key` may run beside the decodes running now.
    ///
    /// Its peak comes from the decoder (``ImageDecoding/decodingPeakBytes(of:options:)``), from the
    /// header in the options;
    /// a decoder that cannot tell is admitted at once and counted as 0. Synchronous callers go
    /// through admission too, so the cap bounds every decode of the store; they cannot deadlock:
    /// an admitted decode never waits for another load or for admission again (a synchronous
    /// caller that joins a running load waits on its latch without holding an admission, and one
    /// that takes over a queued load asks for admission like a loading thread).
    ///
    /// - Parameter cancellation: A loading thread's: a stop requested while it waits ends the
    ///   wait at once. Nil for a synchronous caller.
    /// - Returns: The bytes admitted, for ``DecodeAdmission/release(_:)`` after the decode; nil
    ///   if the load stopped while waiting.
    func admitDecode(of bytes: Data, options: DecodeOptions, cancellation: DecodeCancellation?) -> Int? {
        let peak = max(0, peakBytes(bytes, options) ?? 0)
        let admitted = decodeAdmission.admit(peak, cancellation: cancellation) {
            self.state.withLock { $0.loads.resumePausedLoad() }
        }
        return admitted ? peak : nil
    }
}
