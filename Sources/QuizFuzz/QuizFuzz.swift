import Foundation

/// A mutation fuzzer for the question-bank and feed readers, without coverage feedback: each
/// reader gets its seeds (the committed corpus, the shared sample files, built-in inputs), then
/// stacked mutations of them until its time is up. Every input must be answered in time with a
/// result that keeps the reader's promises or with an `ImportError` that says something; a
/// crash, a broken promise or a slow answer fails the run with the input saved.
/// See FUZZING.md. Not part of the product.
///
/// Built for libFuzzer (`-DQUIZFUZZ_LIBFUZZER`, see `LibFuzzerEntry.swift`) there is no `main`
/// here: libFuzzer's own drives the process.
#if !QUIZFUZZ_LIBFUZZER
@main
enum QuizFuzz {
    static func main() {
        let options: FuzzOptions
        do {
            options = try FuzzOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("QuizFuzz: \(error)\n".utf8))
            exit(2)
        }
        if options.list {
            print(FuzzTarget.all.map(\.name).joined(separator: "\n"))
            return
        }
        if let file = options.minimize {
            minimize(file, options: options)
            return
        }
        if let folder = options.exportSeeds {
            do {
                try Seeds.export(to: URL(fileURLWithPath: folder), options: options)
                print("QuizFuzz: seeds and dictionaries written to \(folder)")
            } catch {
                FileHandle.standardError.write(Data("QuizFuzz: cannot write \(folder): \(error)\n".utf8))
                exit(2)
            }
            return
        }
        var campaign = Campaign(options: options)
        do {
            if options.replay.isEmpty {
                print("QuizFuzz: seed \(options.seed), \(options.seconds) s per reader, inputs up to \(options.maxSize) bytes")
                for target in options.readers { campaign.fuzz(target) }
            } else {
                for path in options.replay { try campaign.replay(path) }
            }
        } catch {
            FileHandle.standardError.write(Data("QuizFuzz: \(error)\n".utf8))
            exit(2)
        }
        guard campaign.failures.isEmpty else {
            print("\nQuizFuzz: \(campaign.failures.count) failure(s):")
            for failure in campaign.failures {
                print("  \(failure.reader): \(failure.kind), input saved at \(failure.path)")
            }
            exit(1)
        }
    }

    private static func minimize(_ path: String, options: FuzzOptions) {
        let input = Seeds.read(URL(fileURLWithPath: path))
        let minimizer = Minimizer(target: options.readers[0], options: options)
        guard let smaller = minimizer.minimize(input) else { exit(1) }
        let output = path + ".min"
        do {
            try Data(smaller).write(to: URL(fileURLWithPath: output))
            print("QuizFuzz: written to \(output)")
        } catch {
            FileHandle.standardError.write(Data("QuizFuzz: cannot write \(output): \(error)\n".utf8))
            exit(2)
        }
    }
}
#endif
