import QuizCore

/// Writes a bank as GIFT that Moodle imports and `GIFTReader` reads back to the same questions.
///
/// Each topic with something to write starts with `$CATEGORY: Subject/Topic`; its questions (its
/// quizzes' in order, then the rest of its bank) follow, one blank line apart:
///
/// ```
/// Capital of France?{
/// =Paris
/// ~Lyon
/// ####Paris has been the capital since 987.
/// }
/// ```
/// Single choice is written `=right ~wrong`; multiple choice with Moodle weights, the correct
/// answers sharing 100% and each wrong one taking away as much as a correct one gives
/// (`~%50%a ~%50%b ~%-50%c`); true/false `{TRUE}`/`{FALSE}`; typed answers `{=a =b}`; numeric
/// `{#value:tolerance}`; the explanation as general feedback `####…`. Every control character is
/// escaped, line breaks become `\n`, and a question whose text the default `[moodle]` format would
/// change (markup such as "<b>" or "&amp;", repeated spaces) is tagged `[plain]`.
///
/// Partial credit is written as weights (`=%100%right ~%50%partly ~%-25%wrong`), matching as
/// `=prompt -> answer` pairs and `= -> extra` answers (at least three of them, as Moodle's GIFT
/// import requires; fewer leave the question out), a slide as a description (its text with no
/// answer block), an ordering as the `qtype_ordering` plugin reads it (`{>0 ALL VERTICAL
/// ABSOLUTE_POSITION` and an item a line; Moodle 4.4 has it built in).
///
/// GIFT holds less than a bank: quiz titles and descriptions, difficulty, points and numeric
/// units are lost, and a multiple-choice question with one correct answer reads back as single
/// choice. Questions it cannot hold come back in `skipped` with their path in the bank:
/// name-them-all questions, gap fills, polls, word clouds, estimates, invalid questions, and typed answers containing "->" (which GIFT
/// reads as a matching question).
public struct GIFTWriter: Sendable {
    public init() {}

    public func write(_ bank: Bank) -> (text: String, skipped: [FormatProblem]) {
        var text = ""
        var skipped: [FormatProblem] = []
        for (subjectIndex, subject) in bank.subjects.enumerated() {
            for (topicIndex, topic) in subject.topics.enumerated() {
                let base = "subjects[\(subjectIndex)].topics[\(topicIndex)]"
                var located: [(path: String, question: Question)] = []
                for (quizIndex, quiz) in topic.quizzes.enumerated() {
                    for (index, question) in quiz.questions.enumerated() {
                        located.append(("\(base).quizzes[\(quizIndex)].questions[\(index)]", question))
                    }
                }
                for (index, question) in topic.questions.enumerated() {
                    located.append(("\(base).questions[\(index)]", question))
                }
                var wroteCategory = false
                for (path, question) in located {
                    if let reason = GIFTWriter.reasonToSkip(question) {
                        skipped.append(FormatProblem(path: path, question: question.text, message: reason))
                        continue
                    }
                    if !wroteCategory {
                        text += "$CATEGORY: \(GIFTWriter.categoryName(subject.name))/\(GIFTWriter.categoryName(topic.name))\n\n"
                        wroteCategory = true
                    }
                    text += GIFTWriter.gift(for: question)
                    text += "\n\n"
                }
            }
        }
        return (text, skipped)
    }

    static func reasonToSkip(_ question: Question) -> String? {
        switch question.kind {
        case .nameAll: return "name-them-all questions have no GIFT equivalent"
        case .gapFill, .poll, .wordCloud, .estimate:
            return "Quizbox does not write \(question.kind.rawValue) questions to GIFT"
        case .matching:
            guard case .matching(let matching) = question.body else { break }
            if matching.pairs.count + matching.extras.count < 3 {
                return "a matching question needs at least 3 pairs and extra answers in GIFT, which Moodle requires"
            }
            if let arrow = (matching.pairs.flatMap { [$0.prompt, $0.answer] } + matching.extras).first(where: { $0.contains("->") }) {
                return "\"\(arrow)\" contains '->', which GIFT reads as the arrow between a prompt and its answer"
            }
        case .slide:
            if question.explanation?.isEmpty == false { return "a slide with an explanation cannot be written to GIFT: a description has no feedback" }
        default: break
        }
        if let error = question.validationErrors().first {
            return "the question is not valid (\(error)), so it could not be read back"
        }
        if case .typedAnswer(let answers, let partial) = question.body,
           let arrow = (answers + partial.map(\.text)).first(where: { $0.contains("->") }) {
            return "the accepted answer \"\(arrow)\" contains '->', which GIFT reads as a matching question"
        }
        return nil
    }

