import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

// Assignments, domain → wire for players, and their failures as the API's errors. What a player
// is sent before answering goes through `Question(presented:)`, which writes no right answer.

extension Components.Schemas.AssignmentForPlayer {
    init(_ assignment: Assignment, at now: Date) {
        let settings = assignment.settings
        self.init(id: assignment.id, code: assignment.code, title: assignment.title, questionCount: assignment.questionIds.count,
                  opensAt: assignment.opensAt, closesAt: assignment.closesAt, window: .init(assignment.window(at: now)),
                  attemptsAllowed: settings.attemptsAllowed, timing: .init(rawValue: settings.timing.rawValue) ?? Components.Schemas.AssignmentTiming.none,
                  speedPoints: settings.speedPoints, answersShown: .init(rawValue: settings.answersShown.rawValue) ?? .afterFinishing)
    }
}

extension Components.Schemas.AssignmentJoined {
    init(_ joined: Assignments.Joined, at now: Date) {
        self.init(assignment: .init(joined.assignment, at: now), playerId: joined.playerId, nickname: joined.nickname,
                  secret: joined.secret, playerHeader: "\(joined.playerId):\(joined.secret)", rejoinCode: joined.code)
    }
}

extension Components.Schemas.AssignmentAttemptInfo {
    init(_ attempt: AssignmentAttemptRecord, of assignment: Assignment, at now: Date) {
        self.init(number: attempt.number, startedAt: attempt.startedAt, finishedAt: attempt.finishedAt,
                  over: assignment.isOver(finishedAt: attempt.finishedAt, at: now))
    }
}

extension Components.Schemas.AssignmentResult {
    /// Verdicts, credits, points and right answers only when the result says they are shown.
    init(_ result: Assignments.Result, at now: Date) {
        let shown = result.answersShown
        self.init(
            assignment: .init(result.assignment, at: now), grade: result.grade,
            attempts: result.attempts.map {
                .init(number: $0.number, points: AssignmentPlayAPI.points($0.marks), maxPoints: AssignmentPlayAPI.points($0.maxMarks),
                      grade: $0.grade, timeTakenSeconds: $0.timeTaken)
            },
            attemptsLeft: result.attemptsLeft, attempt: result.number, answersShown: shown, pointsAdded: result.pointsAdded,
            lines: result.lines.map { line in
                .init(position: line.position + 1, question: .init(presented: line.question, position: line.position + 1),
                      given: line.given.flatMap { line.question.display($0) }, verdict: line.verdict.map { .init($0) },
                      credit: line.credit?.value, points: line.marks.map(AssignmentPlayAPI.points),
                      correctAnswer: shown ? .init(line.question.correctAnswer) : nil, explanation: shown ? line.question.explanation : nil)
            })
    }
}

extension APIError {
    /// `joining`: the code was the player's to type, so an unknown one names the field.
    init(_ failure: Assignments.Failure, joining: Bool = false) {
        switch failure {
        case .quizNotFound:
            self.init(.notFound, "not_found", "No quiz with that id that you may host.", field: "quizId")
        case .noPlayableQuestions:
            self.init(.unprocessableContent, "no_questions", "This quiz has no question an assignment can play.", field: "quizId")
        case .invalid(let problems):
            let first = problems.first
            self.init(.unprocessableContent, "invalid_assignment",
                      problems.map { "\($0.field) \($0.message)" }.joined(separator: "; ") + ".", field: first?.field,
                      problems: problems.map { FormatProblem(path: $0.field, message: $0.message) })
        case .assignmentNotFound:
            self = joining ? APIError(.notFound, "not_found", "No assignment with that code.", field: "code") : .notFound("assignment of yours")
        case .rateLimited:
            self.init(.tooManyRequests, "rate_limited", "Too many tries from your address: wait a minute.")
            retryAfter = 60
        case .nicknameInvalid:
            self.init(.unprocessableContent, "invalid_nickname",
                      "A nickname is 1 to \(Nickname.characters.upperBound) characters, with something visible in it.", field: "nickname")
        case .nicknameTaken:
            self.init(.conflict, "nickname_taken", "Someone in this assignment has that nickname: choose another.", field: "nickname")
        case .notResumable:
            self.init(.forbidden, "not_a_player", "You are not a player of this assignment: join it with its code first.")
        case .badRejoin:
            self.init(.forbidden, "bad_rejoin", "No player of this assignment has that nickname and rejoin code.", field: "rejoinCode")
        case .notOpen:
            self.init(.forbidden, "not_open", "This assignment is not open yet: it opens at its opensAt.")
        case .closed:
            self.init(.forbidden, "closed", "This assignment is closed: nothing more is taken.")
        case .noAttemptsLeft:
            self.init(.conflict, "no_attempts_left", "You have made every attempt this assignment allows.")
        case .noAttempt:
            self.init(.conflict, "no_attempt", "No attempt is being played: start one (POST …/play/attempts).")
        case .notShown:
            self.init(.conflict, "question_not_shown", "Answer the question you were shown: get it first (GET …/play/question).",
                      field: "position")
        case .timeUp:
            self.init(.conflict, "time_up", "This question's time is up: its answer was not taken.")
        case .alreadyAnswered:
            self.init(.conflict, "already_answered", "This question has its answer already: the first one stands.", field: "position")
        case .badAnswer(let problem):
            self.init(problem)
        case .signInRequired:
            self.init(.unauthorized, "sign_in_required", "This assignment is for a class: sign in as one of its students to join.")
        case .notInClass:
            self.init(.forbidden, "not_in_class", "This assignment is for a class you are not a student of (or, assigning, a class that is not yours).",
                      field: joining ? nil : "classId")
        case .notFinished:
            self.init(.conflict, "not_finished", "Results come once an attempt is over: finish the one being played first.")
        case .notNow:
            self.init(.serviceUnavailable, "unavailable", "That could not be done just now; try again in a moment.")
            retryAfter = 5
        }
    }
}
