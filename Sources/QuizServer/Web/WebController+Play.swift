import Foundation
import Hummingbird
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

extension WebController {
    func home(_ visit: Visit) async throws -> Response {
        _ = try requireUser(visit, returnTo: "/home")
        var context = base(visit, title: "Home", tab: "Home")
        context["subjects"] = try await store.subjects().map {
            ["id": $0.id, "name": $0.name, "description": $0.description, "topicCount": Self.count($0.topicCount, "topic")] as [String: Any]
        }
        return renderer.render("home", context)
    }

    func subject(_ visit: Visit, id: Int64) async throws -> Response {
        _ = try requireUser(visit, returnTo: "/subjects/\(id)")
        guard let subject = try await store.subjects().first(where: { $0.id == id }),
              let topics = try await store.topics(subjectId: id) else { throw HTTPError(.notFound) }
        var context = base(visit, title: subject.name, tab: "Home")
        context["subjectName"] = subject.name
        context["subjectDescription"] = subject.description
        var topicList: [[String: Any]] = []
        for topic in topics {
            let quizzes = try await store.quizzes(topicId: topic.id) ?? []
            topicList.append(["name": topic.name, "description": topic.description,
                              "quizzes": quizzes.map { ["id": $0.id, "title": $0.title, "questionCount": Self.count($0.questionCount, "question")] as [String: Any] }])
        }
        context["topics"] = topicList
        return renderer.render("subject", context)
    }

    func quizzes(_ visit: Visit) async throws -> Response {
        _ = try requireUser(visit, returnTo: "/quizzes")
        var context = base(visit, title: "Quizzes", tab: "Quizzes")
        // Quizzes about news articles are listed with the rest, each marked with its article.
        var about: [Int64: [String]] = [:]
        for link in try await store.articleQuizzes() { about[link.quizId, default: []].append(link.articleTitle) }
        context["quizzes"] = try await Self.listings(store.allQuizzes()).map { listing in
            var listing = listing
            if let id = listing["id"] as? Int64, let titles = about[id] { listing["about"] = titles.joined(separator: "; ") }
            return listing
        }
        return renderer.render("quizzes", context)
    }

    static func listings(_ listings: [QuizListing]) -> [[String: Any]] {
        listings.map {
            ["id": $0.quiz.id, "title": $0.quiz.title, "topic": $0.topicName, "subject": $0.subjectName,
             "questionCount": count($0.quiz.questionCount, "question")]
        }
    }

