import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizMath
import QuizFormats
import QuizStore
import QuizText
import QuizUseCases

/// The question form (`QuestionAuthoring`): one page for every kind. Without script every kind's
/// fields are shown; the chosen kind decides which are read.
struct ManageQuestionPages: Sendable {
    let pages: Pages
    let questions: QuestionAuthoring
    let catalog: CatalogAuthoring

    func register(authors: some RouterMethods<AuthorContext>) {
        authors.get("/manage/questions/new") { request, context in
            let query = request.uri.queryParameters
            return try await questionForm(context, questionId: nil, topicId: query["topic"].flatMap { Int64(String($0)) },
                                          quizId: query["quiz"].flatMap { Int64(String($0)) })
        }
        authors.post("/manage/questions", policy: .body(.questionPage), in: pages.routes) { _, context in try await saveQuestion(context, questionId: nil) }
        authors.get("/manage/questions/:id") { request, context in
            try await questionForm(context, questionId: context.pathID("id"), topicId: nil,
                                   quizId: request.uri.queryParameters["quiz"].flatMap { Int64(String($0)) })
        }
        authors.post("/manage/questions/:id", policy: .body(.questionPage), in: pages.routes) { _, context in
            try await saveQuestion(context, questionId: context.pathID("id"))
        }
        authors.post("/manage/questions/:id/delete") { _, context in
            try await deleteQuestion(context, id: context.pathID("id"))
        }
    }

    // MARK: Models

    struct Option: Encodable {
        var value: String
        var label: String?
        var selected: Bool
    }

    struct ChoiceRow: Encodable {
        var index: Int
        var number: Int
        var text: String
        var correct: Bool
        /// Partial credit in percent, empty for the plain rule.
        var fraction: String
    }

    /// The message next to each field that has one.
    struct FieldErrors: Encodable {
        var kind, text, explanation, points, choices, answer, answers, value, tolerance, unit, items, timeLimitSeconds: String?
        var picture, pictureAlt, answerSeconds, units, sound, soundDescription: String?
        var order, pairs, extras, pollChoices, minimum, maximum, step, margin, estimateValue, estimateUnit, cloze: String?

        init(_ errors: [String: String]) {
            kind = errors["kind"]
            text = errors["text"]
            explanation = errors["explanation"]
            points = errors["points"]
            choices = errors["choices"]
            answer = errors["answer"]
            answers = errors["answers"]
            value = errors["value"]
            tolerance = errors["tolerance"]
            unit = errors["unit"]
            items = errors["items"]
            timeLimitSeconds = errors["timeLimitSeconds"]
            picture = errors["picture"]
            pictureAlt = errors["pictureAlt"]
            sound = errors["sound"]
            soundDescription = errors["soundDescription"]
            answerSeconds = errors["answerSeconds"]
            units = errors["units"]
            order = errors["order"]
            pairs = errors["pairs"]
            extras = errors["extras"]
            pollChoices = errors["pollChoices"]
            minimum = errors["minimum"]
            maximum = errors["maximum"]
            step = errors["step"]
            margin = errors["margin"]
            estimateValue = errors["estimateValue"]
            estimateUnit = errors["estimateUnit"]
            cloze = errors["cloze"]
        }

        /// The domain names a field by what it is ("items", "value"); kinds that share a name with
        /// another kind's field have fields of their own on the form.
        static func keys(_ errors: [String: String], for kind: QuestionKind) -> [String: String] {
            var renamed: [String: String] = switch kind {
            case .typedAnswer: ["partial": "answers"]
            case .ordering: ["items": "order"]
            case .poll: ["choices": "pollChoices"]
            case .estimate: ["value": "estimateValue", "unit": "estimateUnit"]
            case .gapFill: ["passage": "cloze", "gaps": "cloze"]
            default: [:]
            }
            // Name-them-all's time limit has its own field; every other kind's seconds another.
            if kind != .nameAll { renamed["timeLimitSeconds"] = "answerSeconds" }
            return Dictionary(errors.map { (renamed[$0.key] ?? $0.key, $0.value) }) { first, second in "\(first) \(second)" }
        }
    }

