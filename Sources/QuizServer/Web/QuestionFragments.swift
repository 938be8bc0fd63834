import Foundation
import QuizCore
import QuizMath
import QuizText
import QuizUseCases

/// What the quiz pages and the single-question pages share: a question's heading and answer
/// fields (rendered once per question and choice order, then cached), and reading an answer from
/// the form those fields make.
struct QuestionFragments: Sendable {
    let renderer: PageRenderer

    struct Head: Encodable {
        /// HTML: TeX in it is MathML.
        var text: String
        var difficulty: String
        var points: String
        var picture: ManageQuestionPages.PictureModel?
        var sound: ManageQuestionPages.SoundModel?
    }

    /// A choice as a tile: its colour and shape (the live game's, so a choice looks the same on
    /// every screen) and its key, 1–9.
    struct ChoiceField: Encodable {
        var id: Int
        var text: String
        var variant: Int
        var shape: String
        var path: String
        var key: String?
        /// The text as HTML, its TeX as MathML.
        var html: String
        /// The input's name when the text holds maths: its plain reading (a name is not computed
        /// from MathML everywhere).
        var mathLabel: String?

        init(id: Int, text: String, variant: Int, position: Int) {
            self.id = id
            self.text = text
            html = RichText.html(text)
            mathLabel = MathText.mayHoldMath(text) ? RichText.plain(text) : nil
            self.variant = variant
            (shape, path) = AnswerLook.shapes[variant % AnswerLook.shapes.count]
            key = position < 9 ? String(position + 1) : nil
        }
    }

    struct Fields: Encodable {
        var singleChoice: Bool?
        var multipleChoice: Bool?
        var trueFalse: Bool?
        var typedAnswer: Bool?
        var numeric: Bool?
        var choices: [ChoiceField]
        var unit: String?
        /// True and false as tiles, in the live game's looks for them.
        var truth: ChoiceField?
        var falsehood: ChoiceField?
        var twoTiles: Bool?
        var poll: Bool?
        var wordCloud: Bool?
        var maxWordLength = WordCloud.maxEntryLength
        var ordering: [OrderItem]?
        var matching: [MatchPrompt]?
        var gapFill: [GapPiece]?
        var estimate: EstimateField?
        var slide: Bool?
        // Once-only wrappers around the lists (Mustache iterates a list it is given).
        var orderingShown: Bool?
        var matchingShown: Bool?
        var gapFillShown: Bool?

        init(_ question: Question, t: Texts = .of(.en)) {
            switch question.kind {
            case .singleChoice: singleChoice = true
            case .multipleChoice: multipleChoice = true
            case .trueFalse: trueFalse = true
            case .typedAnswer: typedAnswer = true
            case .numeric: numeric = true
            case .poll: poll = true
            case .wordCloud: wordCloud = true
            case .slide: slide = true
            case .nameAll, .ordering, .matching, .gapFill, .estimate: break
            }
            let shown: [(id: Int, text: String)] = if case .poll(let poll) = question.body {
                poll.shown
            } else {
                question.body.choices.map { (id: $0.id, text: $0.text) }
            }
            let variants = AnswerLook.variants(shown.map(\.id))
            choices = shown.enumerated().map { position, choice in
                ChoiceField(id: choice.id, text: choice.text, variant: variants[choice.id] ?? 0, position: position)
            }
            switch question.body {
            case .ordering(let body):
                // In the order of their public ids: never the right order.
                let items = body.shown
                ordering = items.enumerated().map { index, item in
                    OrderItem(id: item.id, text: RichText.html(item.text), place: index + 1,
                              places: items.indices.map { PlaceOption(value: $0 + 1, selected: $0 == index ? true : nil) },
                              label: t("Place of “{item}”", ["item": RichText.plain(item.text)]))
                }
            case .matching(let body):
                let options = body.shownAnswers.map { Option(id: $0.id, text: $0.text) }
                matching = body.pairs.enumerated().map { MatchPrompt(id: $0.offset + 1, text: RichText.html($0.element.prompt),
                                                               mathLabel: MathText.mayHoldMath($0.element.prompt) ? RichText.plain($0.element.prompt) : nil,
                                                               options: options) }
            case .gapFill(let body):
                gapFill = body.segments.map { segment in
                    switch segment {
                    case .text(let text): return GapPiece(text: RichText.html(text))
                    case .gap(let index):
                        let weighted = body.gaps[index]
                        let label = t("Gap {number}", ["number": t.number(index + 1)])
                        return switch weighted.gap {
                        case .choice: GapPiece(gap: GapInput(number: index + 1, label: label, choices: weighted.shownChoices.map { Option(id: $0.id, text: $0.text) }))
                        case .typed: GapPiece(gap: GapInput(number: index + 1, label: label, typed: true))
                        case .number: GapPiece(gap: GapInput(number: index + 1, label: label, typed: true, numeric: true))
                        }
                    }
                }
            case .estimate(let body):
                estimate = EstimateField(body)
            default: break
            }
            orderingShown = ordering == nil ? nil : true
            matchingShown = matching == nil ? nil : true
            gapFillShown = gapFill == nil ? nil : true
            if case .numeric(_, _, let unit?, _) = question.body { self.unit = unit }
            if question.kind == .trueFalse {
                truth = ChoiceField(id: 1, text: t("True"), variant: AnswerLook.trueVariant, position: 0)
                falsehood = ChoiceField(id: 0, text: t("False"), variant: AnswerLook.falseVariant, position: 1)
            }
            twoTiles = question.kind == .trueFalse || choices.count == 2 ? true : nil
        }
    }

