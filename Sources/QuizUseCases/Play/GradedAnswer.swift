import QuizCore

/// Why an answer could not be graded: its shape, not its content, is wrong. Quizzes and single
/// questions grade alike, so both report these.
package enum AnswerProblem: Error, Equatable, Sendable {
    /// No field of an answer, or more than one, was given (`AnswerInput`).
    case notOneField
    /// The one field given holds nothing: no choice in the list, no character typed.
    case empty
    /// Typed text longer than `Answer.maxTextBytes`.
    case tooLong
    /// More than `Answer.maxChoices` choices.
    case tooManyChoices
    /// More items, pairs or gaps than any question has.
    case tooManyParts
    /// An answer of another kind than the question's (or text for a number that is no number).
    case doesNotFit(expected: QuestionKind)
    case unknownChoice(Int)
    /// An ordering that does not list each item once.
    case notAnOrder(itemCount: Int)
    /// A prompt, answer or gap the question does not have.
    case unknownPart(Int)
    /// An estimate outside the question's range.
    case outOfRange(ClosedRange<Double>)
}

/// An answer checked against its question and graded, in the form it is kept.
package struct GradedAnswer: Sendable, Equatable {
    package var answer: Answer
    package var isCorrect: Bool
    /// Right, partly right, wrong, or only counted (polls and word clouds).
    package var verdict: Verdict
    package var credit: Credit

    /// Points for a question worth `total`, late answers none.
    package func points(of total: Int, late: Bool = false) -> Int {
        late ? 0 : credit.points(of: total)
    }

    /// The answer as kept, with its credit when partial.
    package func stored(late: Bool = false) -> String {
        GivenAnswer(answer, late: late, credit: late ? nil : credit).stored
    }

    /// `answer` names choices by the public ids `ids` showed them under; it is graded and kept in
    /// stored ids.
    package init(_ input: AnswerInput, shownAs ids: ChoiceIds, for question: Question) throws(AnswerProblem) {
        try self.init(try ids.stored(try input.answer()), for: question)
    }

    package init(_ answer: Answer, for question: Question) throws(AnswerProblem) {
        switch answer {
        case .text(let text) where text.utf8.count > Answer.maxTextBytes: throw .tooLong
        case .choices(let ids) where ids.count > Answer.maxChoices: throw .tooManyChoices
        case .gaps(let gaps) where gaps.values.contains(where: { if case .text(let text) = $0 { text.utf8.count > Answer.maxTextBytes } else { false } }):
            throw .tooLong
        default: break
        }
        do {
            self.answer = try question.normalized(answer)
            (verdict, credit) = try question.verdict(for: self.answer)
            isCorrect = verdict == .correct
        } catch {
            switch error {
            case .answerDoesNotFitKind(let kind): throw .doesNotFit(expected: kind)
            case .unknownChoice(let id): throw .unknownChoice(id)
            case .notAnOrder(let count): throw .notAnOrder(itemCount: count)
            case .unknownPart(let id): throw .unknownPart(id)
            case .outOfRange(let range): throw .outOfRange(range)
            }
        }
    }
}
