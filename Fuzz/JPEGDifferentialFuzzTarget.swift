// libFuzzer entry point comparing JPEGDecoder with libjpeg-turbo 2.1.5 on the same bytes, compiled
// together with the library's sources and linked with the libjpeg shim (Scripts/libjpeg-shim) by
// `Scripts/fuzz.sh jpeg-diff` (not part of the package).
//
// "libjpeg decodes it" means jpegshim_decode returns pixels: jpeg_read_header,
// jpeg_start_decompress, jpeg_read_scanlines for every row and jpeg_finish_decompress finish
// without error_exit, which is djpeg's exit status 0 or 2. Its warnings (emit_message level -1,
// "Corrupt JPEG data: ...", "Premature end of JPEG file") are counted and the first one kept, but
// do not stop it. Settings: djpeg's defaults with `-dct int` (JDCT_ISLOW, fancy upsampling, block
// smoothing), libjpeg's default output colour space (gray for one component, RGB for YCbCr and
// RGB, CMYK for CMYK and YCCK, turned into RGB with djpeg's `cmyk_to_rgb`), read through djpeg's
// stdio source (on an fmemopen stream: libjpeg's recovery from bad Huffman codes depends on its
// 4096-byte input buffer, see jpegshim.c). Scripts/fuzz.sh sets JSIMD_FORCENONE=1: libjpeg runs its portable C code, which
// JPEGDecoder follows (its SIMD inverse DCT overflows on out-of-range coefficients where the C one
// does not). Both sides get the same size limit on the frame (not the scaled output) and the same
// DCT scale, 1/2^((count + last byte) % 4), or JPEG_DIFF_SCALE=N for every input.
//
// JPEGDecoder runs in its default, recovering mode and its pixels are compared before the EXIF
// orientation (libjpeg does not apply it): the target calls JPEGFileDecoder and JPEGRenderer as
// `JPEGDecoder.decodeScaled` does, without the final `JPEGOrientation.apply`. Gray output
// is compared with gray, RGBA with RGB (alpha must be 255). Each execution falls in one class:
//
// | class                      | meaning                                                           |
// |----------------------------|-------------------------------------------------------------------|
// | bit-exact                  | both decode, same size, same bytes                                |
// | we-throw-libjpeg-warns     | we throw, libjpeg decodes with a warning                          |
// | we-throw-libjpeg-clean     | we throw, libjpeg decodes without a warning                       |
// | pixels-differ              | both decode, some sample differs by more than 1                   |
// | pixels-off-by-one          | both decode, samples differ by at most 1                          |
// | sizes-differ               | both decode, the sizes (or gray against colour) differ            |
// | libjpeg-fails-after-image  | we decode, libjpeg fails in jpeg_finish_decompress, rows all out  |
// | libjpeg-fails-before-image | we decode, libjpeg fails before its last row                      |
// | both-fail                  | both refuse the file                                              |
//
// Every class but bit-exact and both-fail is a disagreement. The counts, with details (our error
// case, libjpeg's message templates, progressive or sequential, the scale), go to
// JPEG_DIFF_OUTCOMES (default .build-fuzz/jpeg-diff-outcomes.tsv) every 10 000 executions and at
// exit. The first input of each of the first five distinct details of each disagreeing class goes
// to JPEG_DIFF_ARTIFACTS (default Fuzz/artifacts) as jpeg-diff-<class>-<n>.jpg, overwriting an
// earlier run's. Nothing crashes on a disagreement unless JPEG_DIFF_CRASH_ON_DISAGREEMENT is set,
// to 1 (every class) or to a comma-separated list of classes: then it crashes with a description,
// for -minimize_crash=1. JPEG_DIFF_NO_SMOOTHING=1 switches libjpeg's block smoothing off (a
// diagnostic: a difference it removes is in JPEGBlockSmoothing); JPEG_DIFF_VERBOSE=1 prints every
// execution's class to stderr.
//
// Known differences, each by design: we refuse arithmetic coding (`unsupportedProcess`;
// libjpeg-turbo decodes SOF9/SOF10), a frame above 1 Mi pixels whose data cannot hold one bit per
// block (`insufficientData`; libjpeg decodes gray), 2 or 5+ components (the shim refuses them as
// djpeg's PPM writer does, so both fail), and more than 1000 scans (`badScan`). A file libjpeg
// fails on only after its last row (a marker it cannot take after the last scan, read by
// jpeg_finish_decompress) is counted apart: we show the image, as libjpeg had.
import Foundation

