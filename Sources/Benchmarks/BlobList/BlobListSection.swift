import Foundation

/// The benchmark's "blob list" section: photos stored as blobs in an in-process table, the list
/// opened and scrolled with every row's blob read by its query (eager) and with rows holding ids
/// whose photos a provider reads through the store (provider + store), at every ``ScrollSpeed``;
/// prints the memory table and the pace table, writes the CSVs, the memory charts and the pace
/// chart.
struct BlobListSection {
    let profile: BlobListProfile
    let outputDirectory: URL

    /// Runs the section.
    ///
    /// - Throws: ``JPEGEncoderSelfCheck/Failure`` if the JPEG encoder fails its self-check; a
    ///   file-system error if the results cannot be written.
    func run() throws -> SectionOutcome {
        let started = MonotonicClock.now()
        let startedCPU = CPUClock.process()
        let photos = try BlobPhotos.encode(
            count: profile.distinctPhotoCount, size: profile.photoSize, seed: 0xB1_0000)
        let table = BlobTable(photos: photos, rowCount: profile.rowCount)
        let blobSizes = photos.map(\.count)
        print(
            "\(profile.rowCount) rows, each a JPEG photo blob of \(profile.photoSize) px "
                + "(\(profile.distinctPhotoCount) distinct, \(kilobytes(blobSizes.min() ?? 0))–"
                + "\(kilobytes(blobSizes.max() ?? 0)) KB; \(Format.mebibytes(table.totalBlobBytes)) MiB in all) ready in "
                + "\(Format.fixed(Double(MonotonicClock.now() - started) / 1e9, digits: 1)) s")
        let runs = BlobListBenchmark(table: table, profile: profile).run()
        print(BlobListTable.render(runs, table: table, profile: profile) + "\n")
        print(BlobListPaceTable.render(runs, table: table, profile: profile) + "\n")

        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        try BlobListCSVWriter.write(runs, table: table, to: outputDirectory)
        try PaceChart.render(runs, section: "Blob list").write(
            to: outputDirectory.appendingPathComponent("bloblist-paces.svg"), atomically: true, encoding: .utf8)
        for speed in ScrollSpeed.allCases {
            try BlobListMemoryChart.render(runs.filter { $0.speed == speed }, speed: speed).write(
                to: outputDirectory.appendingPathComponent("bloblist-\(speed.label).svg"), atomically: true,
                encoding: .utf8)
        }
        print(
            "wrote bloblist.csv, bloblist-frames.csv, bloblist-paces.svg, "
                + ScrollSpeed.allCases.map { "bloblist-\($0.label).svg" }.joined(separator: ", ")
                + " to \(outputDirectory.path)/")
        let seconds = Format.fixed(Double(MonotonicClock.now() - started) / 1e9, digits: 1)
        let cpuSeconds = Format.fixed(Double(CPUClock.process() - startedCPU) / 1e9, digits: 1)
        print("blob list section: \(seconds) s wall, \(cpuSeconds) s CPU (all threads)\n")
        return SectionOutcome(
            goals: BlobListGoals.evaluate(runs, table: table),
            warnings: BlobListGoals.measurementWarnings(runs))
    }

    /// Decimal kilobytes, as the source material counts a blob's ≈500 KB.
    private func kilobytes(_ bytes: Int) -> String {
        String(Int((Double(bytes) / 1000).rounded()))
    }
}