    /// An option of a select: plain text (a formula as its plain reading).
    struct Option: Encodable {
        var id: Int
        var text: String

        init(id: Int, text: String) {
            self.id = id
            self.text = RichText.plain(text)
        }
    }

    /// An ordering's item with the place it is shown at, and the places to choose from.
    struct OrderItem: Encodable {
        var id: Int
        /// HTML.
        var text: String
        var place: Int
        var places: [PlaceOption]
        var label: String
    }

    struct PlaceOption: Encodable {
        var value: Int
        var selected: Bool?
    }

    struct MatchPrompt: Encodable {
        var id: Int
        /// HTML.
        var text: String
        /// The select's name when the prompt holds maths.
        var mathLabel: String?
        var options: [Option]
    }

    /// A piece of a gap fill's text: words, or a gap's field.
    struct GapPiece: Encodable {
        /// HTML.
        var text: String?
        var gap: GapInput?
    }

    struct GapInput: Encodable {
        var number: Int
        var label: String
        var choices: [Option]?
        var typed: Bool?
        var numeric: Bool?
        var isChoice: Bool?

        init(number: Int, label: String, choices: [Option]? = nil, typed: Bool? = nil, numeric: Bool? = nil) {
            (self.number, self.label, self.choices, self.typed, self.numeric) = (number, label, choices, typed, numeric)
            isChoice = choices == nil ? nil : true
        }
    }

    /// An estimate's field and slider: the range, never the value.
    struct EstimateField: Encodable {
        var minimum: String
        var maximum: String
        var step: String
        var start: String
        var unit: String?

        init(_ estimate: Estimate) {
            minimum = NumberFormatting.plain(estimate.minimum)
            maximum = NumberFormatting.plain(estimate.maximum)
            step = NumberFormatting.plain(estimate.step)
            // The slider starts mid-range, on a step.
            let steps = ((estimate.maximum - estimate.minimum) / estimate.step / 2).rounded(.down)
            start = NumberFormatting.plain(estimate.minimum + steps * estimate.step)
            unit = estimate.unit
        }
    }

    /// An answered question's choices as tiles: the right ones marked, the player's own marked.
    struct AnsweredTile: Encodable {
        var variant: Int
        var shape: String
        var path: String
        /// HTML.
        var text: String
        // Names of their own: a missing optional would otherwise be looked up in the page's own
        // values (which have a `given`, the answer's text).
        var isRight: Bool?
        var isYours: Bool?
        /// Chosen and wrong: "Yours" on the tile.
        var isYoursWrong: Bool?
    }

