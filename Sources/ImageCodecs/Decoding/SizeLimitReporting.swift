/// An error that may say a decode was refused for its size rather than for its bytes.
///
/// The store keeps no record of a refusal by size: the same bytes may fit as a thumbnail, so
/// they are neither removed from the disk cache nor backed off as undecodable.
package protocol SizeLimitReporting: Error {
    /// Whether the image (or its decode) was larger than a limit allows.
    var exceedsSizeLimit: Bool { get }
}
