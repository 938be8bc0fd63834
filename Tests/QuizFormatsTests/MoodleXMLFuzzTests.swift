import Foundation
import QuizCore
import QuizFormats
import Testing

/// Seeded mutations of the real exports, random bytes and random XML-ish token soups: the reader
/// must return a bank of valid questions or throw an ImportError saying something, never crash
/// or hang. The seeds are fixed, so a failure reproduces.
@Suite(.timeLimit(.minutes(1))) struct MoodleXMLFuzzTests {

    private static let snippets: [String] = [
        "<", ">", "&", "]]>", "<![CDATA[", "</question>", "<question type=\"multichoice\">", "fraction=\"37\"",
        "<answer fraction=\"100\"><text>", "</text></answer>", "&#0;", "&#x110000;", "\u{0}", "\u{FEFF}", "é",
        "<!DOCTYPE quiz [<!ENTITY a \"&b;&b;\"><!ENTITY b \"xx\">]>", "&a;", "\"", "<single>false</single>",
        "<text>", "</text>", "<defaultgrade>1e308</defaultgrade>", "<tolerance>-1</tolerance>", "<unit_name>",
        "<question type=\"category\"><category><text>$course$/top//</text></category></question>",
        "<question type=\"truefalse\"><answer fraction=\"100\"><text>true</text></answer></question>",
        "<question type=\"numerical\"><answer fraction=\"100\"><text>nan</text></answer></question>",
        "<p>", "<br>", "<img src=x>", "<!--", "<script>", "&nbsp;", "&eacute;", "<?xml version=\"1.0\"?>",
        "<?x?>", "<?x ", "?>", "<!DOCTYPE quiz [<!NOTATION n SYSTEM \"x\">]>", "<!DOCTYPE quiz>",
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?>",
    ]

    /// Reads `data` and checks what came back; true when the reader accepted it.
    @discardableResult
    private func check(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        do {
            let result = try MoodleXMLReader().read(data)
            for question in moodleXMLQuestions(result.bank) {
                #expect(question.validationErrors().isEmpty, "\(question)", sourceLocation: sourceLocation)
            }
            return true
        } catch {
            #expect(!error.problems.isEmpty, sourceLocation: sourceLocation)
            for problem in error.problems {
                #expect(!problem.message.isEmpty, sourceLocation: sourceLocation)
                #expect(problem.line.map { $0 >= 1 } ?? true, "\(problem)", sourceLocation: sourceLocation)
            }
            return false
        }
    }

    private func mutate(_ original: [UInt8], using rng: inout SeededGenerator) -> [UInt8] {
        var bytes = original
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !bytes.isEmpty:
                bytes[position] = UInt8.random(in: 0...255, using: &rng)
            case 1:
                let end = min(bytes.count, position + Int.random(in: 1...64, using: &rng))
                bytes.removeSubrange(position..<end)
            case 2:
                let end = min(bytes.count, position + Int.random(in: 1...256, using: &rng))
                let copied = Array(bytes[position..<end])
                bytes.insert(contentsOf: copied, at: position)
            case 3:
                bytes.insert(contentsOf: Array(Self.snippets.randomElement(using: &rng)!.utf8), at: position)
            default:
                bytes.removeSubrange(position...)
            }
        }
        return bytes
    }

    @Test(SharedTestData.required) func mutatedRealExportsAndRandomInputNeverCrashOrHang() throws {
        var rng = SeededGenerator(state: 0x5EED_0F_A11)
        let files = try MoodleXMLTestFiles.names.map { Array(try MoodleXMLTestFiles.data($0)) }

        var accepted = 0
        for file in files {
            check(Data(file))
            for _ in 0..<120 {
                if check(Data(mutate(file, using: &rng))) { accepted += 1 }
            }
        }
        // Mild mutations (a changed letter in a text) still read; most do not.
        #expect((1..<(files.count * 120)).contains(accepted))
        for _ in 0..<150 {
            let count = Int.random(in: 0...600, using: &rng)
            check(Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        }
        for _ in 0..<150 {
            var soup = "<quiz>"
            for _ in 0..<Int.random(in: 0...40, using: &rng) { soup += Self.snippets.randomElement(using: &rng)! }
            check(Data(soup.utf8))
        }
    }
}
