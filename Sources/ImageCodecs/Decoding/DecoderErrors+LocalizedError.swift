import Foundation

// `error.localizedDescription` is the sentence each error's `description` gives, rather than
// Foundation's "The operation could not be completed. (ImageCodecs.PNGError error 3.)".

extension BitmapDecoderError: LocalizedError {
    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}

extension PNGError: LocalizedError {
    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}

extension JPEGError: LocalizedError {
    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}

extension GIFError: LocalizedError {
    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}

extension InflateError: LocalizedError {
    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}