    /// Tiles for a choice question after its answer (nil for typed kinds): the same looks as
    /// before it, so the player finds their tile again.
    static func answeredTiles(_ question: Question, given: Answer?, t: Texts = .of(.en)) -> [AnsweredTile]? {
        let fields = Fields(question, t: t)
        func tile(_ field: ChoiceField, correct: Bool, given chosen: Bool) -> AnsweredTile {
            AnsweredTile(variant: field.variant, shape: field.shape, path: field.path, text: field.html,
                         isRight: correct ? true : nil, isYours: chosen ? true : nil, isYoursWrong: chosen && !correct ? true : nil)
        }
        switch (question.body, given) {
        case (.singleChoice(let choices), _), (.multipleChoice(let choices), _):
            let chosen: Set<Int> = switch given {
            case .choice(let id)?: [id]
            case .choices(let ids)?: ids
            default: []
            }
            return zip(fields.choices, choices).map { tile($0, correct: $1.isCorrect, given: chosen.contains($1.id)) }
        case (.trueFalse(let answer), _):
            guard let truth = fields.truth, let falsehood = fields.falsehood else { return nil }
            let chosen: Bool? = if case .bool(let value)? = given { value } else { nil }
            return [tile(truth, correct: answer, given: chosen == true), tile(falsehood, correct: !answer, given: chosen == false)]
        default:
            return nil
        }
    }

    /// The looks of answers, as `live-common.js` has them (a test keeps the two the same): a
    /// choice's colour and shape follow its id's place among the question's ids, never where its
    /// tile sits, so a shuffled question keeps "the red triangle" for the same answer.
    enum AnswerLook {
        static let shapes: [(String, String)] = [
            ("triangle", "M12 3 22 20H2Z"),
            ("diamond", "M12 2 22 12 12 22 2 12Z"),
            ("circle", "M2 12a10 10 0 1 0 20 0a10 10 0 1 0-20 0Z"),
            ("square", "M3 3H21V21H3Z"),
            ("star", "M12 2l2.9 6.6 7.1.6-5.4 4.7 1.6 7L12 17.2 5.8 20.9l1.6-7L2 9.2l7.1-.6Z"),
            ("hexagon", "M7 3h10l5 9-5 9H7l-5-9Z"),
            ("pentagon", "M12 2l10 7.5-3.8 12.5H5.8L2 9.5Z"),
            ("cross", "M9 2h6v7h7v6h-7v7H9v-7H2V9h7Z"),
        ]
        static let trueVariant = 1
        static let falseVariant = 0

        static func variants(_ ids: [Int]) -> [Int: Int] {
            Dictionary(ids.sorted().enumerated().map { ($1, $0 % shapes.count) }) { first, _ in first }
        }
    }

    /// The verdict's icon beside its words, as SVG paths on a 24×24 box: a tick, a cross, an "i".
    enum VerdictIcon {
        static let right = "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4Z"
        static let wrong = "M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 12Z"
        static let already = "M11 7h2v2h-2Zm0 4h2v6h-2Zm1-9a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16Z"
        /// A half-filled circle: part of the credit.
        static let partly = "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 18V4a8 8 0 0 1 0 16Z"
        static func of(right: Bool) -> String { right ? Self.right : wrong }
        /// By the verdict's class: right, partly, wrong, or counted and already (the information mark).
        static func of(_ verdictClass: String) -> String {
            switch verdictClass {
            case "right": right
            case "partly": partly
            case "wrong": wrong
            default: already
            }
        }
    }

    func head(_ question: Question, language: Language) -> PageHTML {
        let t = Texts.of(language)
        return PageHTML(renderer.fragment("question-head", for: question, language: language) {
            MustacheEncoder.encode(Head(text: RichText.html(question.text), difficulty: Self.difficultyName(question.difficulty, t),
                                        points: t.count(question.points, "{count} point", "{count} points"),
                                        picture: question.picture.map(ManageQuestionPages.PictureModel.init),
                                        sound: question.audio.map(ManageQuestionPages.SoundModel.init)))
        })
    }

    /// "Easy", "Medium", "Hard" in the page's language.
    static func difficultyName(_ difficulty: Difficulty, _ t: Texts) -> String {
        switch difficulty {
        case .easy: t("Easy")
        case .medium: t("Medium")
        case .hard: t("Hard")
        }
    }

