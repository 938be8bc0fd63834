import Foundation
import QuizCore
import QuizStore

/// The owner's report, filling up as the assignment runs: per player (where they are, the grade
/// by the rule, each question's credit as the grade counts it, time taken, attempts) and per
/// question (how many answered and got it right, the most common wrong answers).
extension Assignments {
    package struct Report: Sendable, Equatable {
        package var assignment: Assignment
        /// In the assignment's order, in stored ids (a question deleted since is left out).
        package var questions: [Question]
        /// In the order they joined.
        package var players: [PlayerRow]
        /// One per question, in `questions`' order.
        package var questionRows: [QuestionRow]
    }

    package enum PlayerState: String, Sendable, Equatable, Codable {
        /// Joined, no attempt yet.
        case joined
        /// An attempt being played.
        case playing
        /// Every attempt over.
        case finished
    }

    package struct PlayerRow: Sendable, Equatable {
        package var playerId: Int64
        package var nickname: String
        package var userId: Int64?
        package var state: PlayerState
        package var attempts: Int
        /// 0...1 by the rule over the attempts that are over; nil before any is.
        package var grade: Double?
        /// By question id, as the grade counts them (the chosen attempt's, or the average).
        package var credits: [Int64: Credit]
        package var timeTaken: TimeInterval?
        /// While playing: the questions answered so far in the attempt being played.
        package var answeredNow: Int?
    }

    package struct QuestionRow: Sendable, Equatable {
        package var questionId: Int64
        /// Answers given in every attempt, those in progress too.
        package var answered: Int
        package var right: Int
        package var partlyRight: Int
        /// The most common wrong answers in words, most common first: what to teach again.
        package var commonWrongAnswers: [WrongAnswer]
    }

    package struct WrongAnswer: Sendable, Equatable, Codable {
        package var answer: String
        package var count: Int

        package init(answer: String, count: Int) {
            (self.answer, self.count) = (answer, count)
        }
    }

    /// Wrong answers a question row lists.
    package static let wrongAnswersListed = 3

    /// The report of the owner's assignment; anyone else's is `assignmentNotFound`.
    package func report(id: Int64, userId: Int64) async throws(Failure) -> Report {
        let assignment = try await owned(id: id, userId: userId)
        let now = time.now()
        return try await storing("reading a report") {
            let questions = try await questions(of: assignment)
            let players = try await store.assignmentPlayers(assignmentId: id)
            let attempts = Dictionary(grouping: try await store.assignmentAttempts(assignmentId: id), by: \.playerId)
            let all = try await store.assignmentAnswers(assignmentId: id)
            let decoded = StoredAnswers(all)
            let answers = Dictionary(grouping: all, by: \.attemptId)
            let grading = assignment.settings.grading
            let rows = players.map { player in
                let mine = attempts[player.id] ?? []
                let over = mine.filter { assignment.isOver(finishedAt: $0.finishedAt, at: now) }
                let graded = over.map { Self.graded($0, answers: answers[$0.id] ?? [], decoded: decoded) }
                let playing = mine.first { !assignment.isOver(finishedAt: $0.finishedAt, at: now) }
                return PlayerRow(playerId: player.id, nickname: player.nickname, userId: player.userId,
                                 state: mine.isEmpty ? .joined : over.count < mine.count ? .playing : .finished, attempts: mine.count,
                                 grade: grading.grade(graded), credits: grading.credits(graded, questionIds: assignment.questionIds),
                                 timeTaken: grading.timeTaken(graded),
                                 answeredNow: playing.map { attempt in (answers[attempt.id] ?? []).count { $0.answer != nil } })
            }
            let given = Dictionary(grouping: all.filter { $0.answer != nil }, by: \.questionId)
            return Report(assignment: assignment, questions: questions, players: rows,
                          questionRows: questions.map { Self.questionRow($0, answers: given[$0.id ?? 0] ?? [], decoded: decoded) })
        }
    }

    static func questionRow(_ question: Question, answers: [AssignmentAnswerRecord], decoded: StoredAnswers) -> QuestionRow {
        let credits = answers.map(decoded.credit)
        // Counted by what was stored, then put in words once each: a class gives the same few.
        var stored: [String: Int] = [:]
        if question.kind.hasRightAnswer {
            for (answer, credit) in zip(answers, credits) where !credit.isFull {
                if let text = answer.answer { stored[text, default: 0] += 1 }
            }
        }
        var wrong: [String: Int] = [:]
        for (text, count) in stored {
            guard let given = decoded.given(text) else { continue }
            wrong[question.display(given.answer) ?? "?", default: 0] += count
        }
        let common = wrong.map { WrongAnswer(answer: $0.key, count: $0.value) }
            .sorted { ($0.count, $1.answer) > ($1.count, $0.answer) }
        return QuestionRow(questionId: question.id ?? 0, answered: answers.count,
                           right: question.kind.hasRightAnswer ? credits.count(where: \.isFull) : 0,
                           partlyRight: question.kind.hasRightAnswer ? credits.count(where: \.isPartial) : 0,
                           commonWrongAnswers: Array(common.prefix(wrongAnswersListed)))
    }
}

/// Each stored answer decoded once: a report reads an answer per player and question, and a
/// class gives the same few, so decoding each row (JSON) was most of a report's time.
struct StoredAnswers {
    private let byText: [String: GivenAnswer]

    init(_ answers: [AssignmentAnswerRecord]) {
        var byText: [String: GivenAnswer] = [:]
        for text in Set(answers.compactMap(\.answer)) { byText[text] = GivenAnswer(stored: text) }
        self.byText = byText
    }

    func given(_ text: String) -> GivenAnswer? { byText[text] }

    /// As `AssignmentAnswerRecord.credit`.
    func credit(_ answer: AssignmentAnswerRecord) -> Credit {
        answer.answer.flatMap { byText[$0] }?.credit(correct: answer.correct) ?? .none
    }
}