    /// The question as players will see it, maths and all, with the TeX shown as written.
    struct Preview: Encodable {
        struct Line: Encodable { var html: String }
        var text: String
        var lines: [Line]
        var explanation: String?
        var warnings: [Line]

        /// Nil when there is nothing worth previewing: no maths and no preview asked for.
        init?(_ draft: QuestionDraft, asked: Bool, t: Texts) {
            let choices = draft.kind == .poll || draft.kind == .singleChoice || draft.kind == .multipleChoice ? draft.choices.map(\.text) : []
            let parts = choices + draft.order + draft.pairs.flatMap { [$0.prompt, $0.answer] } + draft.answers
            let all = [draft.text, draft.explanation ?? "", draft.passage] + parts
            guard asked || all.contains(where: MathText.mayHoldMath) else { return nil }
            text = RichText.html(draft.text)
            lines = parts.filter { !$0.isEmpty }.map { Line(html: RichText.html($0)) }
            explanation = draft.explanation.flatMap { $0.isEmpty ? nil : RichText.html($0) }
            warnings = all.flatMap(MathText.pieces).compactMap { piece in
                guard case .math(let tex, let display, let source) = piece, (try? MathText.mathML(tex, display: display)) == nil else { return nil }
                return Line(html: MathText.escape(t("{tex} is shown as written, not as maths: Quizbox does not know all of its TeX.", ["tex": source])))
            }
        }
    }

    /// A link in the trail above the form: subject, topic, quiz.
    struct Crumb: Encodable {
        var name: String
        var url: String
    }

    struct QuestionFormPage: Encodable {
        var isNew: Bool
        var crumbs: [Crumb]
        var maxChoices: Int
        var action: String
        var questionId: Int64
        var topicId: Int64
        var quizId: Int64?
        var back: String
        var kinds: [Option]
        var difficulties: [Option]
        var text: String
        var explanation: String
        var points: String
        var choiceRows: [ChoiceRow]
        var tfTrue: Bool
        var tfFalse: Bool
        var answers: String
        var value: String
        var tolerance: String
        var unit: String
        var units: String
        var items: String
        var timeLimit: String
        var answerSeconds: String
        var typoTolerance: Bool
        var order: String
        var pairs: String
        var extras: String
        var pollChoices: String
        var minimum: String
        var maximum: String
        var step: String
        var margin: String
        var estimateValue: String
        var estimateUnit: String
        /// A gap fill in Moodle's cloze syntax.
        var cloze: String
        /// The stored question's picture, shown above its alt text and the remove box.
        var picture: PictureModel?
        var pictureAlt: String
        var removePicture: Bool
        /// The stored question's clip, with a player, above its description and the remove box.
        var sound: SoundModel?
        var soundDescription: String
        var removeSound: Bool
        var errors: FieldErrors
        var feedback: String?
        var preview: Preview?
    }

    /// A picture as `question-picture` shows it.
    struct PictureModel: Encodable {
        var url: String
        var alt: String
        var width: Int
        var height: Int

        init(_ picture: QuestionPicture) {
            url = picture.url
            alt = picture.alt
            width = picture.width
            height = picture.height
        }
    }

    /// A clip as the form and the play pages show it: a player that never starts by itself.
    struct SoundModel: Encodable {
        var url: String
        var mimeType: String
        var description: String
        var duration: String

        init(_ audio: QuestionAudio) {
            url = audio.url
            mimeType = audio.type.mimeType
            description = audio.description
            duration = audio.duration
        }
    }

    /// A form as sent: the draft read from it, what was typed into its number fields, and what
    /// could not even be read (a number that is not one), by field.
    struct SentForm {
        var draft = QuestionDraft()
        var raw: [String: String] = [:]
        var errors: [String: String] = [:]
    }

    // MARK: Pages

