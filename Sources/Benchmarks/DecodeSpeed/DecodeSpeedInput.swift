import Foundation

/// One row of the decode speed comparison: a set of PNG files decoded together per sample.
struct DecodeSpeedInput {
    /// What the files are, as the table shows it: "icons 16-180 px", "photo 2048×1536".
    let label: String
    /// The PNG files; one sample decodes each of them once.
    let files: [Data]
}
