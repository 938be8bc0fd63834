import Foundation
import QuizCore
import QuizUseCases

/// What the quiz pages and the single-question pages share: a question's heading and answer
/// fields (rendered once per question and choice order, then cached), and reading an answer from
/// the form those fields make.
struct QuestionFragments: Sendable {
    let renderer: PageRenderer

    struct Head: Encodable {
        var text: String
        var difficulty: String
        var points: String
        var picture: ManageQuestionPages.PictureModel?
    }

    struct ChoiceField: Encodable {
        var id: Int
        var text: String
    }

    struct Fields: Encodable {
        var singleChoice: Bool?
        var multipleChoice: Bool?
        var trueFalse: Bool?
        var typedAnswer: Bool?
        var numeric: Bool?
        var choices: [ChoiceField]
        var unit: String?

        init(_ question: Question) {
            switch question.kind {
            case .singleChoice: singleChoice = true
            case .multipleChoice: multipleChoice = true
            case .trueFalse: trueFalse = true
            case .typedAnswer: typedAnswer = true
            case .numeric: numeric = true
            case .nameAll: break
            }
            choices = question.body.choices.map { ChoiceField(id: $0.id, text: $0.text) }
            if case .numeric(_, _, let unit?) = question.body { self.unit = unit }
        }
    }

    func head(_ question: Question) -> PageHTML {
        PageHTML(renderer.fragment("question-head", for: question) {
            MustacheEncoder.encode(Head(text: question.text, difficulty: question.difficulty.rawValue.capitalized,
                                        points: Pages.count(question.points, "point"),
                                        picture: question.picture.map(ManageQuestionPages.PictureModel.init)))
        })
    }

    func fields(_ question: Question) -> PageHTML {
        PageHTML(renderer.fragment("question-fields", for: question) { MustacheEncoder.encode(Fields(question)) })
    }

    /// The answer the question's fields sent: each kind has fields of its own names. nil when
    /// nothing was chosen or typed. A number stays the text typed: the use case reads it with the
    /// question's unit.
    static func answer(from form: WebForm) -> Answer? {
        if let id = Int(form.text("choice")) { return .choice(id) }
        let ids = form.all("choices").compactMap { Int($0) }
        if !ids.isEmpty { return .choices(Set(ids)) }
        if let value = ["true": true, "false": false][form.text("value")] { return .bool(value) }
        let text = form.text("text")
        if !text.isEmpty { return .text(text) }
        let number = form.text("number")
        return number.isEmpty || number.count > 40 ? nil : .text(number)  // 40: the field's maxlength
    }

    static var noAnswer: String { "Choose or type an answer before submitting." }

    /// The form's message for an answer its question cannot take.
    static func message(_ problem: AnswerProblem) -> String {
        switch problem {
        case .tooLong, .tooManyChoices: noAnswer  // more than the fields allow: none of them was used
        case .doesNotFit, .unknownChoice: "That answer does not fit this question."
        }
    }
}