    private func refusing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch QuestionAuthoring.Failure.notAuthor {
            throw PageRefusal.needsAuthor
        } catch QuestionAuthoring.Failure.topicNotFound, QuestionAuthoring.Failure.questionNotFound {
            throw HTTPError(.notFound)
        }
    }

    /// Rows of choice inputs: room for two more than there are, at least four, at most ten.
    static func choiceRows(_ choices: [QuestionDraft.ChoiceDraft]) -> [ChoiceRow] {
        let count = min(max(choices.count + 2, 4), Question.choiceCountRange.upperBound)
        return (0..<count).map { index in
            let choice = index < choices.count ? choices[index] : nil
            return ChoiceRow(index: index, number: index + 1, text: choice?.text ?? "", correct: choice?.correct ?? false,
                             fraction: choice?.fraction.map { NumberFormatting.plain(($0 * 100_000).rounded() / 1000) } ?? "")
        }
    }

    /// A new question for `topicId`, a stored one, or `sent` shown again with its messages.
    func questionForm(_ context: AuthorContext, questionId: Int64?, topicId: Int64?, quizId: Int64?,
                      sent: SentForm? = nil, previewing: Bool = false) async throws -> Response {
        let t = context.visit.t
        var draft = sent?.draft ?? QuestionDraft()
        let topic: Int64
        var storedPicture: QuestionPicture?
        var storedSound: QuestionAudio?
        if let questionId {
            let stored = try await refusing { try await questions.question(questionId, by: context.user) }
            topic = stored.topicId
            storedPicture = stored.question.picture
            storedSound = stored.question.audio
            if sent == nil { draft = QuestionDraft(stored.question) }
        } else {
            guard let topicId else { throw HTTPError(.notFound) }
            _ = try await refusing { try await questions.bank(ofTopic: topicId, by: context.user) }
            topic = topicId
        }
        let raw = sent?.raw ?? [:]
        var errors = sent?.errors ?? [:]
        if case .replace = sent?.draft.picture, !errors.isEmpty, errors["picture"] == nil {
            // A browser cannot be handed a file back.
            errors["picture"] = t("Choose the picture again: nothing was saved, and a page cannot keep a file between tries.")
        }
        if case .replace = sent?.draft.sound, !errors.isEmpty, errors["sound"] == nil {
            errors["sound"] = t("Choose the sound clip again: nothing was saved, and a page cannot keep a file between tries.")
        }
        let model = QuestionFormPage(
            isNew: questionId == nil, crumbs: try await crumbs(topic: topic, quiz: quizId, user: context.user, t: t),
            maxChoices: Question.choiceCountRange.upperBound, action: questionId.map { "/manage/questions/\($0)" } ?? "/manage/questions",
            questionId: questionId ?? 0, topicId: topic, quizId: quizId,
            back: quizId.map { "/manage/quizzes/\($0)" } ?? "/manage/topics/\(topic)",
            // A new question for a quiz cannot be a name-them-all one: those are played from Games.
            kinds: QuestionKind.allCases.filter { questionId != nil || quizId == nil || $0 != .nameAll }
                .map { Option(value: $0.rawValue, label: ManageText.kindLabel($0, t), selected: $0 == draft.kind) },
            difficulties: Difficulty.allCases.map { Option(value: $0.rawValue, label: QuestionFragments.difficultyName($0, t), selected: $0 == draft.difficulty) },
            text: draft.text, explanation: draft.explanation ?? "", points: raw["points"] ?? String(draft.points),
            choiceRows: Self.choiceRows(draft.kind == .poll ? [] : draft.choices), tfTrue: draft.answer == true, tfFalse: draft.answer == false,
            answers: (draft.answers + draft.partial.map { "\($0.text) | \(NumberFormatting.plain($0.fraction.value * 100))%" })
                .joined(separator: "\n"),
            value: raw["value"] ?? draft.value.map { NumberFormatting.plain($0) } ?? "",
            tolerance: raw["tolerance"] ?? draft.tolerance.map { NumberFormatting.plain($0) } ?? "",
            unit: draft.unit ?? "",
            units: raw["units"] ?? draft.units.map { "\($0.name) = \(NumberFormatting.plain($0.multiplier))" }.joined(separator: "\n"),
            items: draft.items.map { ([$0.answer] + $0.alternates).joined(separator: " | ") }.joined(separator: "\n"),
            timeLimit: raw["time_limit"] ?? String(draft.kind == .nameAll ? draft.timeLimitSeconds ?? 300 : 300),
            answerSeconds: raw["answer_seconds"] ?? (draft.kind == .nameAll ? nil : draft.timeLimitSeconds.map(String.init)) ?? "",
            typoTolerance: draft.typoTolerance,
            order: draft.order.joined(separator: "\n"),
            pairs: draft.pairs.map { "\($0.prompt) -> \($0.answer)" }.joined(separator: "\n"),
            extras: draft.extras.joined(separator: "\n"),
            pollChoices: draft.kind == .poll ? draft.choices.map(\.text).joined(separator: "\n") : "",
            minimum: raw["estimate_min"] ?? draft.minimum.map { NumberFormatting.plain($0) } ?? "",
            maximum: raw["estimate_max"] ?? draft.maximum.map { NumberFormatting.plain($0) } ?? "",
            step: raw["estimate_step"] ?? draft.step.map { NumberFormatting.plain($0) } ?? "1",
            margin: raw["estimate_margin"] ?? draft.margin.map { NumberFormatting.plain($0) } ?? "0",
            estimateValue: raw["estimate_value"] ?? (draft.kind == .estimate ? draft.value.map { NumberFormatting.plain($0) } : nil) ?? "",
            estimateUnit: draft.kind == .estimate ? draft.unit ?? "" : "",
            cloze: raw["cloze"] ?? (draft.kind == .gapFill && !draft.gaps.isEmpty
                ? MoodleCloze.write(GapFill(text: draft.passage, gaps: draft.gaps)) : ""),
            picture: storedPicture.map(PictureModel.init), pictureAlt: draft.pictureAlt ?? "", removePicture: draft.picture == .remove,
            sound: storedSound.map(SoundModel.init), soundDescription: draft.soundDescription ?? "", removeSound: draft.sound == .remove,
            errors: FieldErrors(FieldErrors.keys(errors, for: draft.kind)),
            feedback: errors.isEmpty ? nil : t("Please fix the marked fields; nothing was saved."),
            preview: Preview(draft, asked: previewing, t: t))
        return pages.render("manage-question", model, visit: context.visit, title: questionId == nil ? t("New question") : t("Edit question"),
                            tab: "Manage", status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    /// Where the form sits: its subject, topic and, when opened from one, quiz, each a link.
    func crumbs(topic topicId: Int64, quiz quizId: Int64?, user: User, t: Texts) async throws -> [Crumb] {
        let outline = try await catalog.outline(by: user)
        guard let subject = outline.first(where: { $0.topics.contains { $0.id == topicId } }),
              let topic = subject.topics.first(where: { $0.id == topicId }) else { return [] }
        var trail = [Crumb(name: t("Subjects, topics and quizzes"), url: "/manage/catalog"),
                     Crumb(name: subject.name, url: "/manage/subjects/\(subject.id)"),
                     Crumb(name: topic.name, url: "/manage/topics/\(topic.id)")]
        if let quiz = topic.quizzes.first(where: { $0.id == quizId }) {
            trail.append(Crumb(name: quiz.title, url: "/manage/quizzes/\(quiz.id)"))
        }
        return trail
    }

    /// Reads the form into a draft, with what could not even be read.
    static func read(_ form: WebForm, t: Texts) -> SentForm {
        var sent = SentForm()
        if let kind = QuestionKind(rawValue: form.text("kind")) { sent.draft.kind = kind } else { sent.errors["kind"] = t("Choose a kind.") }
        sent.draft.text = form.text("text")
        sent.draft.explanation = form.text("explanation")
        sent.draft.difficulty = Difficulty(rawValue: form.text("difficulty")) ?? .medium
        func number<T: LosslessStringConvertible>(_ name: String, as type: T.Type, field: String? = nil, message: String) -> T? {
            let text = form.text(name)
            if text.isEmpty { return nil }
            sent.raw[name] = text
            guard let value = T(text.replacingOccurrences(of: ",", with: ".")) else { sent.errors[field ?? name] = message; return nil }
            return value
        }
        let points = number("points", as: Int.self, message: t("Points must be a whole number."))
        sent.draft.points = points ?? (sent.errors["points"] == nil ? Question.defaultPoints : 0)
        let texts = form.all("choice_text")
        let correct = Set(form.all("choice_correct"))
        let fractions = form.all("choice_fraction")
        sent.draft.choices = texts.enumerated().map { index, text in
            // Credit in percent, as Moodle and GIFT write it; empty for the plain rule.
            let typed = index < fractions.count ? fractions[index].trimmingCharacters(in: .whitespaces) : ""
            var fraction: Double?
            if !typed.isEmpty {
                if let percent = Double(typed.replacingOccurrences(of: ",", with: ".").replacingOccurrences(of: "%", with: "")), percent.isFinite {
                    fraction = percent / 100
                } else {
                    sent.errors["choices"] = t("A choice's credit is a percentage from -100 to 100, such as 50.")
                }
            }
            return QuestionDraft.ChoiceDraft(text: text.trimmingCharacters(in: .whitespaces), correct: correct.contains(String(index)), fraction: fraction)
        }
        // Empty rows are room to type, not choices.
        sent.draft.choices.removeAll { $0.text.isEmpty && !$0.correct }
        sent.draft.answer = ["true": true, "false": false][form.text("tf_answer")]
        // "Lutetia | 50%": an answer worth part of the points.
        for line in lines(form["answers"] ?? "") {
            if let bar = line.lastIndex(of: "|"), case let share = line[line.index(after: bar)...].trimmingCharacters(in: .whitespaces),
               share.hasSuffix("%"), let percent = Double(share.dropLast().trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")) {
                let text = line[..<bar].trimmingCharacters(in: .whitespaces)
                guard let fraction = Fraction(percent / 100) else {
                    sent.errors["answers"] = t("A share of the points is a percentage from 0 to 100.")
                    continue
                }
                sent.draft.partial.append(Alternative(text, fraction: fraction))
            } else {
                sent.draft.answers.append(line)
            }
        }
        sent.draft.value = number("value", as: Double.self, message: t("The answer must be a number, such as 42 or 3.14."))
        sent.draft.tolerance = number("tolerance", as: Double.self, message: t("The tolerance must be a number."))
        sent.draft.unit = form.text("unit")
        // "kg/ha = 1000": another unit, and how many of it one of the value's unit is.
        if !form.text("units").isEmpty { sent.raw["units"] = form["units"] ?? "" }
        sent.draft.units = lines(form["units"] ?? "").compactMap { line in
            guard let equals = line.lastIndex(of: "="),
                  let multiplier = Double(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "."))
            else {
                sent.errors["units"] = t("Write each unit as its name, = and how many of it make one of the value's unit: kg/ha = 1000")
                return nil
            }
            return NumericUnit(name: line[..<equals].trimmingCharacters(in: .whitespaces), multiplier: multiplier)
        }
        sent.draft.items = lines(form["items"] ?? "").map { line in
            let spellings = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return NameAllItem(answer: spellings.first ?? "", alternates: Array(spellings.dropFirst()))
        }
        sent.draft.timeLimitSeconds = sent.draft.kind == .nameAll
            ? number("time_limit", as: Int.self, field: "timeLimitSeconds", message: t("The time limit must be a whole number of seconds."))
            : number("answer_seconds", as: Int.self, field: "answerSeconds", message: t("The time limit must be a whole number of seconds."))
        sent.draft.typoTolerance = form["typo_tolerance"] != nil
        sent.draft.order = lines(form["order"] ?? "")
        // "prompt -> answer", as GIFT writes a pair; a line without the arrow is a prompt with no answer.
        sent.draft.pairs = lines(form["pairs"] ?? "").map { line in
            guard let arrow = line.range(of: "->") else { return Matching.Pair(prompt: line, answer: "") }
            return Matching.Pair(prompt: line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces),
                                 answer: line[arrow.upperBound...].trimmingCharacters(in: .whitespaces))
        }
        sent.draft.extras = lines(form["extras"] ?? "")
        if sent.draft.kind == .poll {
            sent.draft.choices = lines(form["poll_choices"] ?? "").map { QuestionDraft.ChoiceDraft(text: $0, correct: false) }
        }
        if sent.draft.kind == .gapFill {
            let cloze = (form["cloze"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            sent.raw["cloze"] = cloze
            do {
                let parsed = try MoodleCloze.parse(cloze)
                sent.draft.passage = parsed.gapFill.text
                sent.draft.gaps = parsed.gapFill.gaps
            } catch {
                sent.errors["cloze"] = error.messages.map { t($0).capitalizedFirst }.joined(separator: " ")
            }
        }
        if sent.draft.kind == .estimate {
            let message = t("Each of these is a number, such as 1969 or 2.5.")
            sent.draft.minimum = number("estimate_min", as: Double.self, field: "minimum", message: message)
            sent.draft.maximum = number("estimate_max", as: Double.self, field: "maximum", message: message)
            sent.draft.step = number("estimate_step", as: Double.self, field: "step", message: message)
            sent.draft.margin = number("estimate_margin", as: Double.self, field: "margin", message: message)
            sent.draft.value = number("estimate_value", as: Double.self, field: "estimateValue", message: message)
            sent.draft.unit = form.text("estimate_unit")
        }
        // An empty file field is no new picture; removing wins over a new one sent with it.
        if form["remove_picture"] != nil {
            sent.draft.picture = .remove
        } else if let upload = form.files["picture"]?.data, !upload.isEmpty {
            sent.draft.picture = .replace(upload)
        }
        sent.draft.pictureAlt = form["picture_alt"]
        if form["remove_sound"] != nil {
            sent.draft.sound = .remove
        } else if let upload = form.files["sound"]?.data, !upload.isEmpty {
            sent.draft.sound = .replace(upload)
        }
        sent.draft.soundDescription = form["sound_description"]
        return sent
    }

    static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func saveQuestion(_ context: AuthorContext, questionId: Int64?) async throws -> Response {
        let topicId = context.form["topic"].flatMap(Int64.init)
        let quizId = context.form["quiz"].flatMap(Int64.init)
        let t = context.visit.t
        var sent = Self.read(context.form, t: t)
        // "Preview": the form again with the question as players will see it; nothing is saved.
        if context.form["preview"] != nil {
            return try await questionForm(context, questionId: questionId, topicId: topicId, quizId: quizId, sent: sent, previewing: true)
        }
        func redisplay(_ errors: [String: String]) async throws -> Response {
            sent.errors.merge(FieldErrors.keys(errors, for: sent.draft.kind)) { kept, _ in kept }
            return try await questionForm(context, questionId: questionId, topicId: topicId, quizId: quizId, sent: sent)
        }
        // What could not be read is shown with every rule the rest breaks, before anything is stored.
        if !sent.errors.isEmpty, case .failure(let problems) = sent.draft.question(id: questionId) {
            return try await redisplay(ManageText.fieldErrors(problems.errors, t))
        }
        if !sent.errors.isEmpty { return try await redisplay([:]) }
        let stored: QuestionAuthoring.Stored
        do {
            stored = try await refusing {
                if let questionId { return try await questions.update(questionId, to: sent.draft, by: context.user) }
                guard let topicId else { throw QuestionAuthoring.Failure.topicNotFound }
                return try await questions.create(sent.draft, inTopic: topicId, appendingTo: quizId, by: context.user)
            }
        } catch QuestionAuthoring.Failure.invalid(let errors) {
            return try await redisplay(ManageText.fieldErrors(errors, t))
        } catch let failure as QuestionAuthoring.Failure where failure == .kindLocked || failure == .nameAllInQuiz {
            return try await redisplay(["kind": t(failure.message)])
        } catch QuestionAuthoring.Failure.tooManyPictures {
            return try await redisplay(["picture": t(QuestionAuthoring.Failure.tooManyPictures.message)])
        } catch QuestionAuthoring.Failure.tooManySounds {
            return try await redisplay(["sound": t(QuestionAuthoring.Failure.tooManySounds.message)])
        }
        let done = questionId == nil ? "created" : "saved"
        return PageRenderer.redirect(to: quizId.map { "/manage/quizzes/\($0)?done=\(done)" } ?? "/manage/topics/\(stored.topicId)?done=\(done)")
    }

    func deleteQuestion(_ context: AuthorContext, id: Int64) async throws -> Response {
        let topicId = try await refusing { try await questions.delete(id, by: context.user) }
        let quizId = context.form["quiz"].flatMap(Int64.init)
        return PageRenderer.redirect(to: quizId.map { "/manage/quizzes/\($0)?done=deleted" } ?? "/manage/topics/\(topicId)?done=deleted")
    }
}
