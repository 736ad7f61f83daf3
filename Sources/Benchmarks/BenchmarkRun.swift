import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// The whole benchmark: corpus, workload replays, outputs, micro benchmarks, goals.
struct BenchmarkRun {
    let options: Options

    func execute() throws {
        let started = MonotonicClock.now()
        ResidentMemory.configureAllocator()
        let profile = options.quick ? BenchmarkProfile.quick : .full
        let limits = DefaultPolicyLimits.current
        print("WeakImageStore benchmarks, \(profile.name) run; default policy: \(limits.description)")
        // The sections that need no corpus.
        switch options.onlySection {
        case .jpegSpeed:
            report(jpegDecodeSpeed(profile), warnings: [], since: started)
            return
        case .animationSpeed:
            report(animationDecodeSpeed(profile), warnings: [], since: started)
            return
        case .webpSpeed:
            report(webpDecodeSpeed(profile), warnings: [], since: started)
            return
        case .downsampling:
            report(
                DownsamplingBenchmark.goals(DownsamplingBenchmark.runSection(quick: options.quick)), warnings: [],
                since: started)
            return
        case .blobList:
            let blobList = try blobListSection()
            report(blobList.goals, warnings: blobList.warnings, since: started)
            return
        case .diskCache:
            let diskCache = diskCacheSection()
            report(diskCache.goals, warnings: diskCache.warnings, since: started)
            return
        case .networkFeed:
            let networkFeed = try networkFeedSection()
            report(networkFeed.goals, warnings: networkFeed.warnings, since: started)
            return
        case .bombs:
            report(bombSection(), warnings: [], since: started)
            return
        case .stickers:
            let stickers = try stickersSection()
            report(stickers.goals, warnings: stickers.warnings, since: started)
            return
        case .hitPath, .pngSpeed, .scrolling, .gallery, nil:
            break
        }

        let corpusStarted = MonotonicClock.now()
        let corpus =
            try options.corpusDirectory.map {
                try UserCorpus.build(from: $0, profile: profile, admissionCostLimit: limits.admissionCostLimit)
            } ?? BuiltInCorpus.generate(profile)
        defer { corpus.removeFiles() }
        print(corpus.summary.joined(separator: "\n"))
        print("corpus ready in \(seconds(since: corpusStarted)) s\n")

        switch options.onlySection {
        case .hitPath:
            report(Goals.hitPathGoals(hitPathSection(corpus, profile)), warnings: [], since: started)
            return
        case .pngSpeed:
            report(pngDecodeSpeed(corpus, profile), warnings: [], since: started)
            return
        case .scrolling:
            let scrolling = try scrollingSection(corpus, profile)
            report(scrolling.goals, warnings: scrolling.warnings, since: started)
            return
        case .gallery:
            let gallery = try gallerySection(corpus)
            report(gallery.goals, warnings: gallery.warnings, since: started)
            return
        case .jpegSpeed, .animationSpeed, .webpSpeed, .downsampling, .blobList, .diskCache, .networkFeed, .bombs,
            .stickers, nil:
            break
        }

        let workloads = Workload.all(for: corpus.layout, navigationEventCount: profile.navigationEventCount)
        let benchmark = WorkloadBenchmark(
            workloads: workloads, strategies: StrategyKind.all(lruCostLimit: limits.costLimit),
            replayer: Replayer(corpus: corpus, admissionCostLimit: limits.admissionCostLimit))
        let reports = benchmark.run()
        print("WORKLOADS: live decoded bytes (exact, per step), decodes, duplicates, hits, lookup latency\n")
        for report in reports {
            print(ResultsTable.render(report) + "\n")
        }
        try writeFiles(reports)

        print("LIVE ACCOUNTING: the store's liveCost vs. exact Bitmap.memory, default vs. a live-byte budget")
        let accountingChecks = try LiveAccountingBenchmark(
            corpus: corpus, workloads: workloads, includesBindingBudgets: !options.quick
        ).run(outputDirectory: options.outputDirectory)

        let hitPath = hitPathSection(corpus, profile)

        let pngChecks = pngDecodeSpeed(corpus, profile)
        let jpegChecks = jpegDecodeSpeed(profile)
        let animationChecks = animationDecodeSpeed(profile)
        let webpChecks = webpDecodeSpeed(profile)
        let downsampling = DownsamplingBenchmark.runSection(quick: options.quick)
        let scrolling = try scrollingSection(corpus, profile)
        let gallery = try gallerySection(corpus)
        let blobList = try blobListSection()
        let networkFeed = try networkFeedSection()
        let diskCache = diskCacheSection()
        let bombs = bombSection()
        let stickers = try stickersSection()

        let checks =
            Goals.evaluate(reports, hitPath: hitPath, limits: limits) + DownsamplingBenchmark.goals(downsampling)
            + pngChecks + jpegChecks + animationChecks + webpChecks + scrolling.goals + gallery.goals + blobList.goals
            + networkFeed.goals + diskCache.goals + accountingChecks + bombs + stickers.goals
        report(
            checks,
            warnings: Goals.measurementWarnings(reports) + scrolling.warnings + gallery.warnings + blobList.warnings
                + networkFeed.warnings,
            since: started)
    }

