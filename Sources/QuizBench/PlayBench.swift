#if canImport(CoreFoundation)
// ZIPFoundation (under QuizFormats) brings CoreFoundation's `timespec` into view: named here too.
import CoreFoundation
#endif
import Foundation
import QuizCore

/// In-process timings for issue 5: validating "name them all" guesses and drawing practice rounds.
enum PlayBench {
    static func run() throws {
        print("")
        print("| benchmark | rate | p50 | p99 | target |")
        print("|---|---:|---:|---:|---|")
        try guesses()
        practiceDraw()
    }

    /// A 500-item list; guesses as a player types them: mostly partial words, some items, some repeats.
    static func guesses() throws {
        var generator = SplitMix(seed: 42)
        let words = (0..<500).map { index in "\(syllables(&generator)) \(syllables(&generator))-\(index)" }
        let question = Question(text: "Name them all", body: .nameAll(items: words.map { NameAllItem(answer: $0) }, timeLimitSeconds: 3_600, typoTolerance: false))
        let typed = (0..<10_000).map { index -> String in
            let word = words[Int(generator.next() % 250)]  // half the list: the game never ends early
            switch index % 4 {
            case 0: return word  // an item (found, then already found)
            case 1: return String(word.prefix(3))  // a prefix, as typed
            case 2: return word.uppercased() + "!"  // normalised to the item
            default: return "The " + String(word.prefix(6)) + " nope"
            }
        }
        for (label, guesses) in [("ASCII", typed), ("accented", typed.map { "É" + $0 + "ü" })] {
            let start = Date(timeIntervalSince1970: 0)
            var count = 0
            let seconds = QuizBench.best {
                var game = try! NameAllGame(question: question, startedAt: start)
                for guess in guesses { _ = game.guess(guess, at: start); count += 1 }
            }
            let rate = Double(guesses.count) / seconds
            print("| name-them-all guess validation, 500 items, \(label) guesses | \(Int(rate)) guesses/s | | | ≥ 1,000,000/s |")
            _ = count
        }
    }

    /// 100,000 candidates across 5 subjects × 20 topics, 1,000 draws with settings that filter.
    static func practiceDraw() {
        var generator = SplitMix(seed: 7)
        let kinds: [QuestionKind] = [.singleChoice, .multipleChoice, .trueFalse, .typedAnswer, .numeric]
        let candidates = (0..<100_000).map { index in
            PracticeCandidate(id: Int64(index + 1), subjectId: Int64(index % 5 + 1), topicId: Int64(index % 100 + 1),
                              difficulty: Difficulty.allCases[(index / 25) % 3], kind: kinds[(index / 5) % 5], position: index)
        }
        let settings = [
            PracticeSettings(count: 20),
            PracticeSettings(subjectIds: [2], difficulty: .hard, count: 50, kinds: [.singleChoice, .trueFalse]),
            PracticeSettings(topicIds: [5, 17, 42], count: 10, order: .bankOrder),
        ]
        let seen = Set((0..<5_000).map { _ in Int64(generator.next() % 100_000 + 1) })
        var wall: [Double] = []
        var cpu: [Double] = []
        for round in 0..<1_000 {
            let start = ContinuousClock.now
            let cpuStart = threadCPUMilliseconds()
            let outcome = PracticeDraw.draw(from: candidates, settings: settings[round % 3], seen: seen, using: &generator)
            cpu.append(threadCPUMilliseconds() - cpuStart)
            let elapsed = ContinuousClock.now - start
            precondition(!outcome.questionIds.isEmpty)
            wall.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
        // Wall time includes being preempted by other processes on a shared machine; CPU time does not.
        for (label, times) in [("wall", wall.sorted()), ("CPU", cpu.sorted())] {
            let p50 = times[times.count / 2], p99 = times[times.count * 99 / 100]
            print("| practice draw from 100,000 questions (3 kinds of settings, 5,000 seen), \(label) time | "
                  + "\(Int(1_000 / (times.reduce(0, +) / 1_000))) draws/s | "
                  + "\(String(format: "%.2f", p50)) ms | \(String(format: "%.2f", p99)) ms | p99 < 5 ms |")
        }
    }

    static func threadCPUMilliseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1e6
    }

    static func syllables(_ generator: inout SplitMix) -> String {
        let parts = ["ka", "lo", "mi", "ne", "su", "ra", "to", "vi", "de", "po", "an", "el"]
        return (0..<3).map { _ in parts[Int(generator.next() % UInt64(parts.count))] }.joined().capitalized
    }
}

/// Deterministic numbers, so every run measures the same work.
typealias SplitMix = SplitMix64
