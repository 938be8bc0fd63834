import Foundation
import QuizCore

/// Writes a bank as Moodle XML that Moodle's "Import questions" and `MoodleXMLReader` read.
///
/// Each topic's questions (its quizzes' in order, then those outside any quiz) follow a category
/// question `$course$/top/Subject/Topic` ("/" inside a name is written "//", as Moodle does).
/// Texts are `plain_text` in CDATA. Single choice is a `multichoice` with `<single>true</single>`
/// and fraction 100 on the correct answer; multiple choice has `<single>false</single>`, the
/// correct answers sharing 100 equally (3 → 33.33333 each) and the others 0, so Moodle gives
/// partial credit where Quizbox does not. True/false, typed answers (every accepted answer at
/// fraction 100, `*` written `\*`) and numeric questions (value, tolerance and unit) have their
/// Moodle types. The name is the first 60 characters of the text; the explanation is the general
/// feedback; points are the default grade.
///
/// A question whose picture carries its bytes has an `html` question text ending in
/// `<img src="@@PLUGINFILE@@/picture.<ext>" alt=… width=… height=…>`, with the file embedded in
/// base64 in the `<questiontext>`, as Moodle writes them; a sound clip follows as Moodle's editor
/// writes one, `<audio controls title=…><source src="@@PLUGINFILE@@/sound.<ext>"></audio>`.
///
/// Choices' partial credit is written as their fractions; one that is not a Moodle grade
/// (`MoodleXMLGrade.allowed`) leaves the question out. Matching is a `matching` question (a
/// `<subquestion>` per pair, extras with an empty text), ordering the `qtype_ordering` plugin's
/// `ordering` (each item's place as its fraction), a gap fill a `cloze` whose question text is the
/// question's text, a line break and the gaps' text in `MoodleCloze` syntax (a gap fill whose
/// number gaps have units is left out: cloze has none), a slide a `description`.
///
/// Quiz titles, descriptions and difficulty are not written. Name-them-all questions, polls, word
/// clouds and estimates have no Moodle equivalent: they are returned in `skipped`, located by
/// their path in the bank.
public struct MoodleXMLWriter: Sendable {
    public init() {}

    public func write(_ bank: Bank) -> (text: String, skipped: [FormatProblem]) {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n"
        var skipped: [FormatProblem] = []
        for (s, subject) in bank.subjects.enumerated() {
            for (t, topic) in subject.topics.enumerated() {
                let base = "subjects[\(s)].topics[\(t)]"
                var located: [(path: String, question: Question)] = []
                for (q, quiz) in topic.quizzes.enumerated() {
                    located += quiz.questions.enumerated().map { ("\(base).quizzes[\(q)].questions[\($0.offset)]", $0.element) }
                }
                located += topic.questions.enumerated().map { ("\(base).questions[\($0.offset)]", $0.element) }

                var wroteCategory = false
                for (path, question) in located {
                    guard let element = Self.element(for: question) else {
                        let message = switch question.kind {
                        case .nameAll: "name-them-all questions have no Moodle XML equivalent"
                        case .singleChoice where question.body.choices.count(where: \.isCorrect) <= 10,
                             .multipleChoice where question.body.choices.count(where: \.isCorrect) <= 10:
                            "partial credit other than Moodle's grades (\(MoodleXMLGrade.list)) cannot be written to Moodle XML"
                        case .singleChoice, .multipleChoice: "more than 10 correct answers cannot share Moodle's grades"
                        case .gapFill: "a gap fill whose number gaps have units cannot be written to Moodle XML: cloze has no units"
                        default: "Quizbox does not write \(question.kind.rawValue) questions to Moodle XML"
                        }
                        skipped.append(FormatProblem(path: path, question: question.text, message: message))
                        continue
                    }
                    if !wroteCategory {
                        xml += Self.category(subject: subject.name, topic: topic.name)
                        wroteCategory = true
                    }
                    xml += element
                }
            }
        }
        xml += "</quiz>\n"
        return (xml, skipped)
    }