    func fields(_ question: Question, language: Language) -> PageHTML {
        PageHTML(renderer.fragment("question-fields", for: question, language: language) { MustacheEncoder.encode(Fields(question, t: Texts.of(language))) })
    }

    /// The answer the question's fields sent: each kind has fields of its own names, and a field
    /// left empty counts as not sent. A number stays the text typed: the use case reads it with
    /// the question's unit.
    static func answer(from form: WebForm) -> AnswerInput {
        let ids = form.all("choices").compactMap { Int($0) }
        let text = form.text("text"), number = form.text("number")
        // An ordering sends each item's place (`place-<id>`): the order is the items by place. Two
        // items at one place leave a place empty, which grading refuses as no order.
        let places = form.numbered("place-").compactMap { id, place in Int(place).map { (id: id, place: $0) } }
        var order: [Int]?
        if !places.isEmpty {
            let byPlace = Dictionary(places.map { ($0.place, $0.id) }) { first, _ in first }
            order = (1...places.count).map { byPlace[$0] ?? 0 }
        }
        let matches = form.numbered("match-").compactMap { prompt, answer in Int(answer).map { (prompt, $0) } }
        var gaps: [Int: GapFill.GapAnswer] = [:]
        for (gap, choice) in form.numbered("gapchoice-") { if let id = Int(choice) { gaps[gap] = .choice(id) } }
        for (gap, typed) in form.numbered("gaptext-") where !typed.isEmpty { gaps[gap] = .text(typed) }
        let sentGaps = !form.numbered("gapchoice-").isEmpty || !form.numbered("gaptext-").isEmpty
        return AnswerInput(choice: Int(form.text("choice")), choices: ids.isEmpty ? nil : ids,
                           value: ["true": true, "false": false][form.text("value")],
                           text: text.isEmpty ? nil : text, number: number.isEmpty ? nil : .typed(number),
                           order: order, matches: form.numbered("match-").isEmpty ? nil : Dictionary(matches) { first, _ in first },
                           gaps: sentGaps ? gaps : nil, read: form.text("read") == "1" ? true : nil)
    }

    /// `answer` in words as `question.display` has them, true and false in the page's language.
    static func given(_ question: Question, _ answer: Answer, t: Texts) -> String? {
        words(question.display(answer), of: answer, t: t)
    }

    /// What was right, in words, true and false in the page's language.
    static func correct(_ question: Question, t: Texts) -> String {
        if case .bool(let value) = question.correctAnswer { return value ? t("True") : t("False") }
        return question.correctAnswer.display
    }

    /// An answer's words (from `display`), the words of a true/false answer in the page's language.
    static func words(_ shown: String?, of answer: Answer, t: Texts) -> String? {
        if case .bool(let value) = answer { return value ? t("True") : t("False") }
        return shown
    }

    /// How a kept answer reads: its class ("right", "partly", "wrong", "counted") and credit.
    static func judged(_ question: Question, correct: Bool, given: GivenAnswer?) -> (verdictClass: String, credit: Credit) {
        let credit = given?.credit(correct: correct) ?? (correct ? .full : .none)
        if !question.kind.hasRightAnswer { return ("counted", .none) }
        return (credit.isFull ? "right" : credit.isNone ? "wrong" : "partly", credit)
    }

    /// "Partly right (67 %)", said the same way on every page.
    static func partly(_ credit: Credit, t: Texts) -> String {
        t("Partly right ({percent} %).", ["percent": t.number(credit.percent)])
    }

    static func noAnswer(_ t: Texts) -> String { t("Choose or type an answer before submitting.") }

    /// The form's message for an answer its question cannot take.
    static func message(_ problem: AnswerProblem, t: Texts) -> String {
        switch problem {
        case .notOneField, .empty, .tooLong, .tooManyChoices, .tooManyParts: noAnswer(t)  // not what the fields send: none of them was used
        case .notAnOrder: t("Give each item a place of its own.")
        case .outOfRange(let range):
            t("Choose a number from {minimum} to {maximum}.", ["minimum": NumberFormatting.plain(range.lowerBound), "maximum": NumberFormatting.plain(range.upperBound)])
        case .doesNotFit, .unknownChoice, .unknownPart: t("That answer does not fit this question.")
        }
    }
}
