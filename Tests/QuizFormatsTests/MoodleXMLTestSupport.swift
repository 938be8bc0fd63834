import Foundation
import QuizCore
import QuizFormats
import Testing

/// A Moodle XML document around question elements: the declaration is line 1, `<quiz>` line 2,
/// so the first question starts on line 3.
func moodleQuiz(_ questions: String...) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n" + questions.joined() + "</quiz>\n"
}

/// Reads Moodle XML text, failing the test if the reader rejects it.
func readMoodleXML(_ xml: String, defaults: ImportDefaults = .init()) throws -> ReadResult {
    try MoodleXMLReader(defaults: defaults).read(Data(xml.utf8))
}

/// The problems the reader reports for a file it must reject; records an issue if it accepts it.
func moodleXMLProblems(_ data: Data, defaults: ImportDefaults = .init(), sourceLocation: SourceLocation = #_sourceLocation) -> [FormatProblem] {
    do {
        let result = try MoodleXMLReader(defaults: defaults).read(data)
        Issue.record("expected the file to be rejected, but it read \(result.bank.questionCount) questions", sourceLocation: sourceLocation)
        return []
    } catch {
        return error.problems
    }
}

func moodleXMLProblems(_ xml: String, defaults: ImportDefaults = .init(), sourceLocation: SourceLocation = #_sourceLocation) -> [FormatProblem] {
    moodleXMLProblems(Data(xml.utf8), defaults: defaults, sourceLocation: sourceLocation)
}

/// Every question of a bank, in order.
func moodleXMLQuestions(_ bank: Bank) -> [Question] {
    bank.subjects.flatMap(\.topics).flatMap { $0.quizzes.flatMap(\.questions) + $0.questions }
}

/// The only question a file holds.
func onlyMoodleXMLQuestion(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Question {
    let questions = moodleXMLQuestions(try readMoodleXML(xml).bank)
    return try #require(questions.count == 1 ? questions.first : nil, "expected one question, got \(questions.count)", sourceLocation: sourceLocation)
}

/// A true/false question with the given question text, to see what the text becomes.
func moodleTrueFalse(text: String, format: String = "html") -> String {
    """
      <question type="truefalse">
        <name><text>T</text></name>
        <questiontext format="\(format)"><text>\(text)</text></questiontext>
        <answer fraction="100"><text>true</text></answer>
        <answer fraction="0"><text>false</text></answer>
      </question>

    """
}

/// "line:column" of each problem, "-" where unknown.
func moodleXMLLocations(_ problems: [FormatProblem]) -> [String] {
    problems.map { "\($0.line.map(String.init) ?? "-"):\($0.column.map(String.init) ?? "-")" }
}

/// The real Moodle exports in /work/shared/testdata/formats/moodlexml, found from this file's
/// place in the checkout (never copied into the repository: they are GPL-3.0).
enum MoodleXMLTestFiles {
    static let folder = SharedTestData.url("moodlexml")

    static let names = [
        "qas-matching.xml", "qas-multichoice.xml", "qas-numerical.xml", "qas-shortanswer.xml",
    ]

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }
}
