import Foundation
import HTTPTypes
import Hummingbird
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

// A quiz's editor: its title, draft or published, and which of its topic's questions it holds.
extension WebController {
    func registerQuizManagement(on router: Router<AppRequestContext>) {
        router.get("/manage/quizzes/:id") { request, context in
            try await page(request) {
                try await quizPage($0, id: context.parameters.require("id", as: Int64.self), done: request.uri.queryParameters["done"].map(String.init))
            }
        }
        router.post("/manage/quizzes/:id/publish") { request, context in
            try await post(request, context) { try await publishQuiz($0, $1, id: context.parameters.require("id", as: Int64.self)) }
        }
        router.post("/manage/quizzes/:id/questions") { request, context in
            try await post(request, context) { try await changeQuizQuestions($0, $1, id: context.parameters.require("id", as: Int64.self)) }
        }
    }

    func quizPage(
        _ visit: Visit, id: Int64, done: String?, values: [String: String] = [:], errors: [String: String] = [:], failure: String? = nil
    ) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/quizzes/\(id)") != nil else { return try await needsAuthor(visit) }
        guard let managed = try await store.managedQuiz(id: id) else { throw HTTPError(.notFound) }
        let quiz = managed.quiz
        let inQuiz = Set(managed.questions.compactMap(\.id))
        let bank = try await store.topicQuestions(topicId: quiz.topicId) ?? []
        var context = base(visit, title: quiz.title, tab: "Manage", notice: Self.notice(done))
        context["id"] = quiz.id
        context["quizId"] = quiz.id
        context["topicId"] = quiz.topicId
        context["topicName"] = try await store.outline().lazy.flatMap(\.topics).first { $0.id == quiz.topicId }?.name ?? "Topic"
        context["title"] = values["title"] ?? quiz.title
        context["description"] = values["description"] ?? quiz.description
        if let error = errors["title"] { context["titleError"] = error }
        if let error = errors["description"] { context["descriptionError"] = error }
        if let failure { context["failure"] = failure }
        context["draft"] = !quiz.isPublished
        context["questions"] = managed.questions.enumerated().map { index, question -> [String: Any] in
            ["id": question.id ?? 0, "position": index + 1, "text": question.text, "kind": Self.kindLabel(question.kind),
             "canUp": index > 0, "canDown": index < managed.questions.count - 1,
             "hasChoices": !question.body.choices.isEmpty,
             "choices": question.body.choices.map { ["text": $0.text, "correct": $0.isCorrect] as [String: Any] },
             "correctAnswer": Components.Schemas.CorrectAnswer(question.correctAnswer).display,
             "points": Self.count(question.points, "point")]
        }
        context["hasQuestions"] = !managed.questions.isEmpty
        let available = bank.filter { !inQuiz.contains($0.id ?? 0) }
        context["hasAvailable"] = !available.isEmpty
        context["available"] = available.map { ["id": $0.id ?? 0, "text": $0.text, "kind": Self.kindLabel($0.kind)] as [String: Any] }
        let failed = !errors.isEmpty || failure != nil
        return renderer.render("manage-quiz", context, status: failed ? (failure != nil ? .conflict : .unprocessableContent) : .ok)
    }

    func publishQuiz(_ visit: Visit, _ form: WebForm, id: Int64) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/quizzes/\(id)") != nil else { return try await needsAuthor(visit) }
        let publish = form["published"] == "true"
        do {
            try await store.setPublished(publish, quizId: id)
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        }
        return PageRenderer.redirect(to: "/manage/quizzes/\(id)?done=\(publish ? "published" : "unpublished")")
    }

    /// One change to the quiz's list: add a question of its topic, remove one, or move one up or down.
    func changeQuizQuestions(_ visit: Visit, _ form: WebForm, id: Int64) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/quizzes/\(id)") != nil else { return try await needsAuthor(visit) }
        guard let managed = try await store.managedQuiz(id: id) else { throw HTTPError(.notFound) }
        guard let questionId = form["question"].flatMap(Int64.init) else { throw HTTPError(.badRequest, message: "Which question?") }
        var ids = managed.questions.compactMap(\.id)
        let index = ids.firstIndex(of: questionId)
        switch (form["op"], index) {
        case ("add"?, nil): ids.append(questionId)
        case ("remove"?, let index?): ids.remove(at: index)
        case ("up"?, let index?) where index > 0: ids.swapAt(index, index - 1)
        case ("down"?, let index?) where index < ids.count - 1: ids.swapAt(index, index + 1)
        default: return PageRenderer.redirect(to: "/manage/quizzes/\(id)")
        }
        do {
            try await store.setQuizQuestions(quizId: id, questionIds: ids)
        } catch let error as AuthoringError {
            return try await quizPage(visit, id: id, done: nil, failure: APIError(authoring: error).message)
        }
        return PageRenderer.redirect(to: "/manage/quizzes/\(id)?done=saved")
    }
}
