import Foundation

/// Shrinks a failing input to a small one that fails the same way, by removing ever smaller
/// stretches while the failure stays (delta debugging). A broken promise or a slow answer is
/// checked in this process; a crash or a hang, which would end it, in a child process.
struct Minimizer {
    let target: FuzzTarget
    let options: FuzzOptions

    /// How an input failed, in a form that stays the same while the input shrinks: no numbers,
    /// nothing quoted from the input.
    enum Failure: Equatable {
        case none
        case broken(String)
        case slow
        case crash(String)
        case hang
    }

    /// The smaller input, or nil when `input` does not fail at all.
    func minimize(_ input: [UInt8], budget: Duration = .seconds(600)) -> [UInt8]? {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let wanted = childFailure(of: input)
        guard wanted != .none else {
            print("QuizFuzz: \(target.name) reads this input without a failure; nothing to minimize")
            return nil
        }
        // A crash or a hang would end this process: those candidates run in a child.
        let isolated = wanted == .hang || { if case .crash = wanted { true } else { false } }()
        func fails(_ candidate: [UInt8]) -> Bool {
            (isolated ? childFailure(of: candidate) : failure(of: candidate)) == wanted
        }
        print("QuizFuzz: minimizing a \(input.count)-byte input that fails with \(wanted)")
        let deadline = ContinuousClock.now + budget
        var current = input
        var chunk = max(1, current.count / 2)
        while ContinuousClock.now < deadline {
            var index = 0
            var shrank = false
            while index < current.count && ContinuousClock.now < deadline {
                var candidate = current
                candidate.removeSubrange(index..<min(current.count, index + chunk))
                if fails(candidate) {
                    current = candidate
                    shrank = true
                } else {
                    index += chunk
                }
            }
            if chunk == 1 && !shrank { break }
            if !shrank { chunk = max(1, chunk / 2) }
        }
        print("QuizFuzz: \(input.count) bytes → \(current.count) bytes")
        return current
    }

    /// In this process, as a replay would find it: the first option set that fails, and how.
    private func failure(of input: [UInt8]) -> Failure {
        for variant in Campaign.replayVariants {
            let start = ContinuousClock.now
            let verdict = target.run(input, variant)
            if ContinuousClock.now - start > .seconds(options.slowSeconds) { return .slow }
            if let first = verdict.violations.first { return .broken(Self.signature(first)) }
        }
        return .none
    }

    /// Where candidates and the child's output go; removed once minimizing is over.
    private var scratch: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("quizfuzz-minimize-\(getpid())")
    }

    /// Replays the input in a child process and reads how it ended.
    private func childFailure(of input: [UInt8]) -> Failure {
        let candidate = scratch.appendingPathComponent("candidate")
        let printedFile = scratch.appendingPathComponent("stdout"), complaintFile = scratch.appendingPathComponent("stderr")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            try Data(input).write(to: candidate)
            // Files rather than pipes: a long backtrace must not block the child while this reads the other stream.
            for file in [printedFile, complaintFile] { try Data().write(to: file) }
            let process = Process()
            process.executableURL = Bundle.main.executableURL
            process.arguments = ["--reader", target.name, "--replay", candidate.path, "--out", scratch.appendingPathComponent("out").path,
                                 "--slow", String(options.slowSeconds)]
            process.standardOutput = try FileHandle(forWritingTo: printedFile)
            process.standardError = try FileHandle(forWritingTo: complaintFile)
            try process.run()
            process.waitUntilExit()
            return outcome(of: process, printed: String(decoding: try Data(contentsOf: printedFile), as: UTF8.self),
                           complaint: String(decoding: try Data(contentsOf: complaintFile), as: UTF8.self))
        } catch {
            fatalError("cannot run \(Bundle.main.executablePath ?? "QuizFuzz") on a candidate in \(scratch.path): \(error)")
        }
    }

    private func outcome(of process: Process, printed: String, complaint: String) -> Failure {
        switch (process.terminationReason, process.terminationStatus) {
        case (.uncaughtSignal, let signal):
            let fatal = complaint.split(separator: "\n").first { $0.contains("Fatal error") }.map(String.init) ?? ""
            return .crash("signal \(signal) \(Self.signature(fatal))")
        case (.exit, 0): return .none
        case (.exit, 3): return .hang
        case (.exit, _):
            if printed.contains(": slow: ") { return .slow }
            let line = printed.split(separator: "\n").first { $0.hasPrefix("    ") }.map(String.init) ?? printed
            return .broken(Self.signature(line))
        @unknown default: return .none
        }
    }

    /// The words of a message without what depends on the input (numbers, quoted text).
    static func signature(_ message: String) -> String {
        var result = ""
        var quoted = false
        for character in message.trimmingCharacters(in: .whitespaces) {
            if character == "\"" { quoted.toggle(); continue }
            if quoted || character.isNumber { continue }
            result.append(character)
        }
        return result
    }
}
