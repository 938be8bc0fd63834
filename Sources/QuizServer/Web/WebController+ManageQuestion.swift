import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizStore
import QuizUseCases

// The question form: one page for every kind. Without script every kind's fields are shown;
// the chosen kind decides which are read.
extension WebController {
    func registerQuestionManagement(on router: Router<AppRequestContext>) {
        router.get("/manage/questions/new") { request, _ in
            try await page(request) {
                try await questionForm($0, questionId: nil, topicId: request.uri.queryParameters["topic"].flatMap { Int64(String($0)) },
                                       quizId: request.uri.queryParameters["quiz"].flatMap { Int64(String($0)) })
            }
        }
        router.post("/manage/questions") { request, context in try await post(request, context) { try await saveQuestion($0, $1, questionId: nil) } }
        router.get("/manage/questions/:id") { request, context in
            try await page(request) {
                try await questionForm($0, questionId: context.parameters.require("id", as: Int64.self), topicId: nil,
                                       quizId: request.uri.queryParameters["quiz"].flatMap { Int64(String($0)) })
            }
        }
        router.post("/manage/questions/:id") { request, context in
            try await post(request, context) { try await saveQuestion($0, $1, questionId: context.parameters.require("id", as: Int64.self)) }
        }
        router.post("/manage/questions/:id/delete") { request, context in
            try await post(request, context) { try await deleteQuestion($0, $1, id: context.parameters.require("id", as: Int64.self)) }
        }
    }

    /// Rows of choice inputs: room for two more than there are, at least four, at most ten.
    static func choiceRows(_ choices: [QuestionDraft.ChoiceDraft]) -> [[String: Any]] {
        let count = min(max(choices.count + 2, 4), Question.choiceCountRange.upperBound)
        return (0..<count).map { index in
            let choice = index < choices.count ? choices[index] : nil
            return ["index": index, "number": index + 1, "text": choice?.text ?? "", "correct": choice?.correct ?? false]
        }
    }