    private static func category(subject: String, topic: String) -> String {
        let path = "$course$/top/" + [subject, topic].map { $0.replacing("/", with: "//") }.joined(separator: "/")
        return """
              <question type="category">
                <category>
                  <text>\(escape(path))</text>
                </category>
              </question>

            """
    }

    /// The `<question>` element, or nil for a kind Moodle XML cannot hold.
    private static func element(for question: Question) -> String? {
        let type: String
        var parts: [String] = []
        var text = question.text
        switch question.body {
        case .singleChoice(let choices), .multipleChoice(let choices):
            type = "multichoice"
            let isSingle = question.kind == .singleChoice
            let correctCount = choices.count(where: \.isCorrect)
            guard let share = isSingle ? "100" : MoodleXMLGrade.equalShare(of: max(1, correctCount)),
                  choices.allSatisfy({ $0.fraction.map { MoodleXMLGrade.snapped($0.percent) != nil } ?? true }) else { return nil }
            parts.append("<single>\(isSingle)</single>")
            parts.append("<answernumbering>abc</answernumbering>")
            let authored = choices.contains { $0.fraction != nil }
            for choice in choices {
                // The author's fractions when there are any; Moodle reads them as written.
                let percent = choice.fraction?.percent ?? (choice.isCorrect ? 100 : 0)
                let fraction = authored ? number((percent * 100_000).rounded() / 100_000) : choice.isCorrect ? share : "0"
                parts.append(answer(choice.text, fraction: fraction))
            }
        case .trueFalse(let value):
            type = "truefalse"
            parts.append(answer("true", fraction: value ? "100" : "0"))
            parts.append(answer("false", fraction: value ? "0" : "100"))
        case .typedAnswer(let accepted, let partial):
            type = "shortanswer"
            parts.append("<usecase>0</usecase>")
            for text in accepted {
                parts.append(answer(text.replacing("*", with: "\\*"), fraction: "100"))
            }
            for alternative in partial {
                parts.append(answer(alternative.text.replacing("*", with: "\\*"),
                                    fraction: number((alternative.fraction.value * 100 * 100_000).rounded() / 100_000)))
            }
        case .numeric(let value, let tolerance, let unit, let units):
            type = "numerical"
            parts.append(answer(number(value), fraction: "100", extra: "<tolerance>\(number(tolerance))</tolerance>"))
            if let unit, !unit.isEmpty {
                let others = units.map { "<unit><multiplier>\(number($0.multiplier))</multiplier><unit_name>\(escape($0.name))</unit_name></unit>" }
                parts.append("<units><unit><multiplier>1</multiplier><unit_name>\(escape(unit))</unit_name></unit>\(others.joined())</units>")
                parts.append("<unitgradingtype>0</unitgradingtype><showunits>0</showunits><unitsleft>0</unitsleft>")
            } else {
                parts.append("<unitgradingtype>0</unitgradingtype><showunits>3</showunits><unitsleft>0</unitsleft>")
            }
        case .matching(let matching):
            type = "matching"
            parts.append("<shuffleanswers>true</shuffleanswers>")
            for pair in matching.pairs {
                parts.append(subquestion(pair.prompt, answer: pair.answer))
            }
            for extra in matching.extras {
                parts.append(subquestion("", answer: extra))
            }
        case .ordering(let ordering):
            type = "ordering"
            parts.append("<layouttype>VERTICAL</layouttype><selecttype>ALL</selecttype><selectcount>0</selectcount>")
            parts.append("<gradingtype>ABSOLUTE_POSITION</gradingtype><showgrading>SHOW</showgrading>")
            for (index, item) in ordering.items.enumerated() {
                parts.append(answer(item, fraction: String(index + 1)))
            }
        case .gapFill(let gapFill):
            guard !gapFill.gaps.contains(where: Self.hasUnits) else { return nil }
            type = "cloze"
            text = question.text + "\n" + MoodleCloze.write(gapFill)
        case .slide:
            type = "description"
        case .nameAll, .poll, .wordCloud, .estimate:
            return nil
        }

        var xml = "  <question type=\"\(type)\">\n"
        xml += "    <name><text>\(escape(name(of: question.text)))</text></name>\n"
        let picture = question.picture.flatMap { picture in picture.data.map { (picture, $0) } }
        let sound = question.audio.flatMap { audio in audio.data.map { (audio, $0) } }
        if picture != nil || sound != nil {
            xml += questionText(text, picture: picture, sound: sound)
        } else {
            xml += "    <questiontext format=\"plain_text\"><text>\(cdata(text))</text></questiontext>\n"
        }
        if let explanation = question.explanation, !explanation.isEmpty {
            xml += "    <generalfeedback format=\"plain_text\"><text>\(cdata(explanation))</text></generalfeedback>\n"
        }
        xml += "    <defaultgrade>\(question.points)</defaultgrade>\n"
        for part in parts { xml += "    \(part)\n" }
        xml += "  </question>\n\n"
        return xml
    }

