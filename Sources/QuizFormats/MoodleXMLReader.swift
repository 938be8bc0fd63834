import Foundation
import QuizCore

/// Reads a Moodle XML question bank (Moodle's "Export questions" in "Moodle XML format").
///
/// Question types and what they become:
/// - `multichoice` with `<single>true</single>` (Moodle's default): single choice; the answer with
///   fraction 100 is correct. Other fractions (50, -25…) are kept as the choices' partial credit.
/// - `multichoice` with `<single>false</single>`: multiple choice; every answer with a fraction above
///   0 is correct. Fractions other than equal shares of 100 with 0 or minus a share for the others
///   (say 60/40, or -100 on a wrong one) are kept as partial credit; equal shares are graded
///   all-or-nothing, as Quizbox's own multiple choice is (`ChoiceWeights`).
/// - `truefalse`: true/false, from the answer ("true" or "false") with fraction 100.
/// - `shortanswer`: typed answer; the answers with fraction 100 are accepted. Partial-credit answers
///   are dropped with a warning (wrong answers, fraction 0 or below, need no equivalent). Matching is
///   always case-insensitive, and `*` wildcards are not supported (both warned about).
/// - `numerical`: numeric; the first answer with fraction 100 gives the value and its `<tolerance>`
///   the tolerance. Of the `<units>`, the first with multiplier 1 becomes the unit; the others are
///   dropped with a warning.
/// - `category` pseudo-questions set the subject and topic of the questions after them:
///   `$course$/top/Science/Astronomy` is subject "Science", topic "Astronomy" (`$course$/`,
///   `$system$/`, `$module$/` and other `$…$/` contexts and a leading `top/` are ignored; the first
///   remaining segment is the subject, the last the topic; a single segment is both; `//` is a "/"
///   inside a name). Questions before any category go to `ImportDefaults.subject`/`topic`.
/// - `matching`: matching; each `<subquestion>` with a text is a prompt and its `<answer>`, one
///   with an empty text but an answer is an extra answer.
/// - `ordering` (the `qtype_ordering` plugin): ordering; the plugin writes each item's place as its
///   answer's `fraction` (1, 2, 3…), so items are taken in that order.
/// - `cloze` (embedded answers): gap fill, the question text read by `MoodleCloze`. When the
///   text's first line holds no gap and more follows, it becomes the question's text and the
///   rest the gap fill's; otherwise the question's text is its `<name>`.
/// - `description`: a slide, its text the question text.
/// - `essay` and every other type are not imported: each is reported in `ReadResult.warnings`
///   with its line and name. A file holding only such questions reads as an empty bank with
///   those warnings; a file with no `<question>` at all is an error.
///
/// Texts in `html` or `moodle_auto_format` become plain text (see `MoodleXMLText`); embedded files
/// and `<img>` tags are dropped with a warning. `<generalfeedback>` becomes the explanation, or
/// when empty the correct answer's feedback. `<defaultgrade>` becomes the points, rounded and kept
/// within 1...100. Difficulty, tags, hints, penalties and per-answer feedback are not kept.
///
/// Every answer's fraction must be one of Moodle's grades (`MoodleXMLGrade.allowed`, or a negative
/// one, within 0.001). Errors (malformed XML with the parser's line and column, a fraction Moodle
/// does not allow, a question Quizbox would reject) are all reported, up to
/// `ImportError.maxProblems`, and nothing is returned unless the whole file is good. Each topic's
/// questions form one quiz titled `ImportDefaults.quizTitle`, in file order.
public struct MoodleXMLReader: Sendable {
    public var defaults: ImportDefaults

    public init(defaults: ImportDefaults = .init()) {
        self.defaults = defaults
    }

    public func read(_ data: Data) throws(ImportError) -> ReadResult {
        guard data.count <= defaults.maxBytes else {
            throw .tooLarge(size: data.count, limit: defaults.maxBytes)
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw ImportError(problems: [FormatProblem(message: "the file is empty")])
        }
        let root: MoodleXMLElement
        switch MoodleXMLElement.parseDocument(data) {
        case .failure(let problem):
            throw ImportError(problems: [problem])
        case .success(nil):
            throw ImportError(problems: [FormatProblem(message: MoodleXMLTreeBuilder.noElement)])
        case .success(let element?):
            root = element
        }
        guard root.name == "quiz" else {
            let message = "the root element is <\(root.name)>, not <quiz>: is this a Moodle XML export?"
            throw ImportError(problems: [FormatProblem(line: root.line, message: message)])
        }

        var session = Session(defaults: defaults)
        for element in root.children where element.name == "question" {
            session.read(element)
        }
        return try session.result()
    }
}

