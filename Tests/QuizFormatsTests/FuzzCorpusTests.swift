import Foundation
#if canImport(Glibc)
import Glibc
#endif
import QuizCore
import QuizFormats
import QuizMath
import Testing

/// The inputs QuizFuzz found failing (Tests/fuzz-corpus/<reader>/, see FUZZING.md), replayed
/// through their readers with each option: every one must be answered quickly, with questions
/// QuizCore accepts or with an `ImportError` that says where. A crash fails the whole test run.
@Suite(.timeLimit(.minutes(1))) struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .resolvingSymlinksInPath()
        .deletingLastPathComponent()  // QuizFormatsTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("fuzz-corpus")

    /// "reader/file", for every committed input.
    static let inputs: [String] = {
        let manager = FileManager.default
        let readers = (try? manager.contentsOfDirectory(atPath: corpus.path)) ?? []
        return readers.sorted().flatMap { reader in
            let files = (try? manager.contentsOfDirectory(atPath: corpus.appendingPathComponent(reader).path)) ?? []
            return files.sorted().filter { !$0.hasPrefix(".") }.map { "\(reader)/\($0)" }
        }
    }()

    @Test func theCorpusIsThere() {
        #expect(Self.inputs.count >= 1, "no inputs under \(Self.corpus.path)")
    }

    @Test(arguments: inputs)
    func aFormerlyFailingInputIsReadOrRefusedInTime(_ input: String) throws {
        let reader = String(input.prefix { $0 != "/" })
        let data = try Data(contentsOf: Self.corpus.appendingPathComponent(input))
        let start = Self.threadCPUSeconds()
        switch reader {
        case "feed":
            checkFeed(data, input)
        case "html-entities":
            checkEntities(data, input)
        case "audio":
            // Refused or measured, never a crash; an accepted clip's length is within the limit.
            if let clip = try? AudioClip.inspect(data) { #expect(clip.seconds > 0 && clip.seconds <= AudioClip.maxSeconds, "\(input)") }
        case "cloze":
            if let parsed = try? MoodleCloze.parse(String(decoding: data, as: UTF8.self)) {
                #expect((try? MoodleCloze.parse(MoodleCloze.write(parsed.gapFill)))?.gapFill == parsed.gapFill, "\(input)")
            }
        case "tex":
            let html = MathText.html(String(decoding: data, as: UTF8.self)).html
            #expect(!html.contains("<script"), "\(input)")
        case "json":
            for format in [BankFormat.bundle, .openTriviaDB, .remote] { checkBank(data, format, input) }
        case "xlsx":
            // As QuizFuzz reads it: the input is the sheet's XML, then the shared strings' XML.
            let sheetOfStrings = XLSXFixture.row(1, ["Question", "Answer 1", "Answer 2", "Correct answer(s)"])
            for workbook in [try XLSXFixture.workbook(rows: "", sheetXML: String(decoding: data, as: UTF8.self)),
                             try XLSXFixture.workbook(rows: sheetOfStrings, sharedStrings: [String(decoding: data, as: UTF8.self)])] {
                checkBank(workbook, .xlsx, input, lines: data)
            }
        default:
            let format = try #require(BankFormat(rawValue: reader), "\(input): no reader is called \(reader)")
            checkBank(data, format, input)
        }
        // Every option of a file in a debug build, against QuizFuzz's 1 s for one read in release:
        // the 300,000-cell CSV header took 11 s here before its fix and takes under 1 s after.
        // This thread's CPU time, not the wall clock: a full run on two cores keeps it waiting.
        let spent = Self.threadCPUSeconds() - start
        #expect(spent < 3, "\(input) took \(spent) s of CPU")
    }

    /// CPU seconds this thread has run (the test is synchronous: it stays on one thread).
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `lines`: what a problem's line counts in, when it is not `data` (a workbook's XML part).
    private func checkBank(_ data: Data, _ format: BankFormat, _ input: String, lines: Data? = nil) {
        for column in CSVReader.AnswerColumn.allCases where format == .csv || column == .text {
            for skipInvalid in [false, true] {
                let defaults = ImportDefaults(csvAnswerColumn: column, skipInvalid: skipInvalid)
                do {
                    let result = try format.read(data, defaults: defaults)
                    check(result.bank, "\(input) (\(format.rawValue), \(column), skipping: \(skipInvalid))")
                } catch {
                    check(error, lines: lines ?? data, "\(input) (\(format.rawValue), \(column), skipping: \(skipInvalid))")
                }
            }
        }
    }

    private func checkFeed(_ data: Data, _ input: String) {
        do {
            let feed = try NewsFeedReader(feedURL: URL(string: "https://news.example.org/feed/")).read(data)
            for article in feed.articles {
                #expect(article.validationErrors().isEmpty, "\(input): \(article)")
            }
        } catch {
            check(error, lines: data, input)
        }
    }

    /// The input as Open Trivia DB question text and answer, whose HTML references are decoded.
    private func checkEntities(_ data: Data, _ input: String) {
        let text = String(decoding: data, as: UTF8.self)
        let results: [String: Any] = ["category": "Entities", "type": "multiple", "difficulty": "easy",
                                      "question": text, "correct_answer": text, "incorrect_answers": ["&lt;", "&#8217;", "&#x27;&quot;"]]
        guard let json = try? JSONSerialization.data(withJSONObject: ["response_code": 0, "results": [results]]) else {
            Issue.record("\(input): cannot be put into JSON")
            return
        }
        checkBank(json, .openTriviaDB, input)
    }

    private func check(_ bank: Bank, _ label: String) {
        for topic in bank.subjects.flatMap(\.topics) {
            for question in topic.questions + topic.quizzes.flatMap(\.questions) {
                #expect(question.validationErrors().isEmpty, "\(label): \(question)")
            }
        }
    }

    private func check(_ error: ImportError, lines data: Data, _ label: String) {
        let lineCount = 1 + data.count(where: { $0 == 0x0A || $0 == 0x0D })
        #expect(!error.problems.isEmpty, "\(label): an ImportError without problems")
        for problem in error.problems {
            #expect(!problem.message.isEmpty, "\(label): \(problem)")
            #expect(problem.line.map { (1...lineCount).contains($0) } ?? true, "\(label): \(problem)")
        }
    }
}
