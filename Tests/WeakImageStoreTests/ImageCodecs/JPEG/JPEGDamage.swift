import Foundation

@testable import ImageCodecs
@testable import WeakImageStore

/// A way to damage a suite file, applied to its bytes.
enum JPEGDamage: CustomStringConvertible {
    /// The first `at` bytes only.
    case truncate(String, at: Int)
    /// The first `at` bytes, then an EOI marker.
    case endEarly(String, at: Int)
    /// One byte replaced.
    case replace(String, at: Int, with: UInt8)
    /// `count` bytes removed.
    case delete(String, at: Int, count: Int)
    /// Two bytes exchanged.
    case swap(String, Int, Int)
    /// `bytes` inserted before byte `at`.
    case insert(String, at: Int, [UInt8])
    /// Several edits, each replacing `removing` bytes from byte `at` of the original file by `bytes`.
    case splice(String, [(at: Int, removing: Int, bytes: [UInt8])])
    /// The first `at` bytes, then `bytes` (the start of a segment the file ends inside).
    case endWith(String, at: Int, [UInt8])

    var description: String {
        switch self {
        case .truncate(let name, let offset): "\(name) cut at \(offset)"
        case .endEarly(let name, let offset): "\(name) cut at \(offset), then EOI"
        case .replace(let name, let offset, let byte): "\(name) with byte \(offset) = \(byte)"
        case .delete(let name, let offset, let count): "\(name) without bytes \(offset)..<\(offset + count)"
        case .swap(let name, let first, let second): "\(name) with bytes \(first) and \(second) swapped"
        case .insert(let name, let offset, let bytes): "\(name) with \(bytes.count) bytes inserted at \(offset)"
        case .endWith(let name, let offset, let bytes): "\(name) cut at \(offset), then \(bytes)"
        case .splice(let name, let edits): "\(name) with edits at \(edits.map(\.at))"
        }
    }

    /// The damaged file.
    func apply() throws -> Data {
        switch self {
        case .truncate(let name, let offset):
            return try JPEGTestFiles.file(name).prefix(offset)
        case .endEarly(let name, let offset):
            return try JPEGTestFiles.file(name).prefix(offset) + [0xFF, 0xD9]
        case .replace(let name, let offset, let byte):
            var bytes = [UInt8](try JPEGTestFiles.file(name))
            bytes[offset] = byte
            return Data(bytes)
        case .delete(let name, let offset, let count):
            var bytes = [UInt8](try JPEGTestFiles.file(name))
            bytes.removeSubrange(offset..<(offset + count))
            return Data(bytes)
        case .swap(let name, let first, let second):
            var bytes = [UInt8](try JPEGTestFiles.file(name))
            bytes.swapAt(first, second)
            return Data(bytes)
        case .insert(let name, let offset, let inserted):
            var bytes = [UInt8](try JPEGTestFiles.file(name))
            bytes.insert(contentsOf: inserted, at: offset)
            return Data(bytes)
        case .splice(let name, let edits):
            var bytes = [UInt8](try JPEGTestFiles.file(name))
            for edit in edits.sorted(by: { $0.at > $1.at }) {
                bytes.replaceSubrange(edit.at..<(edit.at + edit.removing), with: edit.bytes)
            }
            return Data(bytes)
        case .endWith(let name, let offset, let tail):
            return try JPEGTestFiles.file(name).prefix(offset) + tail
        }
    }
}
