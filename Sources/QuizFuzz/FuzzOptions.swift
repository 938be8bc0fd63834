import Foundation

/// The command line: `QuizFuzz [--reader NAME]… [--seconds N | --total-seconds N] [--seed S]
/// [--replay PATH]… [--minimize FILE] [--export-seeds DIR] [--corpus DIR] [--shared DIR]
/// [--out DIR] [--max-size BYTES] [--slow SECONDS] [--list]`; see `usage`.
struct FuzzOptions {
    var readers: [FuzzTarget] = FuzzTarget.all
    /// Per reader.
    var seconds = 10.0
    var totalSeconds: Double?
    var seed = UInt64(Date().timeIntervalSince1970 * 1000)
    var replay: [String] = []
    var minimize: String?
    var exportSeeds: String?
    var corpus = "Tests/fuzz-corpus"
    var shared = "../shared/testdata/formats"
    var out = FileManager.default.temporaryDirectory.appendingPathComponent("quizfuzz").path
    var maxSize = 256 * 1024
    /// An input taking longer is a failure: pathological slowness is a denial of service.
    var slowSeconds = 1.0
    var list = false

    static let usage = """
        usage: QuizFuzz [options]
          --reader NAME       fuzz only this reader (repeatable; default: all). Readers: \(FuzzTarget.all.map(\.name).joined(separator: ", "))
          --seconds N         seconds per reader (default 10)
          --total-seconds N   seconds for all the readers together, shared equally (instead of --seconds)
          --seed S            the random seed (default: from the clock; printed, so a run can be repeated)
          --replay PATH       run every file of PATH once instead of fuzzing: a file, a reader's folder
                              (Tests/fuzz-corpus/gift) or a folder of reader folders (Tests/fuzz-corpus); repeatable
          --minimize FILE     shrink FILE to a smaller input that fails the same way (with one --reader)
          --export-seeds DIR  write each reader's seeds to DIR/<reader>/ and its tokens to DIR/<reader>.dict, for libFuzzer
          --corpus DIR        committed inputs, one folder per reader (default Tests/fuzz-corpus)
          --shared DIR        other people's sample files, used as seeds when present (default ../shared/testdata/formats)
          --out DIR           where last-input and the failing inputs are written (default $TMPDIR/quizfuzz)
          --max-size BYTES    longest mutated input (default 262144)
          --slow SECONDS      an input taking longer fails the run (default 1)
          --list              print the readers and exit
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(arguments: [String]) throws(UsageError) {
        var chosen: [FuzzTarget] = []
        var rest = arguments[...]
        func value(_ flag: String) throws(UsageError) -> String {
            guard let next = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return next
        }
        func number(_ flag: String) throws(UsageError) -> Double {
            let text = try value(flag)
            guard let number = Double(text), number >= 0 else { throw UsageError(description: "\(flag) \(text): not a number of seconds") }
            return number
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--reader":
                let name = try value(flag)
                guard let target = FuzzTarget.named(name) else {
                    throw UsageError(description: "unknown reader \(name); the readers are \(FuzzTarget.all.map(\.name).joined(separator: ", "))")
                }
                chosen.append(target)
            case "--seconds": seconds = try number(flag)
            case "--total-seconds": totalSeconds = try number(flag)
            case "--seed":
                let text = try value(flag)
                guard let parsed = UInt64(text) else { throw UsageError(description: "--seed \(text): not a whole number") }
                seed = parsed
            case "--replay": replay.append(try value(flag))
            case "--minimize": minimize = try value(flag)
            case "--export-seeds": exportSeeds = try value(flag)
            case "--corpus": corpus = try value(flag)
            case "--shared": shared = try value(flag)
            case "--out": out = try value(flag)
            case "--max-size":
                let text = try value(flag)
                guard let size = Int(text), size > 0 else { throw UsageError(description: "--max-size \(text): not a positive number") }
                maxSize = size
            case "--slow": slowSeconds = try number(flag)
            case "--list": list = true
            case "-h", "--help": throw UsageError(description: Self.usage)
            default: throw UsageError(description: "unknown option \(flag)\n\(Self.usage)")
            }
        }
        if !chosen.isEmpty { readers = chosen }
        if let totalSeconds { seconds = totalSeconds / Double(readers.count) }
        if minimize != nil && chosen.count != 1 { throw UsageError(description: "--minimize needs exactly one --reader") }
    }
}
