import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The request for picture `number`: an https URL, so the disk cache stores it.
func pictureRequest(_ number: Int) -> ImageRequest {
    .url(URL(string: "https://pictures.example/\(number).png")!)
}

/// The identity the disk cache stores picture `number` under.
func pictureIdentity(_ number: Int) -> SourceIdentity {
    DiskImageCache.storedIdentity(of: pictureRequest(number))!
}

/// `count` bytes that depend on `seed` only.
func seededBytes(_ count: Int, seed: UInt64) -> Data {
    var random = SeededGenerator(seed: seed)
    var bytes = [UInt8](repeating: 0, count: count)
    var index = 0
    while index < count {
        let word = random.next()
        for shift in stride(from: 0, to: 64, by: 8) where index < count {
            bytes[index] = UInt8(truncatingIfNeeded: word >> UInt64(shift))
            index += 1
        }
    }
    return Data(bytes)
}

/// A validity fresh for an hour, with validators.
func validity(entityTag: String? = "\"v1\"", lastModified: String? = "Wed, 21 Oct 2015 07:28:00 GMT")
    -> ResponseValidity
{
    ResponseValidity(
        freshUntil: Date().timeIntervalSince1970 + 3_600, revalidatesEveryUse: false, entityTag: entityTag,
        lastModified: lastModified)
}

/// Opens a disk cache in `directory` (by default with the real file system).
func makeDiskCache(
    in directory: URL, sizeLimit: Int = 10 * 1024 * 1024, fileSystem: DiskCacheFileSystem = .posix
) throws -> DiskImageCache {
    try DiskImageCache(directory: directory, sizeLimit: sizeLimit, fileSystem: fileSystem)
}

/// What is in a cache folder, measured on disk rather than taken from the cache.
struct DiskCacheFolder {
    let url: URL

    var journalSize: Int { fileSize(url.appendingPathComponent("journal").path) }

    /// Every file under `bodies/`, by name, with its size.
    var bodyFiles: [String: Int] {
        var files: [String: Int] = [:]
        let bodies = url.appendingPathComponent("bodies")
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: bodies.path)) ?? [] {
            let folderURL = bodies.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folderURL.path)) ?? [] {
                files[name] = fileSize(folderURL.appendingPathComponent(name).path)
            }
        }
        return files
    }

    /// The bytes the cache keeps in its folder, counted from the files themselves.
    var bytesOnDisk: Int { journalSize + bodyFiles.values.reduce(0, +) }

    var temporaryFiles: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("tmp").path)) ?? []
    }

    func bodyPath(_ identity: SourceIdentity) -> String {
        DiskCacheLayout(directory: url.standardizedFileURL.path).bodyPath(for: DiskImageCache.digest(of: identity))
    }

    private func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}

/// A file system whose writes fail with `ENOSPC` while ``isFull`` is set, or once a number of
/// bytes was written.
final class FillableFileSystem: Sendable {
    private let state = Lock((isFull: false, bytesLeft: Int.max))

    var isFull: Bool {
        get { state.withLock { $0.isFull } }
        set { state.withLock { $0.isFull = newValue } }
    }

    /// Lets `count` more bytes through, then fails every write.
    func fill(after count: Int) {
        state.withLock { $0.bytesLeft = count }
    }

    var fileSystem: DiskCacheFileSystem {
        DiskCacheFileSystem { [self] descriptor, bytes, offset in
            let allowed = state.withLock { state -> Int in
                if state.isFull { return 0 }
                let allowed = min(bytes.count, state.bytesLeft)
                state.bytesLeft -= allowed
                if state.bytesLeft == 0 { state.isFull = true }
                return allowed
            }
            guard allowed > 0 else { return -Int(ENOSPC) }
            return DiskCacheFileSystem.posix.write(
                descriptor, UnsafeRawBufferPointer(rebasing: bytes[..<allowed]), offset)
        }
    }
}
