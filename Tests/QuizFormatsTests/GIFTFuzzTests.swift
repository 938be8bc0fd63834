import Foundation
import QuizCore
import QuizFormats
import Testing

/// Damaged and hostile input: the reader must answer every time, with a located problem or a
/// bank, and whatever it reads must survive a write and a second read.
@Suite(.timeLimit(.minutes(1))) struct GIFTFuzzTests {
    private typealias S = GIFTSupport

    private static let special = Array("{}=~#%:\\\n\r->[]<>&;/$ \t01".utf8)

    private func mutate(_ input: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1:  // insert a control character, mostly
                bytes.insert(Self.special.randomElement(using: &random)!, at: position)
            case 2:
                bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            case 3:  // delete a few bytes
                let end = min(bytes.count, position + Int.random(in: 1...8, using: &random))
                bytes.removeSubrange(position..<end)
            case 4:  // duplicate a run
                let end = min(bytes.count, position + Int.random(in: 1...64, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default:  // overwrite a byte with a control character
                if position < bytes.count { bytes[position] = Self.special.randomElement(using: &random)! }
            }
        }
        return bytes
    }

    /// How the cases ended, so a test can tell that both paths were taken.
    private struct Tally {
        var read = 0
        var rejected = 0
        var failures = 0
    }

    private func check(_ bytes: [UInt8], _ label: String, into tally: inout Tally) {
        switch check(bytes, label) {
        case .some(true): tally.read += 1
        case .some(false): tally.rejected += 1
        case .none: tally.failures += 1
        }
    }

    /// Reads `bytes` and checks what came back: true when read, false when rejected, nil when
    /// something is wrong (an issue is recorded).
    @discardableResult
    private func check(_ bytes: [UInt8], _ label: String) -> Bool? {
        let lineCount = bytes.count(where: { $0 == 0x0A || $0 == 0x0D }) + 1
        let result: ReadResult
        do {
            result = try GIFTReader().read(bytes)
        } catch {
            // "the file holds no questions" is about the whole file: it has no place.
            let unlocated = error.problems.filter {
                ($0.line == nil || $0.column == nil || $0.line! > lineCount) && $0.message != "the file holds no questions"
            }
            #expect(!error.problems.isEmpty, "\(label): an ImportError without problems")
            #expect(unlocated.isEmpty, "\(label): problems without a place in the file: \(unlocated)")
            return !error.problems.isEmpty && unlocated.isEmpty ? false : nil
        }
        let written = GIFTWriter().write(result.bank)
        guard written.skipped.isEmpty else { return true }  // e.g. a typed answer holding "->"
        guard result.bank.questionCount > 0 else { return true }  // nothing to write back: an empty file is an error
        do {
            let again = try GIFTReader().read(Array(written.text.utf8))
            #expect(S.questions(in: again.bank) == S.questions(in: result.bank), "\(label): \(written.text)")
            #expect(again.bank.subjects.map(\.name) == result.bank.subjects.map(\.name), "\(label)")
        } catch {
            Issue.record("\(label): what the writer wrote does not read back: \(error)\n\(written.text)")
            return nil
        }
        return true
    }

    @Test(SharedTestData.required) func mutatedRealFilesAreReadOrRejectedWithALocation() throws {
        var random = SeededGenerator(state: 0x6769_6674)
        let files = try S.realFiles.map { try Array(S.realFile($0)) }
        var tally = Tally()
        for iteration in 0..<2_500 where tally.failures < 5 {
            let file = files[iteration % files.count]
            // A window of the large files keeps each case small and cheap.
            let start = file.count > 1_500 ? Int.random(in: 0..<(file.count - 1_500), using: &random) : 0
            let window = Array(file[start..<min(file.count, start + 1_500)])
            check(mutate(window, &random), "iteration \(iteration)", into: &tally)
        }
        #expect(tally.read > 500 && tally.rejected > 500, "read \(tally.read), rejected \(tally.rejected)")
    }

    @Test func randomBytesAreReadOrRejectedWithALocation() {
        var random = SeededGenerator(state: 42)
        var tally = Tally()
        for iteration in 0..<1_000 where tally.failures < 5 {
            let length = Int.random(in: 0...120, using: &random)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &random) ? Self.special.randomElement(using: &random)! : UInt8.random(in: 0x20...0x7E, using: &random)
            }
            check(bytes, "iteration \(iteration)", into: &tally)
        }
        #expect(tally.read > 100 && tally.rejected > 100, "read \(tally.read), rejected \(tally.rejected)")
    }

    @Test(arguments: [
        "{", "}", "~", "=", "#", "%", "::", "\\", "<a ", "<!--", "&", "~%", "=%1", "{#", "<b>", "\n", "####",
    ])
    func longRunsOfOneConstructAreReadInLinearTime(_ piece: String) {
        let runs = [
            String(repeating: piece, count: 40_000),
            "[html]Q" + String(repeating: piece, count: 40_000) + "{T}",
            "Q?{" + String(repeating: piece + "a", count: 20_000) + "}",
            "Q?{=a ~" + String(repeating: piece, count: 40_000),
        ]
        for text in runs {
            check(Array(text.utf8), "a run of \(piece.debugDescription)")
        }
    }
}
