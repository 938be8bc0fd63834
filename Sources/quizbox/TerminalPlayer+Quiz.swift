import Foundation
import QuizClient
import QuizMath
import QuizText

/// Quizzes, random questions and "name them all" games, question by question.
extension TerminalPlayer {
    /// Subject → topic → quiz, each with a way back; then the quiz, its score and the leaderboard.
    func playQuiz() async throws(QuizboxClient.Error) {
        let subjects = try await client.subjects()
        while case .item(let s) = Menu(title: Style.bold(t("Subjects")), items: subjects.map(\.name)).choose(on: terminal) {
            let topics = try await client.topics(subjectId: subjects[s].id)
            while case .item(let topic) = Menu(title: Style.bold(subjects[s].name), items: topics.map(\.name)).choose(on: terminal) {
                let quizzes = try await client.quizzes(topicId: topics[topic].id)
                let titles = quizzes.map { "\($0.title) (" + t.count($0.questionCount, "{n} question", "{n} questions", ["n": plain($0.questionCount)]) + ")" }
                if case .item(let q) = Menu(title: Style.bold(topics[topic].name), items: titles).choose(on: terminal) {
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
            terminal.line(t("You have seen every question these settings can draw."))
            guard case .item(0) = Menu(title: nil, items: [t("Start over"), t("Not now")]).choose(on: terminal) else { return }
            try await client.forgetSeenQuestions()
            outcome = try await client.startPractice(settings, acceptFewer: true)
        }
        guard let attempt = outcome.attempt, let ids = outcome.questionIds, !ids.isEmpty else {
            terminal.line(t("No question matches your practice settings; change them on the web app's practice page."))
            return
        }
        terminal.line()
        let count = t.count(ids.count, "{n} question", "{n} questions", ["n": plain(ids.count)])
        terminal.line(Style.bold(t("Practice: {questions}", ["questions": count]))
                      + (settings.timeLimitSeconds.map { t(", {seconds} s each", ["seconds": String($0)]) } ?? ""))
        try await play(attemptId: attempt.id, questionIds: ids)
    }

    /// Question by question, each fetched as it is shown (which starts a timed question's clock),
    /// with feedback after each; then the score and the leaderboard.
    private func play(attemptId: Int64, questionIds: [Int64]) async throws(QuizboxClient.Error) {
        for (index, id) in questionIds.enumerated() {
            let shown = try await client.question(attemptId: attemptId, questionId: id)
            let question = shown.question
            let limit = shown.deadline.map { t(" · {seconds} s to answer", ["seconds": String(Int($0.timeIntervalSince(shown.shownAt).rounded()))]) } ?? ""
            terminal.line()
            terminal.line(Style.dim(t("Question {number} of {total} · {points} · {difficulty}", [
                "number": String(index + 1), "total": String(questionIds.count), "points": pointsText(question.points),
                "difficulty": difficultyName(question.difficulty.rawValue),
            ]) + limit))
            guard let answer = ask(question) else {
                terminal.line(t("Left early; what you answered so far counts."))
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
        terminal.line(Style.bold(t("You got {correct} of {total} right: {points} of {totalPoints} points.", [
            "correct": String(score.correctCount), "total": String(score.questionCount),
            "points": plain(score.points), "totalPoints": plain(score.totalPoints),
        ])))
        terminal.line(t("Added to your total: {added}, now {total}. You are #{rank}.", [
            "added": plain(score.pointsAdded ?? score.points), "total": plain(score.userPoints), "rank": String(score.rank),
        ]))
        try await showLeaderboard()
    }

    func randomQuestion() async throws(QuizboxClient.Error) {
        let question = try await client.randomQuestion()
        terminal.line()
        guard case .some(.some(let answer)) = ask(question) else { return }
        let result = try await client.answer(questionId: question.id, with: answer)
        showFeedback(verdict: result.verdict.rawValue, points: result.pointsAwarded, correct: result.correctAnswer.display,
                     explanation: result.explanation)
        if !result.counted { terminal.line(Style.dim(t("Answered already today: no points this time."))) }
        pause()
    }

    /// Shows the question and reads an answer that fits its kind. nil: the player left;
    /// `.some(nil)`: a question the terminal cannot answer here (a "name them all" one).
    private func ask(_ question: QuizboxClient.Question) -> Answer?? {
        readParts(question)
    }

    /// `text`: the question, shown first when the caller has not shown it.
    func readAnswer(text: String?, kind: Components.Schemas.QuestionKind, choices: [(id: Int, text: String)], unit: String?) -> Answer?? {
        if let text { terminal.line(Style.bold(text)) }
        switch kind {
        case .singleChoice, .poll:
            guard case .item(let index) = Menu(title: nil, items: choices.map(\.text), backLabel: t("leave")).choose(on: terminal) else { return nil }
            return .choice(choices[index].id)
        case .multipleChoice:
            terminal.line(Style.dim(t("Several answers may be right.")))
            guard let ticked = Menu(title: nil, items: choices.map(\.text), backLabel: t("leave")).chooseSeveral(on: terminal) else { return nil }
            return .choices(Set(ticked.map { choices[$0].id }))
        case .trueFalse:
            guard case .item(let index) = Menu(title: nil, items: [t("True"), t("False")], backLabel: t("leave")).choose(on: terminal) else { return nil }
            return .bool(index == 0)
        case .typedAnswer, .wordCloud:
            while true {
                guard let typed = ask(t("Your answer: "))?.trimmingCharacters(in: .whitespaces) else { return nil }
                if !typed.isEmpty { return .text(typed) }
            }
        case .numeric, .estimate:
            while true {
                guard let typed = ask(unit.map { t("Your answer (in {unit}): ", ["unit": $0]) } ?? t("Your answer: ")) else { return nil }
                // A decimal comma is as good as a point.
                if let number = Double(typed.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")) { return .number(number) }
                terminal.line(t("A number, please (like 42 or 3.5)."))
            }
        case .nameAll:
            terminal.line(Style.dim(t("This one is a timed game: play it from “Name them all” in the menu.")))
            return .some(nil)
        case .ordering, .matching, .gapFill, .slide:
            // Only reached from a live game, which does not send these kinds.
            terminal.line(Style.dim(t("This kind of question cannot be answered here.")))
            return .some(nil)
        }
    }

    /// A question's difficulty in words ("easy", "medium", "hard" in English, as the API names them).
    func difficultyName(_ difficulty: String) -> String {
        switch difficulty {
        case "easy": t("easy")
        case "medium": t("medium")
        case "hard": t("hard")
        default: difficulty
        }
    }

    func showFeedback(verdict: String, points: Int, correct: String, explanation: String?) {
        switch verdict {
        case "correct": terminal.line(Style.green(t("✓ Right! +{points}", ["points": pointsText(points)])))
        case "alreadyAnswered": terminal.line(t("You had answered this one already. The answer: {answer}", ["answer": answerText(correct)]))
        case "tooLate": terminal.line(Style.red(t("✗ Too late: the time was up. The answer: {answer}", ["answer": answerText(correct)])))
        case "partlyCorrect": terminal.line(t("◐ Partly right: +{points}. The answer: {answer}", ["points": pointsText(points), "answer": answerText(correct)]))
        case "counted": terminal.line(Style.green(t("✓ Counted. Thanks!")))
        default: terminal.line(Style.red(t("✗ Wrong. The answer: {answer}", ["answer": answerText(correct)])))
        }
        if let explanation, !explanation.isEmpty { terminal.line(Style.dim(MathText.plainText(explanation))) }
    }

    /// A "name them all" game: one guess a line until everything is found, time is up or an empty line gives up.
    func nameThemAll() async throws(QuizboxClient.Error) {
        let questions = try await client.gameQuestions()
        guard !questions.isEmpty else {
            terminal.line(t("There are no “name them all” questions on this server yet."))
            return
        }
        let items = questions.map {
            t("{text} ({items}, {seconds} s)", ["text": $0.text, "items": t.count($0.itemCount, "{n} item", "{n} items", ["n": plain($0.itemCount)]),
                                                 "seconds": String($0.timeLimitSeconds)])
        }
        guard case .item(let chosen) = Menu(title: Style.bold(t("Name them all")), items: items).choose(on: terminal) else { return }
        var game = try await client.startGame(questionId: questions[chosen].id)
        terminal.line(Style.bold(game.text))
        terminal.line(Style.dim(t("One answer a line; an empty line gives up. The clock is running: {seconds} s.",
                                   ["seconds": String(questions[chosen].timeLimitSeconds)])))
        var playing = true
        while playing {
            guard let text = ask("> "), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                game = try await client.giveUp(gameId: game.id)
                break
            }
            let result = try await client.guess(gameId: game.id, text: text)
            switch result.verdict {
            case .found: terminal.line(Style.green("✓ \(result.item?.answer ?? text)  (\(result.foundCount)/\(result.itemCount))"))
            case .alreadyFound: terminal.line(t("Already found."))
            case .notAnItem: terminal.line(Style.red(t("✗ Not on the list.")))
            case .empty, .tooLong: terminal.line(t("That is not an answer."))
            case .tooLate, .gameOver: terminal.line(t("Time is up."))
            }
            playing = result.state == .playing
        }
        if game.state == .playing { game = try await client.game(id: game.id) }
        terminal.line(Style.bold(t("Found {found} of {total}: {points}.", [
            "found": String(game.found.count), "total": String(game.itemCount), "points": pointsText(game.points),
        ])))
        if let missed = game.missed, !missed.isEmpty {
            terminal.line(t("Missed: {answers}", ["answers": missed.map(\.answer).joined(separator: ", ")]))
        }
        pause()
    }
}