extension MoodleXMLReader {
    /// What one read has found so far: where questions go, what they became, what went wrong.
    private struct Session {
        static let maxWarnings = 1_000

        let defaults: ImportDefaults
        var subject: String
        var topic: String
        var builder = BankBuilder()
        var problems = ProblemList()
        var warnings: [FormatProblem] = []
        var omittedWarnings = 0
        var questionsSeen = 0

        init(defaults: ImportDefaults) {
            self.defaults = defaults
            subject = defaults.subject
            topic = defaults.topic
        }

        mutating func read(_ element: MoodleXMLElement) {
            let type = MoodleXMLText.trimmed(element.attributes["type"] ?? "").lowercased()
            if type == "category" {
                readCategory(element)
                return
            }
            questionsSeen += 1
            let name = MoodleXMLText.trimmed(element.childText("name") ?? "")
            switch type {
            case "multichoice", "truefalse", "shortanswer", "numerical", "matching", "ordering", "description", "cloze":
                var reader = MoodleXMLQuestionReader(element: element, type: type)
                let question = reader.read()
                for problem in reader.problems { problems.append(problem) }
                for warning in reader.warnings { warn(warning) }
                if let question { builder.add(question, subject: subject, topic: topic) }
            case "":
                warn(FormatProblem(line: element.line, question: name.isEmpty ? nil : name,
                                   message: "a question without a type attribute was not imported"))
            default:
                warn(FormatProblem(line: element.line, question: name.isEmpty ? nil : name,
                                   message: "\(type) questions are not supported by Quizbox"))
            }
        }

        /// `$course$/top/Science/Astronomy` → subject "Science", topic "Astronomy".
        private mutating func readCategory(_ element: MoodleXMLElement) {
            let path = MoodleXMLText.trimmed(element.childText("category") ?? "")
            var segments = Self.segments(of: path)
            if let first = segments.first, first.count >= 2, first.hasPrefix("$"), first.hasSuffix("$") {
                segments.removeFirst()
            }
            if segments.first?.lowercased() == "top" { segments.removeFirst() }
            subject = segments.first ?? defaults.subject
            topic = segments.last ?? defaults.topic
        }

        /// A category path's names, trimmed, empty ones left out; "//" is a "/" inside a name.
        static func segments(of path: String) -> [String] {
            var segments: [String] = []
            var current = ""
            var scalars = path.unicodeScalars[...]
            while let scalar = scalars.popFirst() {
                if scalar == "/" {
                    if scalars.first == "/" {
                        scalars.removeFirst()
                        current.unicodeScalars.append("/")
                    } else {
                        segments.append(current)
                        current = ""
                    }
                } else {
                    current.unicodeScalars.append(scalar)
                }
            }
            segments.append(current)
            return segments.map(MoodleXMLText.trimmed).filter { !$0.isEmpty }
        }

        private mutating func warn(_ warning: FormatProblem) {
            if warnings.count < Self.maxWarnings { warnings.append(warning) } else { omittedWarnings += 1 }
        }

        func result() throws(ImportError) -> ReadResult {
            // A file of only unsupported questions reads as an empty bank whose warnings say why.
            if problems.isEmpty && questionsSeen == 0 { throw ImportError(problems: [FormatProblem(message: "the file holds no questions")]) }
            let skipped = try problems.skippedProblems(skipInvalid: defaults.skipInvalid, keptAny: !builder.isEmpty)
            var warnings = warnings
            if omittedWarnings > 0 { warnings.append(FormatProblem(message: "…and \(omittedWarnings) more warnings")) }
            return ReadResult(bank: builder.bank(quizTitle: defaults.quizTitle), warnings: warnings, skipping: skipped)
        }
    }
}
