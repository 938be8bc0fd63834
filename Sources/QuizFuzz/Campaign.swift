import QuizCore
import Foundation

/// Runs readers on inputs and keeps what failed: fuzzing (seeds, then mutations of them until
/// the time is up) and replaying (every file of a folder once).
struct Campaign {
    struct Failure {
        var reader: String
        var kind: String
        var detail: String
        var path: String
    }

    /// Option sets every input of a replay is read with (`FuzzTarget` reads the bits): with and
    /// without a feed address, two file names, and the three ways a CSV answer column names its
    /// option, read in batches skipping and not.
    static let replayVariants: [UInt64] = [0, 1, 2, 3, 5, 9]
    /// A reader stops being fuzzed after this many failures: the first few say enough.
    static let maxFailuresPerReader = 10

    let options: FuzzOptions
    private(set) var failures: [Failure] = []
    /// The slowest input of the current reader, for the summary (how close it came to the limit);
    /// it is saved as `slowest-<reader>` beside `last-input`.
    private var slowest = (seconds: 0.0, bytes: 0)
    private let lastInput: String

    init(options: FuzzOptions) {
        self.options = options
        lastInput = URL(fileURLWithPath: options.out).appendingPathComponent("last-input").path
        try? FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
        CrashGuard.install(lastInput: lastInput, hangSeconds: max(20, options.slowSeconds * 20))
    }

    /// How one input went.
    enum Outcome {
        case accepted, refused, failed
    }

    /// Runs `target` on `input`; a broken promise or a slow answer is saved and recorded.
    @discardableResult
    mutating func exercise(_ target: FuzzTarget, _ input: [UInt8], variant: UInt64, from origin: String) -> Outcome {
        var verdict = FuzzTarget.Verdict()
        var seconds = CrashGuard.run(input) { verdict = target.run(input, variant) }
        if seconds > options.slowSeconds {
            // Once more, in case the machine was busy: only a second slow answer counts.
            seconds = min(seconds, CrashGuard.run(input) { verdict = target.run(input, variant) })
        }
        if seconds > slowest.seconds {
            slowest = (seconds, input.count)
            try? Data(input).write(to: URL(fileURLWithPath: options.out).appendingPathComponent("slowest-\(target.name)"))
        }
        if seconds > options.slowSeconds {
            record(target, input, kind: "slow", detail: String(format: "%.2f s for %d bytes (limit %.2f s), from %@",
                                                                 seconds, input.count, options.slowSeconds, origin))
            return .failed
        }
        guard verdict.violations.isEmpty else {
            let violations = verdict.violations.prefix(5).joined(separator: "\n    ")
            record(target, input, kind: "invariant", detail: "variant \(variant), from \(origin):\n    \(violations)")
            return .failed
        }
        return verdict.accepted ? .accepted : .refused
    }

    private mutating func record(_ target: FuzzTarget, _ input: [UInt8], kind: String, detail: String) {
        let folder = URL(fileURLWithPath: options.out).appendingPathComponent("failures").appendingPathComponent(target.name)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("\(kind)-\(String(input.fingerprint, radix: 16))")
        // The same input failing with other options is the same failure.
        guard !failures.contains(where: { $0.path == file.path }) else { return }
        try? Data(input).write(to: file)
        failures.append(Failure(reader: target.name, kind: kind, detail: detail, path: file.path))
        print("QuizFuzz: \(target.name): \(kind): \(detail)\n  saved at \(file.path)\n  reproduce: \(Self.executable) --reader \(target.name) --replay \(file.path)")
    }

    /// This program, as it was started: what the reproduce commands run.
    static let executable = CommandLine.arguments.first ?? "QuizFuzz"

    private func prepare(_ target: FuzzTarget) {
        CrashGuard.prepare(reader: target.name, lastInput: lastInput,
                           reproduce: "\(Self.executable) --reader \(target.name) --replay \(lastInput)")
    }

    // MARK: - Fuzzing

    mutating func fuzz(_ target: FuzzTarget) {
        prepare(target)
        slowest = (0, 0)
        let seeds = Seeds.load(for: target, options: options)
        let before = failures.count
        for (name, seed) in seeds {
            for variant in Self.replayVariants { exercise(target, seed, variant: variant, from: "seed \(name)") }
        }
        var random = SeededGenerator(state: options.seed ^ Array(target.name.utf8).fingerprint)
        let mutator = Mutator(tokens: target.tokens, nesting: target.nesting, maxSize: options.maxSize)
        var pool = seeds.map(\.bytes)
        let seedCount = pool.count
        var runs = 0, read = 0
        let start = Date()
        let deadline = start.addingTimeInterval(options.seconds)
        while Date() < deadline && failures.count - before < Self.maxFailuresPerReader {
            let base = pool.randomElement(using: &random)!
            let input = mutator.mutate(base, other: pool.randomElement(using: &random)!, using: &random)
            let variant = random.next()
            let outcome = exercise(target, input, variant: variant, from: "a mutation (seed \(options.seed))")
            runs += 1
            // Inputs the reader accepted go back into the pool: mutating them reaches deeper than
            // mutating the seeds again (there is no coverage feedback to say what is new).
            if outcome == .accepted {
                read += 1
                if pool.count < seedCount + 256 {
                    pool.append(input)
                } else {
                    pool[Int.random(in: seedCount..<pool.count, using: &random)] = input
                }
            }
        }
        let elapsed = Date().timeIntervalSince(start)
        print(String(format: "%@: %d seeds, %d inputs in %.1f s (%d accepted), slowest %.3f s (%d bytes), %d failures",
                     target.name, seeds.count, runs, elapsed, read, slowest.seconds, slowest.bytes, failures.count - before))
    }

    // MARK: - Replaying

    /// Every file of `path` once per option set: a file (with `--reader`), a reader's folder, or
    /// a folder of reader folders.
    mutating func replay(_ path: String) throws(FuzzOptions.UsageError) {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw FuzzOptions.UsageError(description: "--replay \(path): no such file or folder")
        }
        if !isFolder.boolValue {
            guard options.readers.count == 1 else { throw FuzzOptions.UsageError(description: "--replay of a file needs one --reader") }
            replay([url], with: options.readers[0])
        } else if let target = FuzzTarget.named(url.lastPathComponent) {
            replay(Seeds.files(in: url), with: target)
        } else {
            for target in options.readers {
                replay(Seeds.files(in: url.appendingPathComponent(target.name)), with: target)
            }
        }
    }

    private mutating func replay(_ files: [URL], with target: FuzzTarget) {
        prepare(target)
        for file in files {
            let bytes = Seeds.read(file)
            for variant in Self.replayVariants { exercise(target, bytes, variant: variant, from: file.path) }
        }
        print("\(target.name): replayed \(files.count) file(s)")
    }
}
