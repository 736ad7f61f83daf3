import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Access to the JPEG conformance suite, `Tests/WeakImageStoreTests/Fixtures/jpegsuite`.
enum JPEGTestFiles {
    /// One row of MANIFEST.tsv.
    struct Entry {
        var name: String
        var status: String
        var width: Int
        var height: Int
        var notes: String
    }

    static func directory() throws -> URL {
        try SharedTestData.directory(named: "jpegsuite")
    }

    /// The suite's `REFERENCES.tsv`, read once.
    private static let references = Result { try SuiteReferences(folder: directory()) }

    static func manifest() throws -> [Entry] {
        try rows(of: "MANIFEST.tsv").map { fields in
            Entry(
                name: fields[0], status: fields[1], width: Int(fields[2]) ?? 0, height: Int(fields[3]) ?? 0,
                notes: fields.count > 4 ? fields[4] : ""
            )
        }
    }

    /// DAMAGED.tsv: the damaged files libjpeg-turbo decodes with a warning, and their size.
    static func damaged() throws -> [(name: String, width: Int, height: Int)] {
        try rows(of: "DAMAGED.tsv").map { ($0[0], Int($0[1]) ?? 0, Int($0[2]) ?? 0) }
    }

    /// SCALED.tsv: file name and denominator to the scaled reference's size.
    static func scaledSizes() throws -> [(name: String, denominator: Int, width: Int, height: Int)] {
        try rows(of: "SCALED.tsv").map { ($0[0], Int($0[1]) ?? 0, Int($0[2]) ?? 0, Int($0[3]) ?? 0) }
    }

    static func file(_ name: String) throws -> Data {
        try Data(contentsOf: directory().appendingPathComponent(name))
    }

    /// The reference RGBA of `name` at 1/`denominator` scale.
    static func reference(_ name: String, denominator: Int = 1) throws -> [UInt8] {
        let base = (name as NSString).deletingPathExtension
        let suffix = denominator == 1 ? "" : ".s\(denominator)"
        return try references.get().pixels("reference/\(base)\(suffix).rgba")
    }

    /// The error decoding `data` throws, or `nil` if it decodes.
    static func decodingError(_ data: Data, scaleDenominator: Int = 1, strict: Bool = true) -> JPEGError? {
        do {
            _ = try JPEGDecoder(strict: strict).decodeScaled(data, scale: 1, scaleDenominator: scaleDenominator).bitmap
            return nil
        } catch {
            return error
        }
    }

    /// A failure message naming the first pixel where `actual` differs from `expected`, or `nil`.
    static func firstDifference(_ actual: [UInt8], _ expected: [UInt8], width: Int, name: String) -> String? {
        guard actual != expected else { return nil }
        guard actual.count == expected.count else {
            return "\(name): \(actual.count) RGBA bytes, reference has \(expected.count)"
        }
        let index = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? 0
        let pixel = index / 4
        return "\(name): first differing pixel (x \(pixel % width), y \(pixel / width)): "
            + "decoded \(Array(actual[(pixel * 4)..<(pixel * 4 + 4)])), "
            + "libjpeg-turbo \(Array(expected[(pixel * 4)..<(pixel * 4 + 4)]))"
    }

    private static func rows(of table: String) throws -> [[String]] {
        let text = try String(contentsOf: directory().appendingPathComponent(table), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }
}
