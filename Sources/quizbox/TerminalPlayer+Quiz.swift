import Foundation
import QuizClient

/// Quizzes, random questions and "name them all" games, question by question.
extension TerminalPlayer {
    /// Subject → topic → quiz, each with a way back; then the quiz, its score and the leaderboard.
    func playQuiz() async throws(QuizboxClient.Error) {
        let subjects = try await client.subjects()
        while case .item(let s) = Menu(title: Style.bold("Subjects"), items: subjects.map(\.name)).choose(on: terminal) {
            let topics = try await client.topics(subjectId: subjects[s].id)
            while case .item(let t) = Menu(title: Style.bold(subjects[s].name), items: topics.map(\.name)).choose(on: terminal) {
                let quizzes = try await client.quizzes(topicId: topics[t].id)
                let titles = quizzes.map { "\($0.title) (\($0.questionCount) questions)" }
                if case .item(let q) = Menu(title: Style.bold(topics[t].name), items: titles).choose(on: terminal) {
                    try await play(quizzes[q])
                    return
                }
            }
        }
    }

    private func play(_ quiz: QuizboxClient.Quiz) async throws(QuizboxClient.Error) {
        let questions = try await client.questions(quizId: quiz.id)
        let attempt = try await client.startAttempt(quizId: quiz.id)
        terminal.line()
        terminal.line(Style.bold(quiz.title) + (quiz.description.isEmpty ? "" : " — \(quiz.description)"))
        try await play(attemptId: attempt.id, questionIds: questions.map(\.id))
    }

    /// A practice round with the player's last settings (the web app's practice page changes them).
    func practice() async throws(QuizboxClient.Error) {
        let settings = try await client.practiceSettings()
        var outcome = try await client.startPractice(settings, acceptFewer: true)
        if outcome.status == .poolUsedUp {
            terminal.line("You have seen every question these settings can draw.")
            guard case .item(0) = Menu(title: nil, items: ["Start over", "Not now"]).choose(on: terminal) else { return }
            try await client.forgetSeenQuestions()
            outcome = try await client.startPractice(settings, acceptFewer: true)
        }
        guard let attempt = outcome.attempt, let ids = outcome.questionIds, !ids.isEmpty else {
            terminal.line("No question matches your practice settings; change them on the web app's practice page.")
            return
        }
        terminal.line()
        terminal.line(Style.bold("Practice: \(ids.count) questions") + (settings.timeLimitSeconds.map { ", \($0) s each" } ?? ""))
        try await play(attemptId: attempt.id, questionIds: ids)
    }

    /// Question by question, each fetched as it is shown (which starts a timed question's clock),
    /// with feedback after each; then the score and the leaderboard.
    private func play(attemptId: Int64, questionIds: [Int64]) async throws(QuizboxClient.Error) {
        for (index, id) in questionIds.enumerated() {
            let shown = try await client.question(attemptId: attemptId, questionId: id)
            let question = shown.question
            let limit = shown.deadline.map { " · \(Int($0.timeIntervalSince(shown.shownAt).rounded())) s to answer" } ?? ""
            terminal.line()
            terminal.line(Style.dim("Question \(index + 1) of \(questionIds.count) · \(question.points) \(question.points == 1 ? "point" : "points") · \(question.difficulty.rawValue)\(limit)"))
            guard let answer = ask(question) else {
                terminal.line("Left early; what you answered so far counts.")
                break
            }
            guard let answer else { continue }
            let result = try await client.answer(attemptId: attemptId, questionId: id, with: answer)
            showFeedback(verdict: result.verdict.rawValue, points: result.pointsAwarded, correct: result.correctAnswer.display,
                         explanation: result.explanation)
            if index + 1 < questionIds.count { pause() }
        }
        let score = try await client.finish(attemptId: attemptId)
        terminal.line()
        terminal.line(Style.bold("You got \(score.correctCount) of \(score.questionCount) right: \(score.points) of \(score.totalPoints) points."))
        terminal.line("Added to your total: \(score.pointsAdded ?? score.points), now \(score.userPoints). You are #\(score.rank).")
        try await showLeaderboard()
    }

    func randomQuestion() async throws(QuizboxClient.Error) {
        let question = try await client.randomQuestion()
        terminal.line()
        guard case .some(.some(let answer)) = ask(question) else { return }
        let result = try await client.answer(questionId: question.id, with: answer)
        showFeedback(verdict: result.verdict.rawValue, points: result.pointsAwarded, correct: result.correctAnswer.display,
                     explanation: result.explanation)
        if !result.counted { terminal.line(Style.dim("Answered already today: no points this time.")) }
        pause()
    }