    private func hitPathSection(_ corpus: Corpus, _ profile: BenchmarkProfile) -> HitPathBenchmark.Results {
        print("HIT PATH: ns per lookup, median of \(profile.sampleCount) samples (each thread's view with 2 threads)")
        let hitPath = HitPathBenchmark.run(corpus: corpus, samples: profile.sampleCount)
        print(HitPathBenchmark.table(hitPath) + "\n")
        return hitPath
    }

    private func scrollingSection(_ corpus: Corpus, _ profile: BenchmarkProfile) throws -> SectionOutcome {
        print("SCROLLING: the UI thread's view, 60 frames per second, default policy")
        return try ScrollingSection(
            corpus: corpus, profile: options.quick ? .quick : .full, hitPathSamples: profile.sampleCount,
            outputDirectory: options.outputDirectory
        ).run()
    }

    private func stickersSection() throws -> SectionOutcome {
        print("STICKERS: a chat of animated GIF and APNG stickers, 60 frames per second, reading speed and flung")
        return try StickersSection(quick: options.quick, outputDirectory: options.outputDirectory).run()
    }

    private func gallerySection(_ corpus: Corpus) throws -> SectionOutcome {
        print(
            "GALLERY: thumbnails in the grid vs full size everywhere, 60 frames per second, default policy and a budget"
        )
        return try GallerySection(
            corpus: corpus, profile: options.quick ? .quick : .full, outputDirectory: options.outputDirectory
        ).run()
    }

    private func blobListSection() throws -> SectionOutcome {
        print(
            "BLOB LIST: photos as blobs in an in-process table, read by the query vs by a provider through the "
                + "store, 60 frames per second, default policy")
        return try BlobListSection(
            profile: options.quick ? .quick : .full, outputDirectory: options.outputDirectory
        ).run()
    }

    private func bombSection() -> [GoalCheck] {
        print(
            "DECOMPRESSION BOMBS: small files declaring 8192² pixels, through a store at full size and as thumbnails, "
                + "one and four at once; peak bytes declared and measured")
        return BombBenchmark.goals(BombBenchmark.runSection())
    }

    private func diskCacheSection() -> SectionOutcome {
        print(
            "DISK CACHE: the same entries in DiskImageCache, a file-per-key folder and Foundation's URLCache; "
                + "open, miss, hit and write")
        return DiskCacheSection(quick: options.quick).run()
    }