/// The size limit of both decoders: small enough to keep every input fast.
private let maximumDimension = 4096
private let maximumPixelCount = 4096 * 4096
private let environment = ProcessInfo.processInfo.environment
private let forcedDenominator = environment["JPEG_DIFF_SCALE"].flatMap(Int.init)
private let blockSmoothing = environment["JPEG_DIFF_NO_SMOOTHING"] != "1"
private let verbose = environment["JPEG_DIFF_VERBOSE"] == "1"
private let crashClasses: Set<Outcome> = {
    guard let value = environment["JPEG_DIFF_CRASH_ON_DISAGREEMENT"], !value.isEmpty, value != "0" else { return [] }
    if value == "1" { return Set(Outcome.allCases.filter(\.isDisagreement)) }
    return Set(value.split(separator: ",").compactMap { Outcome(rawValue: String($0)) })
}()
private let outcomesPath = environment["JPEG_DIFF_OUTCOMES"] ?? ".build-fuzz/jpeg-diff-outcomes.tsv"
private let artifactDirectory = environment["JPEG_DIFF_ARTIFACTS"] ?? "Fuzz/artifacts"
private let artifactsPerClass = 5

/// One execution's class; the raw value names it in the table and in artifact file names.
private enum Outcome: String, CaseIterable {
    case bitExact = "bit-exact"
    case weThrowLibjpegWarns = "we-throw-libjpeg-warns"
    case weThrowLibjpegClean = "we-throw-libjpeg-clean"
    case pixelsDiffer = "pixels-differ"
    case pixelsOffByOne = "pixels-off-by-one"
    case sizesDiffer = "sizes-differ"
    case libjpegFailsAfterImage = "libjpeg-fails-after-image"
    case libjpegFailsBeforeImage = "libjpeg-fails-before-image"
    case bothFail = "both-fail"

    var isDisagreement: Bool { self != .bitExact && self != .bothFail }
}

/// The counters, written as a table; libFuzzer runs one input at a time on one thread.
private struct OutcomeTable {
    var executions = 0
    var counts: [Outcome: Int] = [:]
    var details: [Outcome: [String: Int]] = [:]
    /// The details of the inputs saved so far, per class: one input for each.
    var artifactsSaved: [Outcome: Set<String>] = [:]

    mutating func record(_ outcome: Outcome, details newDetails: [String]) {
        executions += 1
        counts[outcome, default: 0] += 1
        for detail in newDetails { details[outcome, default: [:]][detail, default: 0] += 1 }
    }

    func write() {
        var text = "class\tdetail\tcount\n"
        text += "executions\t\t\(executions)\n"
        for outcome in Outcome.allCases {
            text += "\(outcome.rawValue)\t\t\(counts[outcome] ?? 0)\n"
            for (detail, count) in (details[outcome] ?? [:]).sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
                text += "\(outcome.rawValue)\t\(detail)\t\(count)\n"
            }
        }
        try? text.write(toFile: outcomesPath, atomically: true, encoding: .utf8)
    }
}

nonisolated(unsafe) private var table = OutcomeTable()
private let writeAtExit: Void = { atexit { table.write() } }()

