import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizText
import QuizStore
import QuizUseCases

/// The other ways to play: practice with settings, a random or chosen question on its own, and the
/// "name them all" game. Each form calls one use case and renders or redirects on what it returns.
struct ModesPages: Sendable {
    let pages: Pages
    let practice: Practice
    let singleQuestion: SingleQuestion
    let games: NameAllGames

    var fragments: QuestionFragments { QuestionFragments(renderer: pages.renderer) }

    func register(signedIn: some RouterMethods<SignedInContext>) {
        signedIn.get("/practice") { _, context in try await practicePage(context) }
        signedIn.post("/practice", policy: .resendable, in: pages.routes) { _, context in try await startPractice(context) }
        signedIn.post("/practice/reset") { _, context in try await resetPractice(context) }
        signedIn.get("/random") { _, context in try await randomPage(context) }
        signedIn.get("/random/question") { request, context in
            try await randomQuestion(context, subjectId: request.uri.queryParameters["subject"].flatMap { Int64($0) },
                                     topicId: request.uri.queryParameters["topic"].flatMap { Int64($0) })
        }
        signedIn.get("/questions/:id") { _, context in try await questionPage(context, id: context.pathID("id")) }
        signedIn.post("/questions/:id", policy: .resendable, in: pages.routes) { _, context in try await answer(context, id: context.pathID("id")) }
        signedIn.get("/questions/:id/answers/:answer") { _, context in
            try await answerPage(context, id: context.pathID("id"),
                                 answerId: context.pathID("answer"))
        }
        signedIn.get("/games") { _, context in try await gamesPage(context) }
        signedIn.post("/games", policy: .resendable, in: pages.routes) { _, context in try await startGame(context) }
        signedIn.get("/games/:id") { request, context in
            try await gamePage(context, id: context.pathID("id"),
                               verdict: request.uri.queryParameters["verdict"].map(String.init))
        }
        signedIn.post("/games/:id/guesses", policy: .resendable, in: pages.routes) { _, context in try await guess(context, id: context.pathID("id")) }
        signedIn.post("/games/:id/give-up") { _, context in try await giveUp(context, id: context.pathID("id")) }
    }

    // MARK: Practice

    struct Option: Encodable {
        var value: String
        var label: String
        var selected: Bool
    }

    struct Tick: Encodable {
        var value: String
        var label: String
        var checked: Bool
    }

    struct TopicTick: Encodable {
        var id: Int64
        var name: String
        var checked: Bool?
    }

    struct SubjectTicks: Encodable {
        var id: Int64
        var name: String
        var checked: Bool?
        var topics: [TopicTick]
    }

    struct PracticePage: Encodable {
        var subjects: [SubjectTicks]
        var difficulties: [Option]
        var count: Int
        var kinds: [Tick]
        var orderRandom: Bool
        var orderBank: Bool
        var timeLimits: [Option]
        var error_count: String?
        var error_kinds: String?
        var error_timeLimitSeconds: String?
        var fewer: Bool?
        var available: Int?
        var availableText: String?
        var usedUp: Bool?
        var matchingText: String?
        var nothing: Bool?
    }

    func practicePage(_ context: SignedInContext) async throws -> Response {
        try await renderPractice(context, settings: try await practice.settings(userId: context.user.id))
    }