    private func networkFeedSection() throws -> SectionOutcome {
        print(
            "NETWORK FEED: avatars and photos from a loopback server over a phone-like link, scrolled, purged, "
                + "relaunched: the classic recipes (a dictionary by URL, files in a folder), "
                + "URLSession + URLCache + NSCache, and the store")
        return try NetworkFeedSection(
            profile: options.quick ? .quick : .full, network: options.feedNetwork, speeds: options.feedSpeeds,
            outputDirectory: options.outputDirectory
        ).run()
    }

    /// Prints the goal lines, how many passed, the measurement warnings and the total time.
    private func report(_ checks: [GoalCheck], warnings: [String], since started: UInt64) {
        print("GOALS (\(StrategyKind.defaultPolicyLabel), \(DefaultPolicyLimits.current.description))")
        for check in checks {
            print(check.line(quick: options.quick))
        }
        let judged = checks.filter { $0.isJudged(quick: options.quick) }
        let notJudged = checks.count - judged.count
        print(
            "\(judged.filter(\.passed).count) of \(judged.count) goals passed"
                + (notJudged > 0 ? "; \(notJudged) not judged at --quick sizes" : ""))
        for warning in warnings {
            print("WARNING  \(warning)")
        }
        print("\ntotal \(seconds(since: started)) s; results in \(options.outputDirectory.path)/")
        let failedCounts = judged.filter { !$0.passed && !$0.isTiming }
        if options.failsOnCountGoals && !failedCounts.isEmpty {
            print("\(failedCounts.count) goals that are counts or bytes failed (--fail-on-count-goals): exit status 3")
            exit(3)
        }
    }

    private func writeFiles(_ reports: [WorkloadReport]) throws {
        let directory = options.outputDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try CSVWriter.write(reports, to: directory.appendingPathComponent("results.csv"))
        for report in reports {
            try SVGChart.render(report).write(
                to: directory.appendingPathComponent("\(report.workload.slug).svg"),
                atomically: true, encoding: .utf8)
        }
        print(
            "wrote results.csv and \(reports.map { "\($0.workload.slug).svg" }.joined(separator: ", ")) "
                + "to \(directory.path)/\n")
    }

    /// Prints the PNG decode speed table (the corpus's PNG files, and large images unless the
    /// corpus is the user's) and returns its goal checks.
    private func pngDecodeSpeed(_ corpus: Corpus, _ profile: BenchmarkProfile) -> [GoalCheck] {
        print(
            "PNG DECODE SPEED: MB of decoded pixels per CPU second, median of \(profile.decodeSampleCount) samples "
                + "(the corpus's PNG files; its JPEG photos are left to the JPEG table)")
        var decodeInputs = corpus.decodeGroups.compactMap { group -> DecodeSpeedInput? in
            // A user's corpus may mix in JPEG files; libpng is the yardstick here, so only PNGs count.
            let files = group.files.compactMap { try? Data(contentsOf: $0) }.filter {
                BitmapDecoder.format(of: $0) == .png
            }
            return files.isEmpty ? nil : DecodeSpeedInput(label: group.label, files: files)
        }
        if options.corpusDirectory == nil {
            decodeInputs += largeDecodeInputs(profile.largeDecodeSize)
        }
        let results = DecodeSpeedBenchmark.run(decodeInputs, samples: profile.decodeSampleCount)
        print(DecodeSpeedBenchmark.table(results) + "\n")
        return DecodeSpeedBenchmark.goals(results)
    }

    /// The real photographs (longest side 1920 px, 1024 at `--quick`), then two generated photo-like
    /// and two flat-UI images of `size`, encoded in memory.
    private func largeDecodeInputs(_ size: BenchmarkProfile.PixelSize) -> [DecodeSpeedInput] {
        var inputs: [DecodeSpeedInput] = []
        switch RealPhotos.load() {
        case .success(let photos):
            inputs.append(.realPhotographs(photos, maxPixelSize: options.quick ? 1024 : 1920))
        case .failure(let error):
            Console.note("real photographs not measured: \(error)")
        }
        return inputs + [.generatedPhotos(size), .flatUI(size)]
    }