    func questionForm(
        _ visit: Visit, questionId: Int64?, topicId: Int64?, quizId: Int64?,
        draft given: QuestionDraft? = nil, raw: [String: String] = [:], errors: [String: String] = [:]
    ) async throws -> Response {
        let path = questionId.map { "/manage/questions/\($0)" } ?? "/manage/questions/new"
        guard try await requireAuthor(visit, returnTo: path) != nil else { return try await needsAuthor(visit) }
        var draft = given ?? QuestionDraft()
        var topic = topicId
        if let questionId {
            guard let (storedTopic, question) = try await store.managedQuestion(id: questionId) else { throw HTTPError(.notFound) }
            topic = storedTopic
            if given == nil { draft = QuestionDraft(question) }
        }
        guard let topic, try await store.topicQuestions(topicId: topic) != nil else { throw HTTPError(.notFound) }
        var context = base(visit, title: questionId == nil ? "New question" : "Edit question", tab: "Manage")
        context["isNew"] = questionId == nil
        context["action"] = questionId.map { "/manage/questions/\($0)" } ?? "/manage/questions"
        context["questionId"] = questionId ?? 0
        context["topicId"] = topic
        if let quizId { context["quizId"] = quizId }
        context["back"] = quizId.map { "/manage/quizzes/\($0)" } ?? "/manage/topics/\(topic)"
        context["kinds"] = QuestionKind.allCases.map { ["value": $0.rawValue, "label": Self.kindLabel($0), "selected": $0 == draft.kind] as [String: Any] }
        context["difficulties"] = Difficulty.allCases.map { ["value": $0.rawValue, "selected": $0 == draft.difficulty] as [String: Any] }
        context["text"] = draft.text
        context["explanation"] = draft.explanation ?? ""
        context["points"] = raw["points"] ?? String(draft.points)
        context["choiceRows"] = Self.choiceRows(draft.choices)
        context["tfTrue"] = draft.answer == true
        context["tfFalse"] = draft.answer == false
        context["answers"] = draft.answers.joined(separator: "\n")
        context["value"] = raw["value"] ?? draft.value.map { NumberFormatting.plain($0) } ?? ""
        context["tolerance"] = raw["tolerance"] ?? draft.tolerance.map { NumberFormatting.plain($0) } ?? ""
        context["unit"] = draft.unit ?? ""
        context["items"] = draft.items.map { ([$0.answer] + $0.alternates).joined(separator: " | ") }.joined(separator: "\n")
        context["timeLimit"] = raw["time_limit"] ?? String(draft.timeLimitSeconds ?? 300)
        context["typoTolerance"] = draft.typoTolerance
        for (field, message) in errors { context["error_" + field] = message }
        if !errors.isEmpty { context["feedback"] = "Please fix the marked fields; nothing was saved." }
        return renderer.render("manage-question", context, status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    /// Reads the form into a draft, with what could not even be read (a number that is not one).
    static func draft(from form: WebForm) -> (QuestionDraft, [String: String], [String: String]) {
        var draft = QuestionDraft()
        var problems: [String: String] = [:]
        var raw: [String: String] = [:]
        if let kind = QuestionKind(rawValue: form.text("kind")) { draft.kind = kind } else { problems["kind"] = "Choose a kind." }
        draft.text = form.text("text")
        draft.explanation = form.text("explanation")
        draft.difficulty = Difficulty(rawValue: form.text("difficulty")) ?? .medium
        func number<T: LosslessStringConvertible>(_ name: String, as type: T.Type, message: String) -> T? {
            let text = form.text(name)
            if text.isEmpty { return nil }
            raw[name] = text
            guard let value = T(text.replacingOccurrences(of: ",", with: ".")) else { problems[name] = message; return nil }
            return value
        }
        draft.points = number("points", as: Int.self, message: "Points must be a whole number.") ?? (problems["points"] == nil ? Question.defaultPoints : 0)
        let texts = form.all("choice_text")
        let correct = Set(form.all("choice_correct"))
        draft.choices = texts.enumerated().map { QuestionDraft.ChoiceDraft(text: $0.element.trimmingCharacters(in: .whitespaces), correct: correct.contains(String($0.offset))) }
        // Empty rows are room to type, not choices.
        draft.choices.removeAll { $0.text.isEmpty && !$0.correct }
        draft.answer = ["true": true, "false": false][form.text("tf_answer")]
        draft.answers = Self.lines(form["answers"] ?? "")
        draft.value = number("value", as: Double.self, message: "The answer must be a number, such as 42 or 3.14.")
        draft.tolerance = number("tolerance", as: Double.self, message: "The tolerance must be a number.")
        draft.unit = form.text("unit")
        draft.items = Self.lines(form["items"] ?? "").map { line in
            let spellings = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return NameAllItem(answer: spellings.first ?? "", alternates: Array(spellings.dropFirst()))
        }
        draft.timeLimitSeconds = number("time_limit", as: Int.self, message: "The time limit must be a whole number of seconds.")
        draft.typoTolerance = form["typo_tolerance"] != nil
        return (draft, raw, problems)
    }

    static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func saveQuestion(_ visit: Visit, _ form: WebForm, questionId: Int64?) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/catalog") != nil else { return try await needsAuthor(visit) }
        let topicId = form["topic"].flatMap(Int64.init)
        let quizId = form["quiz"].flatMap(Int64.init)
        let (draft, raw, unreadable) = Self.draft(from: form)
        var errors = unreadable
        var question: Question?
        if case .failure(let problems) = draft.question(id: questionId) {
            errors.merge(Self.fieldErrors(problems.errors)) { kept, _ in kept }
        } else if case .success(let valid) = draft.question(id: questionId) {
            question = valid
        }
        let redisplay: ([String: String]) async throws -> Response = { errors in
            try await questionForm(visit, questionId: questionId, topicId: topicId, quizId: quizId, draft: draft, raw: raw, errors: errors)
        }
        guard errors.isEmpty, let question else { return try await redisplay(errors) }
        let topic: Int64
        do {
            if let questionId {
                try await store.updateQuestion(question)
                topic = try await store.managedQuestion(id: questionId)?.topicId ?? 0
            } else {
                guard let topicId else { throw HTTPError(.notFound) }
                _ = try await store.createQuestion(question, topicId: topicId, appendingTo: quizId, at: time.now())
                topic = topicId
            }
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        } catch AuthoringError.kindLocked {
            return try await redisplay(["kind": APIError(authoring: .kindLocked).message])
        }
        let done = questionId == nil ? "created" : "saved"
        return PageRenderer.redirect(to: quizId.map { "/manage/quizzes/\($0)?done=\(done)" } ?? "/manage/topics/\(topic)?done=\(done)")
    }

    func deleteQuestion(_ visit: Visit, _ form: WebForm, id: Int64) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/catalog") != nil else { return try await needsAuthor(visit) }
        guard let (topicId, _) = try await store.managedQuestion(id: id) else { throw HTTPError(.notFound) }
        try await store.deleteQuestion(id: id, at: time.now())
        let quizId = form["quiz"].flatMap(Int64.init)
        return PageRenderer.redirect(to: quizId.map { "/manage/quizzes/\($0)?done=deleted" } ?? "/manage/topics/\(topicId)?done=deleted")
    }
}