/// What JPEGDecoder made of the input, before the EXIF orientation.
private struct OurImage {
    var pixels: [UInt8]
    var width: Int
    var height: Int
    var format: PixelFormat
    var defect: JPEGError?
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGAgainstLibjpeg(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    _ = writeAtExit
    let denominator = forcedDenominator ?? [1, 2, 4, 8][(count + (count > 0 ? Int(bytes[count - 1]) : 0)) % 4]
    let ours: Result<OurImage, JPEGError>
    do throws(JPEGError) {
        ours = .success(try decodeOurs(bytes, count: count, denominator: denominator))
    } catch {
        ours = .failure(error)
    }
    var libjpeg = jpegshim_result()
    jpegshim_decode(
        bytes, count, UInt32(denominator), UInt32(maximumDimension), UInt(maximumPixelCount), blockSmoothing ? 1 : 0,
        &libjpeg)
    defer { free(libjpeg.pixels) }
    let (outcome, details, difference) = classify(ours, libjpeg)
    let scan = libjpeg.progressive != 0 ? "progressive" : "sequential"
    table.record(outcome, details: details + ["input: \(scan), 1/\(denominator)"])
    if table.executions % 10_000 == 0 { table.write() }
    guard outcome.isDisagreement || verbose else { return 0 }
    let report = describe(outcome, ours, libjpeg, difference: difference, denominator: denominator)
    if verbose { FileHandle.standardError.write(Data((report + "\n\n").utf8)) }
    if crashClasses.contains(outcome) {
        table.write()
        fatalError("DISAGREEMENT " + report)
    }
    if outcome.isDisagreement { saveArtifact(outcome, details, UnsafeBufferPointer(start: bytes, count: count)) }
    return 0
}

/// Decodes as `JPEGDecoder.decodeScaled(bytes:scale:scaleDenominator:)` does, without
/// applying the EXIF orientation.
private func decodeOurs(_ bytes: UnsafePointer<UInt8>, count: Int, denominator: Int) throws(JPEGError) -> OurImage {
    var file = try JPEGFileDecoder(
        bytes: bytes, count: count, maximumPixelCount: maximumPixelCount, maximumDimension: maximumDimension,
        scaleDenominator: denominator, recovers: true)
    try file.run()
    guard let frame = file.frame else { throw .incompleteImage }
    let pixels = try JPEGRenderer.pixels(of: file)
    return OurImage(
        pixels: pixels, width: ceilDivide(frame.width, denominator), height: ceilDivide(frame.height, denominator),
        format: file.colorSpace == .gray ? .gray8 : .rgba8, defect: file.defect)
}

/// Where the two images first differ, and by how much at most.
private struct PixelDifference {
    var x: Int
    var y: Int
    var ours: [UInt8]
    var libjpeg: [UInt8]
    var largest: Int
}

private func classify(
    _ ours: Result<OurImage, JPEGError>, _ libjpeg: jpegshim_result
) -> (Outcome, [String], PixelDifference?) {
    let libjpegError = "libjpeg: " + text(libjpeg.error_template)
    let libjpegWarning = "libjpeg warns: " + text(libjpeg.first_warning_template)
    let libjpegDecoded = libjpeg.pixels != nil && libjpeg.failed_phase == JPEGSHIM_NO_FAILURE
    switch ours {
    case .failure(let error):
        guard libjpegDecoded else { return (.bothFail, [], nil) }
        let name = "ours: " + caseName(error)
        if libjpeg.warning_count > 0 { return (.weThrowLibjpegWarns, [name, name + "; " + libjpegWarning], nil) }
        return (.weThrowLibjpegClean, [name], nil)
    case .success(let image):
        let ourDefect = "ours: " + (image.defect.map(caseName) ?? "intact")
        let warned = libjpeg.warning_count > 0 ? libjpegWarning : "libjpeg: no warning"
        guard libjpegDecoded, let pixels = libjpeg.pixels else {
            let after = libjpeg.failed_phase == JPEGSHIM_FAILED_IN_FINISH
            return (after ? .libjpegFailsAfterImage : .libjpegFailsBeforeImage, [libjpegError, ourDefect], nil)
        }
        let channels = Int(libjpeg.channels)
        let ourChannels = image.format == .gray8 ? 1 : 3
        guard image.width == Int(libjpeg.width), image.height == Int(libjpeg.height), ourChannels == channels else {
            return (.sizesDiffer, [ourDefect, warned], nil)
        }
        let theirs = UnsafeBufferPointer(start: pixels, count: image.width * image.height * channels)
        guard let difference = compare(image, theirs) else { return (.bitExact, [ourDefect + "; " + warned], nil) }
        return (difference.largest > 1 ? .pixelsDiffer : .pixelsOffByOne, [ourDefect, warned], difference)
    }
}

/// The first differing pixel and the largest difference, or nil if the images are equal.
private func compare(_ image: OurImage, _ libjpeg: UnsafeBufferPointer<UInt8>) -> PixelDifference? {
    let channels = image.format == .gray8 ? 1 : 3
    let stride = image.format.bytesPerPixel
    var first: PixelDifference?
    var largestOverall = 0
    for pixel in 0..<(image.width * image.height) {
        var largest = stride == 4 ? 255 - Int(image.pixels[4 * pixel + 3]) : 0
        for channel in 0..<channels {
            let ours = Int(image.pixels[stride * pixel + channel])
            largest = max(largest, abs(ours - Int(libjpeg[channels * pixel + channel])))
        }
        guard largest > 0 else { continue }
        if first == nil {
            first = PixelDifference(
                x: pixel % image.width, y: pixel / image.width,
                ours: Array(image.pixels[(stride * pixel)..<(stride * pixel + stride)]),
                libjpeg: Array(libjpeg[(channels * pixel)..<(channels * pixel + channels)]), largest: 0)
        }
        largestOverall = max(largestOverall, largest)
    }
    first?.largest = largestOverall
    return first
}

private func describe(
    _ outcome: Outcome, _ ours: Result<OurImage, JPEGError>, _ libjpeg: jpegshim_result, difference: PixelDifference?,
    denominator: Int
) -> String {
    let kind = libjpeg.progressive != 0 ? "progressive" : "sequential"
    var lines = ["\(outcome.rawValue) at 1/\(denominator) (\(kind))"]
    switch ours {
    case .failure(let error): lines.append("JPEGDecoder throws \(error)")
    case .success(let image):
        let damage = image.defect.map { "recovered from \($0)" } ?? "intact"
        lines.append("JPEGDecoder: \(image.width)x\(image.height) \(image.format), \(damage)")
    }
    let phases = [
        "", "in jpeg_read_header", "in jpeg_start_decompress", "in jpeg_read_scanlines", "in jpeg_finish_decompress",
    ]
    lines.append(
        "libjpeg: \(libjpeg.width)x\(libjpeg.height), \(libjpeg.channels) channels, \(libjpeg.warning_count) warnings"
            + (libjpeg.warning_count > 0 ? " (first: \(text(libjpeg.first_warning)))" : "")
            + (libjpeg.failed_phase != 0 ? ", fails \(phases[Int(libjpeg.failed_phase)]): \(text(libjpeg.error))" : "")
    )
    if let difference {
        lines.append(
            "first difference at (\(difference.x), \(difference.y)): \(difference.ours) in JPEGDecoder, \(difference.libjpeg) in libjpeg; largest \(difference.largest)"
        )
    }
    return lines.joined(separator: "\n")
}

private func saveArtifact(_ outcome: Outcome, _ details: [String], _ input: UnsafeBufferPointer<UInt8>) {
    let signature = details.joined(separator: "; ")
    let saved = table.artifactsSaved[outcome] ?? []
    guard saved.count < artifactsPerClass, !saved.contains(signature) else { return }
    table.artifactsSaved[outcome] = saved.union([signature])
    let path = "\(artifactDirectory)/jpeg-diff-\(outcome.rawValue)-\(saved.count + 1).jpg"
    _ = FileManager.default.createFile(atPath: path, contents: Data(buffer: input))
}

/// A C string field of the shim's result.
private func text<T>(_ field: T) -> String {
    withUnsafeBytes(of: field) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
}

/// The error's case name, as the table counts it.
private func caseName(_ error: JPEGError) -> String {
    switch error {
    case .notAJPEG: "notAJPEG"
    case .truncated: "truncated"
    case .unsupportedProcess(let process): "unsupportedProcess(\(process))"
    case .unexpectedMarker(let marker, _): "unexpectedMarker(\(hex(marker)))"
    case .badSegment(let marker, _): "badSegment(\(hex(marker)))"
    case .invalidDimensions: "invalidDimensions"
    case .unsupportedComponentCount: "unsupportedComponentCount"
    case .badSamplingFactors: "badSamplingFactors"
    case .fractionalSampling: "fractionalSampling"
    case .undefinedTable(let kind, _): "undefinedTable(\(kind))"
    case .badHuffmanTable(let kind, _): "badHuffmanTable(\(kind))"
    case .badScan: "badScan"
    case .corruptScanData: "corruptScanData"
    case .missingRestartMarker: "missingRestartMarker"
    case .incompleteImage: "incompleteImage"
    case .extraneousBytes: "extraneousBytes"
    case .imageTooLarge: "imageTooLarge"
    case .insufficientData: "insufficientData"
    case .cancelled: "cancelled"
    }
}

private func hex(_ marker: UInt8) -> String {
    "0x" + String(marker, radix: 16, uppercase: true)
}