    func quiz(_ visit: Visit, id: Int64) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/quizzes/\(id)")
        guard let quiz = try await store.quiz(id: id), quiz.isListed else { throw HTTPError(.notFound) }
        var context = base(visit, title: quiz.title, tab: "Quizzes")
        context["id"] = quiz.id
        context["title"] = quiz.title
        context["description"] = quiz.description
        context["questionCount"] = Self.count(quiz.questionCount, "question")
        context["totalPoints"] = Self.count(quiz.totalPoints, "point")
        context["topicName"] = try await store.allQuizzes().first { $0.quiz.id == id }?.topicName ?? ""
        if let attempt = try await store.unfinishedAttempt(userId: user.id, quizId: id) { context["attemptId"] = attempt.id }
        return renderer.render("quiz", context)
    }

    func startQuiz(_ visit: Visit, id: Int64) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/quizzes/\(id)")
        do {
            let attempt = try await store.startAttempt(userId: user.id, quizId: id, at: time.now())
            let first = try await store.questions(quizId: id).first?.id
            return PageRenderer.redirect(to: first.map { "/play/\(attempt.id)/questions/\($0)" } ?? "/play/\(attempt.id)")
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        }
    }

    /// The attempt and its quiz's questions; someone else's attempt is "not found".
    func load(_ visit: Visit, attemptId: Int64, returnTo path: String) async throws -> (Attempt, QuizSummary, [Question]) {
        let user = try requireUser(visit, returnTo: path)
        guard let attempt = try await store.attempt(id: attemptId, userId: user.id),
              let quiz = try await store.quiz(id: attempt.quizId) else { throw HTTPError(.notFound) }
        return (attempt, quiz, try await store.questions(quizId: quiz.id))
    }

    func attemptPage(_ visit: Visit, id: Int64) async throws -> Response {
        let (attempt, quiz, questions) = try await load(visit, attemptId: id, returnTo: "/play/\(id)")
        if attempt.isFinished { throw Redirect(location: "/play/\(id)/result") }
        let verdicts = Dictionary(attempt.answers.map { ($0.questionId, $0.isCorrect) }, uniquingKeysWith: { first, _ in first })
        // A timed question's text waits for its clock: listed as "Question N" until opened.
        let shown = quiz.timeLimitSeconds == nil ? nil : try await store.shownQuestions(attemptId: id)
        var context = base(visit, title: quiz.title, tab: "Quizzes")
        context["attemptId"] = id
        context["quizTitle"] = quiz.title
        context["questionCount"] = questions.count
        context["answeredCount"] = attempt.answers.count
        context["correctCount"] = attempt.correctCount
        context["questions"] = questions.enumerated().map { index, question -> [String: Any] in
            let status = verdicts[question.id ?? 0].map { $0 ? "right" : "wrong" } ?? "unanswered"
            let hidden = shown.map { !$0.contains(question.id ?? 0) } ?? false
            let text = hidden ? "Question \(index + 1) (timed: its clock starts when you open it)" : question.text
            return ["id": question.id ?? 0, "attemptId": id, "position": index + 1, "text": text, "status": status,
                    "statusLabel": ["right": "Right", "wrong": "Wrong", "unanswered": "Unanswered"][status] ?? status]
        }
        return renderer.render("attempt", context)
    }

    func questionPage(_ visit: Visit, attemptId: Int64, questionId: Int64, already: Bool, formError: String? = nil) async throws -> Response {
        let (attempt, quiz, questions) = try await load(visit, attemptId: attemptId, returnTo: "/play/\(attemptId)/questions/\(questionId)")
        guard let index = questions.firstIndex(where: { $0.id == questionId }) else { throw HTTPError(.notFound) }
        let question = questions[index].shufflingChoices(seed: attemptId)
        let answered = attempt.answers.first { $0.questionId == questionId }
        var context = base(visit, title: "Question \(index + 1)", tab: "Quizzes")
        context["attemptId"] = attemptId
        context["id"] = questionId
        context["quizTitle"] = quiz.title
        context["position"] = index + 1
        context["questionCount"] = questions.count
        context["questionHead"] = renderer.fragment("question-head", for: question) { Self.headContext(question) }
        if let formError { context["feedback"] = formError }
        if let answered {
            context["answered"] = true
            let late = Playing.isLate(answered.given)
            context["verdictClass"] = already ? "already" : (answered.isCorrect ? "right" : "wrong")
            context["verdictText"] = already ? "You already answered this question; your first answer counts."
                : late ? "Too late: the time limit had passed, so this answer scores nothing."
                : answered.isCorrect ? "Right! +\(answered.pointsAwarded) point\(answered.pointsAwarded == 1 ? "" : "s")" : "Not quite."
            if let given = answered.given.flatMap({ Self.describe(given: $0, for: question) }) { context["given"] = given }
            context["correctAnswer"] = Components.Schemas.CorrectAnswer(question.correctAnswer).display
            if let explanation = question.explanation { context["explanation"] = explanation }
        } else if !attempt.isFinished {
            context["questionFields"] = renderer.fragment("question-fields", for: question) { Self.fieldsContext(question) }
            if quiz.timeLimitSeconds != nil, let deadline = try await playing.show(attemptId: attemptId, quiz: quiz, questionId: questionId).deadline {
                let left = max(0, Int(deadline.timeIntervalSince(time.now()).rounded(.down)))
                context["timed"] = true
                context["secondsLeft"] = left
                context["deadline"] = Int64((deadline.timeIntervalSince1970 * 1000).rounded())
            }
        }
        let answeredIds = Set(attempt.answers.map(\.questionId))
        let unanswered = questions.indices.map { (index + 1 + $0) % questions.count }.map { questions[$0] }
            .first { !answeredIds.contains($0.id ?? 0) && $0.id != questionId }
        if let next = unanswered?.id, answered != nil { context["nextId"] = next }
        if !attempt.isFinished && answeredIds.union(answered == nil ? [] : [questionId]).count == questions.count {
            context["allAnswered"] = true
        }
        return renderer.render("question", context, status: formError == nil ? .ok : .unprocessableContent)
    }

    func answer(_ visit: Visit, _ form: WebForm, attemptId: Int64, questionId: Int64) async throws -> Response {
        let path = "/play/\(attemptId)/questions/\(questionId)"
        let user = try requireUser(visit, returnTo: path)
        guard let quizId = try await store.attemptQuiz(id: attemptId, userId: user.id),
              let quiz = try await store.quiz(id: quizId),
              let question = try await store.question(id: questionId, inQuiz: quizId) else { throw HTTPError(.notFound) }
        guard let answer = Self.answer(from: form, kind: question.kind) else {
            return try await questionPage(visit, attemptId: attemptId, questionId: questionId, already: false,
                                          formError: "Choose or type an answer before submitting.")
        }
        guard let correct = try? question.isCorrect(answer) else {
            return try await questionPage(visit, attemptId: attemptId, questionId: questionId, already: false,
                                          formError: "That answer does not fit this question.")
        }
        do {
            let outcome = try await playing.answer(attemptId: attemptId, quiz: quiz, question: question,
                                                   given: APIHandler.describe(answer), isCorrect: correct)
            return PageRenderer.redirect(to: outcome.verdict == .alreadyAnswered ? path + "?already=1" : path)
        } catch StoreError.attemptFinished {
            throw Redirect(location: "/play/\(attemptId)/result")
        } catch Playing.PlayError.notShown {
            // The question was never opened, so its clock never started: open it now.
            throw Redirect(location: path)
        }
    }

    /// Reads the answer fields the question page sends for each kind.
    static func answer(from form: WebForm, kind: QuestionKind) -> Answer? {
        switch kind {
        case .singleChoice: return Int(form.text("choice")).map(Answer.choice)
        case .multipleChoice:
            let ids = form.all("choices").compactMap { Int($0) }
            return ids.isEmpty || ids.count > 10 ? nil : .choices(Set(ids))
        case .trueFalse: return ["true": true, "false": false][form.text("value")].map(Answer.bool)
        case .typedAnswer:
            let text = form.text("text")
            return text.isEmpty || text.utf8.count > 1_000 ? nil : .text(text)
        case .numeric:
            let text = form.text("number")
            return text.isEmpty || text.count > 40 ? nil : .text(text)
        case .nameAll: return nil
        }
    }

    /// The stored answer as the player sees it: choice texts rather than ids.
    static func describe(given: String, for question: Question) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(given.utf8))) as? [String: Any] else { return nil }
        let choices = Dictionary(question.body.choices.map { ($0.id, $0.text) }, uniquingKeysWith: { first, _ in first })
        if let id = object["choiceId"] as? Int { return choices[id] }
        if let ids = object["choiceIds"] as? [Int] { return ids.compactMap { choices[$0] }.joined(separator: ", ") }
        if let value = object["value"] as? Bool { return value ? "True" : "False" }
        if let text = object["text"] as? String { return text }
        if let number = object["number"] as? Double { return NumberFormatting.plain(number) }
        return nil
    }

    func finish(_ visit: Visit, attemptId: Int64) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/play/\(attemptId)")
        do {
            _ = try await store.finishAttempt(id: attemptId, userId: user.id, at: time.now())
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        }
        return PageRenderer.redirect(to: "/play/\(attemptId)/result")
    }

    func result(_ visit: Visit, attemptId: Int64) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/play/\(attemptId)/result")
        guard let score = try await store.score(attemptId: attemptId, userId: user.id) else {
            guard try await store.attemptQuiz(id: attemptId, userId: user.id) != nil else { throw HTTPError(.notFound) }
            throw Redirect(location: "/play/\(attemptId)")
        }
        let quiz = try await store.quiz(id: score.attempt.quizId)
        var context = base(visit, title: "Result", tab: "Quizzes")
        context["quizTitle"] = quiz?.title ?? "Quiz"
        context["correctCount"] = score.attempt.correctCount
        context["questionCount"] = score.questionCount
        context["points"] = score.attempt.points
        context["pointsAdded"] = score.pointsAdded
        if score.pointsAdded < score.attempt.points {
            context["pointsNote"] = score.pointsAdded == 0
                ? "You had already scored this much here: a quiz counts once, at your best."
                : "A quiz counts once, at your best: this beat your best by \(score.pointsAdded)."
        }
        context["totalPoints"] = score.totalPoints
        context["userPoints"] = score.userPoints
        context["rank"] = score.rank
        let seconds = Int((score.attempt.timeTaken ?? 0).rounded())
        context["timeTaken"] = seconds >= 60 ? "\(seconds / 60) min \(seconds % 60) s" : "\(seconds) s"
        return renderer.render("result", context)
    }

    func history(_ visit: Visit, request: Request) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/history")
        // The play session started when the cookie was set; a fresh visit starts it now.
        let started = request.cookie(Self.playCookie).flatMap { Double($0) }.map(Date.init(timeIntervalSince1970:)) ?? time.now()
        let items = try await store.history(userId: user.id, since: started, limit: 200)
        var context = base(visit, title: "History", tab: "Quizzes")
        context["items"] = items.map {
            ["attemptId": $0.attemptId, "questionId": $0.questionId, "questionText": $0.questionText, "quizTitle": $0.quizTitle,
             "verdictClass": $0.isCorrect ? "right" : "wrong", "verdictText": $0.isCorrect ? "Right" : "Wrong"] as [String: Any]
        }
        if let latest = items.first { context["backAttemptId"] = latest.attemptId }
        return renderer.render("history", context)
    }
}
