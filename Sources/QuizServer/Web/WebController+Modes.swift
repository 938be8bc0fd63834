import Foundation
import Hummingbird
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

/// Practice with settings, a random or chosen question on its own, and the "name them all" game.
extension WebController {
    func registerModes(on router: Router<AppRequestContext>) {
        router.get("/practice") { request, _ in try await page(request) { try await practicePage($0) } }
        router.post("/practice") { request, context in try await post(request, context) { try await startPractice($0, $1) } }
        router.post("/practice/reset") { request, context in try await post(request, context) { visit, _ in try await resetPractice(visit) } }
        router.get("/random") { request, _ in try await page(request) { try await randomPage($0, notice: nil) } }
        router.get("/random/question") { request, _ in
            try await page(request) {
                try await randomQuestion($0, subject: request.uri.queryParameters["subject"].flatMap { Int64($0) },
                                         topic: request.uri.queryParameters["topic"].flatMap { Int64($0) })
            }
        }
        router.get("/questions/:id") { request, context in
            try await page(request) { try await singleQuestion($0, id: context.parameters.require("id", as: Int64.self)) }
        }
        router.post("/questions/:id") { request, context in
            try await post(request, context) { try await answerSingle($0, $1, id: context.parameters.require("id", as: Int64.self)) }
        }
        router.get("/questions/:id/answers/:answer") { request, context in
            try await page(request) {
                try await singleAnswer($0, id: context.parameters.require("id", as: Int64.self),
                                       answerId: context.parameters.require("answer", as: Int64.self))
            }
        }
        router.get("/games") { request, _ in try await page(request) { try await gamesPage($0) } }
        router.post("/games") { request, context in try await post(request, context) { try await startGame($0, $1) } }
        router.get("/games/:id") { request, context in
            try await page(request) {
                try await gamePage($0, id: context.parameters.require("id", as: Int64.self),
                                   verdict: request.uri.queryParameters["verdict"].map(String.init))
            }
        }
        router.post("/games/:id/guesses") { request, context in
            try await post(request, context) { try await guess($0, $1, id: context.parameters.require("id", as: Int64.self)) }
        }
        router.post("/games/:id/give-up") { request, context in
            try await post(request, context) { visit, _ in try await giveUp(visit, id: context.parameters.require("id", as: Int64.self)) }
        }
    }

    // MARK: - Practice