    /// The form with `settings`, each broken rule next to its field, and what a draw said.
    func renderPractice(_ context: SignedInContext, settings: PracticeSettings, problems: [PracticeSettings.Invalid] = [],
                        draw: PracticeDraw.Status? = nil) async throws -> Response {
        let t = context.visit.t
        let subjects = try await practice.subjects().map { entry in
            SubjectTicks(id: entry.subject.id, name: entry.subject.name, checked: settings.subjectIds.contains(entry.subject.id),
                         topics: entry.topics.map { TopicTick(id: $0.id, name: $0.name, checked: settings.topicIds.contains($0.id)) })
        }
        let error = { (field: String) in problems.first { $0.field == field }.map { t($0.message) } }
        var model = PracticePage(
            subjects: subjects,
            difficulties: ([nil] + Difficulty.allCases.map(Optional.some)).map { level in
                Option(value: level?.rawValue ?? "any", label: level.map { QuestionFragments.difficultyName($0, t) } ?? t("Any"), selected: level == settings.difficulty)
            },
            count: settings.count,
            kinds: QuestionKind.allCases.filter { PracticeSettings.playableKinds.contains($0) }.map { kind in
                Tick(value: kind.rawValue, label: ManageText.kindLabel(kind, t), checked: settings.kinds.contains(kind))
            },
            orderRandom: settings.order == .random, orderBank: settings.order == .bankOrder,
            timeLimits: ([nil] + PracticeSettings.timeLimitChoices.map(Optional.some)).map { seconds in
                Option(value: seconds.map(String.init) ?? "off", label: seconds.map { t("{seconds} seconds", ["seconds": t.number($0)]) } ?? t("Off"),
                       selected: seconds == settings.timeLimitSeconds)
            },
            error_count: error("count"), error_kinds: error("kinds"), error_timeLimitSeconds: error("timeLimitSeconds"))
        switch draw {
        case .fewerThanAsked(let available)?:
            (model.fewer, model.available, model.availableText) = (true, available, t.count(available, "{count} question", "{count} questions"))
        case .poolUsedUp(let matching)?:
            (model.usedUp, model.matchingText) = (true, t.count(matching, "{count} question", "{count} questions"))
        case .nothingMatches?, .full?:
            model.nothing = true
        case nil:
            break
        }
        return pages.render("practice", model, visit: context.visit, title: t("Practice"), tab: "Quizzes",
                            status: problems.isEmpty ? .ok : .unprocessableContent)
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

    func startPractice(_ context: SignedInContext) async throws -> Response {
        let settings = Self.practiceSettings(from: context.form)
        let start: Practice.Start
        do {
            start = try await practice.start(userId: context.user.id, settings: settings, acceptFewer: context.form["accept_fewer"] == "1")
        } catch Practice.Failure.invalidSettings(let problems) {
            return try await renderPractice(context, settings: settings, problems: problems)
        }
        if let attempt = start.attempt, let first = start.draw.questionIds.first {
            return PageRenderer.redirect(to: "/play/\(attempt.id)/questions/\(first)")
        }
        return try await renderPractice(context, settings: settings, draw: start.draw.status)
    }

    func resetPractice(_ context: SignedInContext) async throws -> Response {
        try await practice.forgetSeen(userId: context.user.id)
        return PageRenderer.redirect(to: "/practice?reset=1")
    }

    // MARK: One question on its own

    struct TopicOption: Encodable {
        var id: Int64
        var name: String
    }

    struct SubjectGroup: Encodable {
        var id: Int64
        var name: String
        var topics: [TopicOption]
    }

    struct RandomPage: Encodable {
        var subjects: [SubjectGroup]
    }

    struct SinglePage: Encodable {
        var id: Int64
        var questionHead: PageHTML
        var questionFields: PageHTML
        var feedback: String?
    }

    struct SingleResultPage: Encodable {
        var id: Int64
        var questionHead: PageHTML
        var verdictClass: String
        var verdictText: String
        var verdictIcon: String
        var pointsText: String
        var given: String?
        var correctAnswer: String
        var explanation: String?
    }

    func randomPage(_ context: SignedInContext, notice: String? = nil) async throws -> Response {
        let subjects = try await singleQuestion.subjects().map { entry in
            SubjectGroup(id: entry.subject.id, name: entry.subject.name, topics: entry.topics.map { TopicOption(id: $0.id, name: $0.name) })
        }
        return pages.render("random", RandomPage(subjects: subjects), visit: context.visit, title: context.visit.t("Random question"), tab: "Quizzes", notice: notice)
    }

    func randomQuestion(_ context: SignedInContext, subjectId: Int64?, topicId: Int64?) async throws -> Response {
        do {
            let question = try await singleQuestion.random(subjectId: subjectId, topicId: topicId, userId: context.user.id)
            return PageRenderer.redirect(to: "/questions/\(question.id ?? 0)")
        } catch SingleQuestion.Failure.noneMatches {
            return try await randomPage(context, notice: context.visit.t("No question matches that choice. Try another subject or topic."))
        }
    }

    func questionPage(_ context: SignedInContext, id: Int64, formError: String? = nil) async throws -> Response {
        let question: Question
        do {
            question = try await singleQuestion.question(id: id, userId: context.user.id)
        } catch is SingleQuestion.Failure {
            throw HTTPError(.notFound)
        }
        let model = SinglePage(id: id, questionHead: fragments.head(question, language: context.visit.language), questionFields: fragments.fields(question, language: context.visit.language), feedback: formError)
        return pages.render("single", model, visit: context.visit, title: context.visit.t("Question {number}", ["number": String(id)]), tab: "Quizzes",
                            status: formError == nil ? .ok : .unprocessableContent)
    }

    func answer(_ context: SignedInContext, id: Int64) async throws -> Response {
        let answer = QuestionFragments.answer(from: context.form)
        do {
            let answered = try await singleQuestion.answer(answer, questionId: id, userId: context.user.id)
            return PageRenderer.redirect(to: "/questions/\(id)/answers/\(answered.stored.id)")
        } catch SingleQuestion.Failure.badAnswer(let problem) {
            return try await questionPage(context, id: id, formError: QuestionFragments.message(problem, t: context.visit.t))
        } catch is SingleQuestion.Failure {
            throw HTTPError(.notFound)
        }
    }

    func answerPage(_ context: SignedInContext, id: Int64, answerId: Int64) async throws -> Response {
        let result: SingleQuestion.Result
        do {
            result = try await singleQuestion.result(questionId: id, answerId: answerId, userId: context.user.id)
        } catch is SingleQuestion.Failure {
            throw HTTPError(.notFound)
        }
        let t = context.visit.t
        let stored = result.stored
        let question = result.question
        let judged = QuestionFragments.judged(question, correct: stored.isCorrect, given: result.given)
        let model = SingleResultPage(
            id: id, questionHead: fragments.head(question, language: context.visit.language), verdictClass: judged.verdictClass,
            verdictText: judged.verdictClass == "partly" ? QuestionFragments.partly(judged.credit, t: t) : stored.isCorrect ? t("Right!") : t("Not quite."),
            verdictIcon: QuestionFragments.VerdictIcon.of(judged.verdictClass),
            pointsText: !stored.counted
                ? t("You already answered this question today, so this answer earns no points. It counts again tomorrow.")
                : stored.pointsAwarded > 0 ? "+" + t.count(stored.pointsAwarded, "{count} point", "{count} points") : t("No points this time; it counts again tomorrow."),
            given: RichText.html(result.given.flatMap { QuestionFragments.given(question, $0.answer, t: t) }),
            correctAnswer: RichText.html(QuestionFragments.correct(question, t: t)),
            explanation: RichText.html(question.explanation))
        return pages.render("single-result", model, visit: context.visit, title: t("Question {number}", ["number": String(id)]), tab: "Quizzes")
    }

    // MARK: Name them all

    struct GameChoice: Encodable {
        var id: Int64
        var text: String
        var topic: String
        var facts: String
    }

    struct GamesPage: Encodable {
        var questions: [GameChoice]
    }

    struct GameItem: Encodable {
        var answer: String?
        var found: Bool?
        var missed: Bool?
        var blank: Bool?
        var index: Int?
    }

    struct GamePage: Encodable {
        var id: Int64
        var text: String
        var foundCount: Int
        var itemCount: Int
        var items: [GameItem]
        var finished: Bool?
        var endText: String?
        var points: String?
        var timeUsed: String?
        var playing: Bool?
        var secondsLeft: Int?
        var clock: String?
        /// Milliseconds since 1970, for the game's script.
        var deadline: Int64?
        var verdictText: String?
        var verdictClass: String?
    }

    static func duration(_ seconds: Int) -> String {
        seconds >= 60 ? (seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s") : "\(seconds) s"
    }

    func gamesPage(_ context: SignedInContext) async throws -> Response {
        let t = context.visit.t
        let choices = try await games.choices().map {
            GameChoice(id: $0.id, text: $0.text, topic: $0.topicName, facts: "\(t.count($0.itemCount, "{count} item", "{count} items")) · \(Self.duration($0.timeLimitSeconds))")
        }
        return pages.render("games", GamesPage(questions: choices), visit: context.visit, title: t("Name them all"), tab: "Quizzes")
    }

    func startGame(_ context: SignedInContext) async throws -> Response {
        guard let questionId = Int64(context.form.text("question")) else { throw HTTPError(.notFound) }
        do {
            let played = try await games.start(questionId: questionId, userId: context.user.id)
            return PageRenderer.redirect(to: "/games/\(played.id)")
        } catch is NameAllGames.Failure {
            throw HTTPError(.notFound)
        }
    }

    /// What the page says after a guess, by the verdict's name in its address.
    static func guessMessages(_ t: Texts) -> [String: String] { [
        "found": t("Found one!"), "alreadyFound": t("You already found that one."), "notAnItem": t("That is not on the list."),
        "empty": t("Type a guess first."), "tooLong": t("That guess is far too long."), "slowDown": t(NameAllGames.tooManyGuessesMessage),
    ] }

    func gamePage(_ context: SignedInContext, id: Int64, verdict: String?) async throws -> Response {
        let played: NameAllGames.Played
        do {
            played = try await games.game(id: id, userId: context.user.id)
        } catch is NameAllGames.Failure {
            throw HTTPError(.notFound)
        }
        let t = context.visit.t
        let game = played.game
        let result = played.result
        let found = Dictionary(result.found.map { ($0.index, $0.answer) }, uniquingKeysWith: { first, _ in first })
        var model = GamePage(id: id, text: game.question.text, foundCount: result.found.count, itemCount: game.items.count, items: [])
        if case .finished(let reason) = played.state {
            model.finished = true
            model.endText = switch reason {
            case .allFound: t("You found them all!")
            case .timeUp: t("Time is up.")
            case .gaveUp: t("You gave up.")
            }
            model.points = t.count(result.points, "{count} point", "{count} points")
            model.timeUsed = Self.duration(Int(result.secondsUsed.rounded()))
            model.items = game.items.indices.map { index in
                found[index].map { GameItem(answer: $0, found: true) } ?? GameItem(answer: game.items[index].answer, missed: true)
            }
        } else {
            let left = max(0, Int(game.deadline.timeIntervalSince(played.at).rounded(.down)))
            model.playing = true
            model.secondsLeft = left
            model.clock = String(format: "%d:%02d", left / 60, left % 60)
            model.deadline = Int64((game.deadline.timeIntervalSince1970 * 1000).rounded())
            model.items = game.items.indices.map { index in
                found[index].map { GameItem(answer: $0, found: true, index: index) } ?? GameItem(blank: true, index: index)
            }
            if let verdict, let message = Self.guessMessages(t)[verdict] { (model.verdictText, model.verdictClass) = (message, verdict) }
        }
        return pages.render("game", model, visit: context.visit, title: t("Name them all"), tab: "Quizzes")
    }

    func guess(_ context: SignedInContext, id: Int64) async throws -> Response {
        do {
            let guessed = try await games.guess(context.form["guess"] ?? "", gameId: id, userId: context.user.id)
            let name = switch guessed.verdict {
            case .tooLate, .gameOver: "over"
            default: guessed.verdict.name
            }
            return PageRenderer.redirect(to: "/games/\(id)?verdict=\(name)")
        } catch NameAllGames.Failure.tooManyGuesses {
            return PageRenderer.redirect(to: "/games/\(id)?verdict=slowDown")
        } catch is NameAllGames.Failure {
            throw HTTPError(.notFound)
        }
    }

    func giveUp(_ context: SignedInContext, id: Int64) async throws -> Response {
        do {
            _ = try await games.giveUp(gameId: id, userId: context.user.id)
        } catch is NameAllGames.Failure {
            throw HTTPError(.notFound)
        }
        return PageRenderer.redirect(to: "/games/\(id)")
    }
}