    /// The text as HTML (lines kept with `<br>`), then the picture and the sound clip as Moodle's
    /// editor writes them, their files embedded.
    private static func questionText(_ text: String, picture: (QuestionPicture, Data)?, sound: (QuestionAudio, Data)?) -> String {
        var html = "<p>" + escape(text).replacing("\n", with: "<br>") + "</p>"
        var files = ""
        if let (picture, data) = picture {
            let file = "picture.\(picture.type.fileExtension)"
            html += "<p><img src=\"@@PLUGINFILE@@/\(file)\" alt=\"\(escape(picture.alt).replacing("\"", with: "&quot;"))\""
                + " width=\"\(picture.width)\" height=\"\(picture.height)\"></p>"
            files += "      <file name=\"\(file)\" path=\"/\" encoding=\"base64\">\(data.base64EncodedString())</file>\n"
        }
        if let (audio, data) = sound {
            let file = "sound.\(audio.type.rawValue)"
            html += "<p><audio controls=\"true\" title=\"\(escape(audio.description).replacing("\"", with: "&quot;"))\">"
                + "<source src=\"@@PLUGINFILE@@/\(file)\"></audio></p>"
            files += "      <file name=\"\(file)\" path=\"/\" encoding=\"base64\">\(data.base64EncodedString())</file>\n"
        }
        return "    <questiontext format=\"html\"><text>\(cdata(html))</text>\n" + files + "    </questiontext>\n"
    }

    private static func hasUnits(_ gap: GapFill.WeightedGap) -> Bool {
        if case .number(_, _, let units) = gap.gap { !units.isEmpty } else { false }
    }

    private static func subquestion(_ prompt: String, answer: String) -> String {
        "<subquestion format=\"plain_text\"><text>\(cdata(prompt))</text><answer><text>\(cdata(answer))</text></answer></subquestion>"
    }

    private static func answer(_ text: String, fraction: String, extra: String = "") -> String {
        "<answer fraction=\"\(fraction)\" format=\"plain_text\"><text>\(cdata(text))</text>\(extra)</answer>"
    }

    /// The first 60 characters of the text, on one line.
    private static func name(of text: String) -> String {
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return flat.isEmpty ? "Question" : String(flat.prefix(60))
    }

    /// Without a trailing ".0" for whole numbers; otherwise the shortest text that reads back the same.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Text in CDATA: a "]]>" inside is split across two sections.
    private static func cdata(_ text: String) -> String {
        "<![CDATA[" + xmlCharacters(text).replacing("]]>", with: "]]]]><![CDATA[>") + "]]>"
    }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in xmlCharacters(text).unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// XML 1.0 cannot hold control characters other than tab and line breaks, nor U+FFFE/U+FFFF,
    /// even escaped: they are left out.
    private static func xmlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isForbidden) else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.filter { !isForbidden($0) })
        return String(kept)
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
            || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }
}