    /// Prints the JPEG decode speed table and returns its goal checks.
    private func jpegDecodeSpeed(_ profile: BenchmarkProfile) -> [GoalCheck] {
        let libjpegTurbo: LibjpegTurbo?
        switch LibjpegTurbo.load() {
        case .success(let library):
            libjpegTurbo = library
        case .failure(let error):
            libjpegTurbo = nil
            print("libjpeg-turbo not measured (Scripts/install-libjpeg-turbo.sh installs it): \(error)")
        }
        let sizes =
            profile.name == "quick"
            ? [profile.largeDecodeSize]
            : [profile.largeDecodeSize, BenchmarkProfile.PixelSize(width: 4032, height: 3024)]
        let inputs = JPEGDecodeSpeedBenchmark.inputs(sizes: sizes, libjpegTurbo: libjpegTurbo)
        print(
            "JPEG DECODE SPEED: source megapixels per CPU second, median of \(profile.decodeSampleCount) samples; "
                + "photos encoded by libjpeg-turbo (quality 85)")
        let rows = JPEGDecodeSpeedBenchmark.run(inputs, samples: profile.decodeSampleCount, libjpegTurbo: libjpegTurbo)
        print(JPEGDecodeSpeedBenchmark.table(rows) + "\n")
        return JPEGDecodeSpeedBenchmark.goals(rows)
    }

    /// Prints the GIF and APNG decode speed table and returns its goal checks.
    private func animationDecodeSpeed(_ profile: BenchmarkProfile) -> [GoalCheck] {
        let giflib: GiflibShim?
        switch GiflibShim.load() {
        case .success(let shim):
            giflib = shim
        case .failure(let error):
            giflib = nil
            print("giflib not measured (Scripts/build-giflib-shim.sh builds its shim): \(error)")
        }
        print(
            "ANIMATION DECODE SPEED: megapixels of composed frames per CPU second, median of "
                + "\(profile.decodeSampleCount) samples")
        let rows = AnimationDecodeSpeedBenchmark.run(
            AnimationDecodeSpeedBenchmark.inputs(quick: options.quick), samples: profile.decodeSampleCount,
            giflib: giflib)
        print(AnimationDecodeSpeedBenchmark.table(rows) + "\n")
        return AnimationDecodeSpeedBenchmark.goals(rows)
    }

    /// Prints the WebP decode speed table and returns its goal checks.
    private func webpDecodeSpeed(_ profile: BenchmarkProfile) -> [GoalCheck] {
        let libwebp: LibwebpShim?
        switch LibwebpShim.load() {
        case .success(let shim):
            libwebp = shim
        case .failure(let error):
            libwebp = nil
            print(
                "WebP not measured (Scripts/build-libwebp-shim.sh builds libwebp's shim, which encodes the inputs): \(error)"
            )
        }
        let sizes =
            options.quick
            ? [BenchmarkProfile.PixelSize(width: 640, height: 480), profile.largeDecodeSize]
            : [
                BenchmarkProfile.PixelSize(width: 640, height: 480), profile.largeDecodeSize,
                BenchmarkProfile.PixelSize(width: 4032, height: 3024),
            ]
        print(
            "WEBP DECODE SPEED: source megapixels per CPU second, median of \(profile.decodeSampleCount) samples; "
                + "files encoded by libwebp")
        let rows = WebPDecodeSpeedBenchmark.run(
            WebPDecodeSpeedBenchmark.inputs(sizes: sizes, libwebp: libwebp), samples: profile.decodeSampleCount,
            libwebp: libwebp)
        print(WebPDecodeSpeedBenchmark.table(rows) + "\n")
        return WebPDecodeSpeedBenchmark.goals(rows)
    }

    private func seconds(since start: UInt64) -> String {
        Format.fixed(Double(MonotonicClock.now() - start) / 1e9, digits: 1)
    }
}
