import Foundation

// The downsampling benchmark's memory probe runs in a child process of this same executable.
if let status = DownsamplingProbe.runIfRequested(CommandLine.arguments) { exit(status) }
// So does the decompression-bomb benchmark's.
if let status = BombProbe.runIfRequested(CommandLine.arguments) { exit(status) }

do {
    guard let options = try Options.parse(Array(CommandLine.arguments.dropFirst())) else {
        print(Options.usage)
        exit(0)
    }
    try BenchmarkRun(options: options).execute()
} catch let error as OptionsError {
    FileHandle.standardError.write(Data("error: \(error)\n\n\(Options.usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