    /// Shows the question and reads an answer that fits its kind. nil: the player left;
    /// `.some(nil)`: a question the terminal cannot answer here (a "name them all" one).
    private func ask(_ question: QuizboxClient.Question) -> Answer?? {
        readAnswer(text: question.text, kind: question.kind, choices: (question.choices ?? []).map { ($0.id, $0.text) }, unit: question.unit)
    }

    func readAnswer(text: String, kind: Components.Schemas.QuestionKind, choices: [(id: Int, text: String)], unit: String?) -> Answer?? {
        terminal.line(Style.bold(text))
        switch kind {
        case .singleChoice:
            guard case .item(let index) = Menu(title: nil, items: choices.map(\.text), backLabel: "leave").choose(on: terminal) else { return nil }
            return .choice(choices[index].id)
        case .multipleChoice:
            terminal.line(Style.dim("Several answers may be right."))
            guard let ticked = Menu(title: nil, items: choices.map(\.text), backLabel: "leave").chooseSeveral(on: terminal) else { return nil }
            return .choices(Set(ticked.map { choices[$0].id }))
        case .trueFalse:
            guard case .item(let index) = Menu(title: nil, items: ["True", "False"], backLabel: "leave").choose(on: terminal) else { return nil }
            return .bool(index == 0)
        case .typedAnswer:
            while true {
                guard let typed = ask("Your answer: ")?.trimmingCharacters(in: .whitespaces) else { return nil }
                if !typed.isEmpty { return .text(typed) }
            }
        case .numeric:
            while true {
                guard let typed = ask("Your answer\(unit.map { " (in \($0))" } ?? ""): ") else { return nil }
                // A decimal comma is as good as a point.
                if let number = Double(typed.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")) { return .number(number) }
                terminal.line("A number, please (like 42 or 3.5).")
            }
        case .nameAll:
            terminal.line(Style.dim("This one is a timed game: play it from “Name them all” in the menu."))
            return .some(nil)
        }
    }

    func showFeedback(verdict: String, points: Int, correct: String, explanation: String?) {
        switch verdict {
        case "correct": terminal.line(Style.green("✓ Right! +\(points) \(points == 1 ? "point" : "points")"))
        case "alreadyAnswered": terminal.line("You had answered this one already. The answer: \(correct)")
        case "tooLate": terminal.line(Style.red("✗ Too late: the time was up. The answer: \(correct)"))
        default: terminal.line(Style.red("✗ Wrong. The answer: \(correct)"))
        }
        if let explanation, !explanation.isEmpty { terminal.line(Style.dim(explanation)) }
    }

    /// A "name them all" game: one guess a line until everything is found, time is up or an empty line gives up.
    func nameThemAll() async throws(QuizboxClient.Error) {
        let questions = try await client.gameQuestions()
        guard !questions.isEmpty else {
            terminal.line("There are no “name them all” questions on this server yet.")
            return
        }
        let items = questions.map { "\($0.text) (\($0.itemCount) items, \($0.timeLimitSeconds) s)" }
        guard case .item(let chosen) = Menu(title: Style.bold("Name them all"), items: items).choose(on: terminal) else { return }
        var game = try await client.startGame(questionId: questions[chosen].id)
        terminal.line(Style.bold(game.text))
        terminal.line(Style.dim("One answer a line; an empty line gives up. The clock is running: \(questions[chosen].timeLimitSeconds) s."))
        var playing = true
        while playing {
            guard let text = ask("> "), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                game = try await client.giveUp(gameId: game.id)
                break
            }
            let result = try await client.guess(gameId: game.id, text: text)
            switch result.verdict {
            case .found: terminal.line(Style.green("✓ \(result.item?.answer ?? text)  (\(result.foundCount)/\(result.itemCount))"))
            case .alreadyFound: terminal.line("Already found.")
            case .notAnItem: terminal.line(Style.red("✗ Not on the list."))
            case .empty, .tooLong: terminal.line("That is not an answer.")
            case .tooLate, .gameOver: terminal.line("Time is up.")
            }
            playing = result.state == .playing
        }
        if game.state == .playing { game = try await client.game(id: game.id) }
        terminal.line(Style.bold("Found \(game.found.count) of \(game.itemCount): \(game.points) \(game.points == 1 ? "point" : "points")."))
        if let missed = game.missed, !missed.isEmpty { terminal.line("Missed: " + missed.map(\.answer).joined(separator: ", ")) }
        pause()
    }
}