    /// One question, without the blank line after it.
    static func gift(for question: Question) -> String {
        let plain = needsPlainFormat(question)
        let tag = plain ? "[plain]" : "[moodle]"
        // A stem starting with something like "[html]" always gets the question's "[plain]".
        var out = plain ? "[plain]" : ""
        out += escape(question.text)
        if question.kind == .slide { return out }  // a description: text with no answer block
        out += "{"
        var explanationOnOwnLine = true
        switch question.body {
        case .singleChoice(let choices) where choices.contains(where: { $0.fraction != nil }),
             .multipleChoice(let choices) where choices.contains(where: { $0.fraction != nil }):
            // The author's fractions, as GIFT writes weights: ~%50%text.
            // A single choice's right one is `=`, so other positive weights stay partial credit.
            let isSingle = question.kind == .singleChoice
            for choice in choices {
                let percent = choice.fraction?.percent ?? (choice.isCorrect ? 100 : 0)
                let mark = isSingle && choice.isCorrect ? "=%" : "~%"
                out += "\n" + mark + weightText(percent) + "%" + piece(choice.text, tag: tag)
            }
        case .singleChoice(let choices):
            for choice in choices {
                let mark = choice.text.unicodeScalars.first == "%" ? (choice.isCorrect ? "~%100%" : "~%0%") : (choice.isCorrect ? "=" : "~")
                out += "\n" + mark + piece(choice.text, tag: tag)
            }
        case .multipleChoice(let choices):
            let weight = weightText(100 / Double(max(1, choices.count(where: \.isCorrect))))
            for choice in choices {
                out += "\n~%" + (choice.isCorrect ? weight : "-" + weight) + "%" + piece(choice.text, tag: tag)
            }
        case .trueFalse(let value):
            out += value ? "TRUE" : "FALSE"
            explanationOnOwnLine = false
        case .typedAnswer(let answers, let partial):
            for answer in answers {
                out += "\n" + (answer.unicodeScalars.first == "%" ? "=%100%" : "=") + piece(answer, tag: "[plain]")
            }
            // Part credit as GIFT weighs an answer: =%50%Lutetia.
            for alternative in partial {
                out += "\n=%" + weightText(alternative.fraction.percent) + "%" + piece(alternative.text, tag: "[plain]")
            }
        case .numeric(let value, let tolerance, _, _):
            out += "#" + number(value) + ":" + number(tolerance)
            explanationOnOwnLine = false
        case .matching(let matching):
            for pair in matching.pairs {
                out += "\n=" + piece(pair.prompt, tag: tag) + " -> " + piece(pair.answer, tag: tag)
            }
            for extra in matching.extras {
                out += "\n= -> " + piece(extra, tag: tag)
            }
        case .ordering(let ordering):
            // qtype_ordering's header: all items shown, vertically, each graded by its place.
            out += ">0 ALL VERTICAL ABSOLUTE_POSITION"
            for item in ordering.items {
                out += "\n" + piece(item, tag: tag)
            }
        case .nameAll, .gapFill, .poll, .wordCloud, .estimate, .slide:
            break  // skipped before
        }
        if let explanation = question.explanation, !explanation.isEmpty {
            out += (explanationOnOwnLine ? "\n####" : "####") + piece(explanation, tag: tag)
        }
        out += explanationOnOwnLine ? "\n}" : "}"
        return out
    }
}