    func practicePage(_ visit: Visit) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/practice")
        let settings = try await store.practiceSettings(userId: user.id) ?? PracticeSettings()
        return try await renderPractice(visit, settings: settings, errors: [:], status: .ok)
    }

    func renderPractice(
        _ visit: Visit, settings: PracticeSettings, errors: [String: String], outcome: [String: Any] = [:], status: HTTPResponse.Status
    ) async throws -> Response {
        var context = base(visit, title: "Practice", tab: "Quizzes")
        var subjects: [[String: Any]] = []
        for subject in try await store.subjects() {
            let topics = try await store.topics(subjectId: subject.id) ?? []
            subjects.append([
                "id": subject.id, "name": subject.name, "checked": settings.subjectIds.contains(subject.id),
                "topics": topics.map { ["id": $0.id, "name": $0.name, "checked": settings.topicIds.contains($0.id)] as [String: Any] },
            ])
        }
        context["subjects"] = subjects
        context["difficulties"] = ([nil] + Difficulty.allCases.map(Optional.some)).map { level -> [String: Any] in
            ["value": level?.rawValue ?? "any", "label": level?.rawValue.capitalized ?? "Any", "selected": level == settings.difficulty]
        }
        context["count"] = settings.count
        context["kinds"] = QuestionKind.allCases.filter { PracticeSettings.playableKinds.contains($0) }.map { kind -> [String: Any] in
            ["value": kind.rawValue, "label": Self.kindLabel(kind), "checked": settings.kinds.contains(kind)]
        }
        context["orderRandom"] = settings.order == .random
        context["orderBank"] = settings.order == .bankOrder
        context["timeLimits"] = ([nil] + PracticeSettings.timeLimitChoices.map(Optional.some)).map { seconds -> [String: Any] in
            ["value": seconds.map(String.init) ?? "off", "label": seconds.map { "\($0) seconds" } ?? "Off", "selected": seconds == settings.timeLimitSeconds]
        }
        for (field, message) in errors { context["error_" + field] = message }
        for (key, value) in outcome { context[key] = value }
        return renderer.render("practice", context, status: status)
    }

    /// The settings as the form sent them; unreadable values become rule breaks the form explains.
    static func practiceSettings(from form: WebForm) -> PracticeSettings {
        PracticeSettings(
            subjectIds: Set(form.all("subject").prefix(1_000).compactMap { Int64($0) }),
            topicIds: Set(form.all("topic").prefix(1_000).compactMap { Int64($0) }),
            difficulty: Difficulty(rawValue: form.text("difficulty")),
            count: Int(form.text("count")) ?? 0,
            kinds: Set(form.all("kind").prefix(20).compactMap { QuestionKind(rawValue: $0) }),
            order: form.text("order") == PracticeSettings.Order.bankOrder.rawValue ? .bankOrder : .random,
            timeLimitSeconds: Int(form.text("time_limit"))
        )
    }

    func startPractice(_ visit: Visit, _ form: WebForm) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/practice")
        let settings = Self.practiceSettings(from: form)
        let errors = settings.validationErrors()
        guard errors.isEmpty else {
            return try await renderPractice(visit, settings: settings, errors: Dictionary(errors.map { ($0.field, $0.message) }, uniquingKeysWith: { a, _ in a }),
                                            status: .unprocessableContent)
        }
        let start = try await playing.startPractice(userId: user.id, settings: settings, acceptFewer: form["accept_fewer"] == "1")
        if let attempt = start.attempt, let first = start.draw.questionIds.first {
            return PageRenderer.redirect(to: "/play/\(attempt.id)/questions/\(first)")
        }
        let outcome: [String: Any] = switch start.draw.status {
        case .fewerThanAsked(let available):
            ["fewer": true, "available": available, "availableText": Self.count(available, "question")]
        case .poolUsedUp(let matching):
            ["usedUp": true, "matchingText": Self.count(matching, "question")]
        default:
            ["nothing": true]
        }
        return try await renderPractice(visit, settings: settings, errors: [:], outcome: outcome, status: .ok)
    }

    func resetPractice(_ visit: Visit) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/practice")
        try await store.forgetSeenQuestions(userId: user.id)
        return PageRenderer.redirect(to: "/practice?reset=1")
    }

    // MARK: - One question on its own

    func randomPage(_ visit: Visit, notice: String?) async throws -> Response {
        _ = try requireUser(visit, returnTo: "/random")
        var context = base(visit, title: "Random question", tab: "Quizzes", notice: notice)
        var subjects: [[String: Any]] = []
        for subject in try await store.subjects() {
            let topics = try await store.topics(subjectId: subject.id) ?? []
            subjects.append(["id": subject.id, "name": subject.name, "topics": topics.map { ["id": $0.id, "name": $0.name] as [String: Any] }])
        }
        context["subjects"] = subjects
        return renderer.render("random", context)
    }

    func randomQuestion(_ visit: Visit, subject: Int64?, topic: Int64?) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/random")
        guard let question = try await playing.randomQuestion(subjectId: subject, topicId: topic, shownTo: user.id), let id = question.id else {
            return try await randomPage(visit, notice: "No question matches that choice. Try another subject or topic.")
        }
        return PageRenderer.redirect(to: "/questions/\(id)")
    }

    func singleQuestion(_ visit: Visit, id: Int64, formError: String? = nil) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/questions/\(id)")
        guard let question = try await playing.playableQuestion(id: id, shownTo: user.id)?.shufflingChoices(seed: 0) else {
            throw HTTPError(.notFound)
        }
        var context = base(visit, title: "Question \(id)", tab: "Quizzes")
        context["id"] = id
        context["questionHead"] = renderer.fragment("question-head", for: question) { Self.headContext(question) }
        context["questionFields"] = renderer.fragment("question-fields", for: question) { Self.fieldsContext(question) }
        if let formError { context["feedback"] = formError }
        return renderer.render("single", context, status: formError == nil ? .ok : .unprocessableContent)
    }

    static func headContext(_ question: Question) -> [String: Any] {
        ["text": question.text, "difficulty": question.difficulty.rawValue.capitalized, "points": count(question.points, "point")]
    }

    static func fieldsContext(_ question: Question) -> [String: Any] {
        var fields: [String: Any] = [question.kind.rawValue: true]
        fields["choices"] = question.body.choices.map { ["id": $0.id, "text": $0.text] as [String: Any] }
        if case .numeric(_, _, let unit?) = question.body { fields["unit"] = unit }
        return fields
    }

    func answerSingle(_ visit: Visit, _ form: WebForm, id: Int64) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/questions/\(id)")
        guard let question = try await playing.playableQuestion(id: id, shownTo: user.id) else { throw HTTPError(.notFound) }
        guard let answer = Self.answer(from: form, kind: question.kind) else {
            return try await singleQuestion(visit, id: id, formError: "Choose or type an answer before submitting.")
        }
        guard let correct = try? question.isCorrect(answer) else {
            return try await singleQuestion(visit, id: id, formError: "That answer does not fit this question.")
        }
        let stored = try await playing.answerAlone(userId: user.id, question: question, given: APIHandler.describe(answer), isCorrect: correct)
        return PageRenderer.redirect(to: "/questions/\(id)/answers/\(stored.id)")
    }

    func singleAnswer(_ visit: Visit, id: Int64, answerId: Int64) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/questions/\(id)")
        guard let stored = try await store.singleAnswer(id: answerId, userId: user.id), stored.questionId == id,
              let question = try await store.question(id: id) else { throw HTTPError(.notFound) }
        var context = base(visit, title: "Question \(id)", tab: "Quizzes")
        context["id"] = id
        context["questionHead"] = renderer.fragment("question-head", for: question) { Self.headContext(question) }
        context["verdictClass"] = stored.isCorrect ? "right" : "wrong"
        context["verdictText"] = stored.isCorrect ? "Right!" : "Not quite."
        context["pointsText"] = !stored.counted
            ? "You already answered this question today, so this answer earns no points. It counts again tomorrow."
            : stored.isCorrect ? "+\(Self.count(stored.pointsAwarded, "point"))" : "No points this time; it counts again tomorrow."
        if let given = Self.describe(given: stored.given, for: question) { context["given"] = given }
        context["correctAnswer"] = Components.Schemas.CorrectAnswer(question.correctAnswer).display
        if let explanation = question.explanation { context["explanation"] = explanation }
        return renderer.render("single-result", context)
    }

    // MARK: - Name them all

    func gamesPage(_ visit: Visit) async throws -> Response {
        _ = try requireUser(visit, returnTo: "/games")
        var context = base(visit, title: "Name them all", tab: "Quizzes")
        context["questions"] = try await store.nameAllQuestions().compactMap { entry -> [String: Any]? in
            guard case .nameAll(let items, let limit, _) = entry.question.body, let id = entry.question.id else { return nil }
            let seconds = limit > 0 ? limit : NameAllGame.defaultTimeLimitSeconds
            return ["id": id, "text": entry.question.text, "topic": entry.topicName,
                    "facts": "\(Self.count(items.count, "item")) · \(Self.duration(seconds))"]
        }
        return renderer.render("games", context)
    }

    static func duration(_ seconds: Int) -> String {
        seconds >= 60 ? (seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s") : "\(seconds) s"
    }

    func startGame(_ visit: Visit, _ form: WebForm) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/games")
        guard let questionId = Int64(form.text("question")) else { throw HTTPError(.notFound) }
        do {
            let (id, _) = try await playing.startGame(userId: user.id, questionId: questionId)
            return PageRenderer.redirect(to: "/games/\(id)")
        } catch Playing.PlayError.notFound {
            throw HTTPError(.notFound)
        }
    }

    func gamePage(_ visit: Visit, id: Int64, verdict: String?) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/games/\(id)")
        let game: NameAllGame
        do {
            game = try await playing.game(id: id, userId: user.id)
        } catch Playing.PlayError.notFound {
            throw HTTPError(.notFound)
        }
        let now = time.now()
        let result = game.result(at: now)
        var context = base(visit, title: "Name them all", tab: "Quizzes")
        context["id"] = id
        context["text"] = game.question.text
        context["foundCount"] = result.found.count
        context["itemCount"] = game.items.count
        let found = Dictionary(result.found.map { ($0.index, $0.answer) }, uniquingKeysWith: { a, _ in a })
        if case .finished(let reason) = game.state(at: now) {
            context["finished"] = true
            context["endText"] = switch reason {
            case .allFound: "You found them all!"
            case .timeUp: "Time is up."
            case .gaveUp: "You gave up."
            }
            context["points"] = Self.count(result.points, "point")
            context["timeUsed"] = Self.duration(Int(result.secondsUsed.rounded()))
            context["items"] = game.items.indices.map { index -> [String: Any] in
                found[index].map { ["answer": $0, "found": true] } ?? ["answer": game.items[index].answer, "missed": true]
            }
        } else {
            context["playing"] = true
            let left = max(0, Int(game.deadline.timeIntervalSince(now).rounded(.down)))
            context["secondsLeft"] = left
            context["clock"] = String(format: "%d:%02d", left / 60, left % 60)
            context["deadline"] = Int64((game.deadline.timeIntervalSince1970 * 1000).rounded())
            context["items"] = game.items.indices.map { index -> [String: Any] in
                found[index].map { ["answer": $0, "found": true, "index": index] } ?? ["blank": true, "index": index]
            }
            if let verdict, let message = Self.guessMessages[verdict] { context["verdictText"] = message; context["verdictClass"] = verdict }
        }
        return renderer.render("game", context)
    }

    static var guessMessages: [String: String] { [
        "found": "Found one!", "alreadyFound": "You already found that one.", "notAnItem": "That is not on the list.",
        "empty": "Type a guess first.", "tooLong": "That guess is far too long.", "slowDown": Playing.tooManyGuesses,
    ] }

    func guess(_ visit: Visit, _ form: WebForm, id: Int64) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/games/\(id)")
        do {
            let (verdict, _) = try await playing.guess(id: id, userId: user.id, text: form["guess"] ?? "")
            let name = switch verdict {
            case .found: "found"
            case .alreadyFound: "alreadyFound"
            case .notAnItem: "notAnItem"
            case .empty: "empty"
            case .tooLong: "tooLong"
            case .tooLate, .gameOver: "over"
            }
            return PageRenderer.redirect(to: "/games/\(id)?verdict=\(name)")
        } catch Playing.PlayError.notFound {
            throw HTTPError(.notFound)
        } catch Playing.PlayError.tooManyGuesses {
            return PageRenderer.redirect(to: "/games/\(id)?verdict=slowDown")
        }
    }

    func giveUp(_ visit: Visit, id: Int64) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/games/\(id)")
        do {
            _ = try await playing.giveUp(id: id, userId: user.id)
        } catch Playing.PlayError.notFound {
            throw HTTPError(.notFound)
        }
        return PageRenderer.redirect(to: "/games/\(id)")
    }
}
