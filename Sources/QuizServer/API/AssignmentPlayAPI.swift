import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

/// Playing an assignment over the API (`Assignments`, the players' side), with or without an
/// account. Joining gives a player id and a secret; every `/play` request then proves who it is
/// with `X-Assignment-Player: playerId:secret`, or, for a player who joined signed in, with their
/// session (`pass`). Nothing a player is sent before answering carries the right answer.
struct AssignmentPlayAPI: Sendable {
    let assignments: Assignments
    let signedIn: APIGroup<SignedInCaller>
    let time: any TimeSource

    func joinAssignment(_ input: Operations.JoinAssignment.Input) async throws -> Operations.JoinAssignment.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        // Signed in: under the username. A credential that is no longer valid is refused rather
        // than ignored, so nobody joins under a nickname thinking they are signed in.
        let user = RequestCredential.current == nil ? nil : try await signedIn.caller().user
        let joined = try await playing(joining: true) {
            try await assignments.join(code: body.code, nickname: body.nickname ?? "", user: user, address: ClientAddress.current)
        }
        return .created(.init(body: .json(.init(joined, at: time.now()))))
    }

    func resumeAssignment(_ input: Operations.ResumeAssignment.Input) async throws -> Operations.ResumeAssignment.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let joined = try await playing {
            try await assignments.resume(playerId: body.playerId, secret: body.secret, address: ClientAddress.current)
        }
        return .ok(.init(body: .json(.init(joined, at: time.now()))))
    }

    func rejoinAssignment(_ input: Operations.RejoinAssignment.Input) async throws -> Operations.RejoinAssignment.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let joined = try await playing(joining: true) {
            try await assignments.rejoin(code: body.code, nickname: body.nickname, rejoinCode: body.rejoinCode, address: ClientAddress.current)
        }
        return .ok(.init(body: .json(.init(joined, at: time.now()))))
    }

    func getAssignmentStanding(_ input: Operations.GetAssignmentStanding.Input) async throws -> Operations.GetAssignmentStanding.Output {
        let pass = try await pass(input.headers.xAssignmentPlayer)
        let standing = try await playing { try await assignments.standing(pass, assignmentId: input.path.assignmentId) }
        let now = time.now()
        return .ok(.init(body: .json(.init(
            assignment: .init(standing.assignment, at: now), nickname: standing.nickname, signedIn: standing.userId != nil,
            attempts: standing.attempts.map { .init($0, of: standing.assignment, at: now) }, current: standing.current?.number,
            attemptsLeft: standing.attemptsLeft))))
    }

    func startAssignmentAttempt(_ input: Operations.StartAssignmentAttempt.Input) async throws -> Operations.StartAssignmentAttempt.Output {
        let pass = try await pass(input.headers.xAssignmentPlayer)
        let attempt = try await playing { try await assignments.start(pass, assignmentId: input.path.assignmentId) }
        return .ok(.init(body: .json(.init(number: attempt.number, startedAt: attempt.startedAt, finishedAt: attempt.finishedAt,
                                           over: attempt.finishedAt != nil))))
    }

    /// The question through the same writer as solo play's (`Question(presented:)`), which lists
    /// a matching's prompts and answers apart and a gap fill's choices without their credit: the
    /// use case's `unrevealed` keeps those in the body, so this writer is what keeps them from the wire.
    func getAssignmentQuestion(_ input: Operations.GetAssignmentQuestion.Input) async throws -> Operations.GetAssignmentQuestion.Output {
        let pass = try await pass(input.headers.xAssignmentPlayer)
        let next = try await playing { try await assignments.next(pass, assignmentId: input.path.assignmentId) }
        switch next {
        case .done(let attemptId):
            return .ok(.init(body: .json(.init(done: true, attemptId: attemptId))))
        case .question(let view):
            return .ok(.init(body: .json(.init(
                done: false, attemptId: view.attemptId, position: view.position + 1, count: view.count,
                question: .init(presented: view.question, position: view.position + 1), shownAt: view.shownAt,
                deadline: view.deadline, secondsLeft: view.secondsLeft))))
        }
    }

    func answerAssignmentQuestion(_ input: Operations.AnswerAssignmentQuestion.Input) async throws -> Operations.AnswerAssignmentQuestion.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        guard body.position >= 1 else {
            throw APIError(.unprocessableContent, "invalid_position", "position counts from 1, as the question was shown.", field: "position")
        }
        let pass = try await pass(input.headers.xAssignmentPlayer)
        let answered = try await playing {
            try await assignments.answer(AnswerInput(body.answer), position: body.position - 1, pass, assignmentId: input.path.assignmentId)
        }
        return .ok(.init(body: .json(.init(position: answered.position + 1, feedback: answered.feedback.map {
            .init(verdict: .init($0.verdict), credit: $0.credit.value, points: Self.points($0.marks),
                  correctAnswer: .init($0.question.correctAnswer), explanation: $0.question.explanation)
        }))))
    }

    func finishAssignmentAttempt(_ input: Operations.FinishAssignmentAttempt.Input) async throws -> Operations.FinishAssignmentAttempt.Output {
        let pass = try await pass(input.headers.xAssignmentPlayer)
        let result = try await playing { try await assignments.finish(pass, assignmentId: input.path.assignmentId) }
        return .ok(.init(body: .json(.init(result, at: time.now()))))
    }

    func getAssignmentResult(_ input: Operations.GetAssignmentResult.Input) async throws -> Operations.GetAssignmentResult.Output {
        let pass = try await pass(input.headers.xAssignmentPlayer)
        let result = try await playing {
            try await assignments.result(pass, assignmentId: input.path.assignmentId, attempt: input.query.attempt)
        }
        return .ok(.init(body: .json(.init(result, at: time.now()))))
    }

    // MARK: Helpers

    /// Who is playing: the `X-Assignment-Player` header when sent, else the signed-in session.
    func pass(_ header: String?) async throws -> Assignments.Pass {
        guard let header else {
            guard RequestCredential.current != nil else { throw APIError.noPlayer }
            return .user(try await signedIn.caller().user.id)
        }
        let parts = header.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let id = Int64(parts[0].trimmingCharacters(in: .whitespaces)), !parts[1].isEmpty else {
            throw APIError.invalidPlayer
        }
        return .secret(playerId: id, secret: parts[1].trimmingCharacters(in: .whitespaces))
    }

    static func points(_ marks: Int) -> Double { Double(marks) / Double(Marks.perPoint) }

    private func playing<T>(joining: Bool = false, _ body: () async throws -> T) async throws -> T {
        try await APIError.translating({ (failure: Assignments.Failure) in APIError(failure, joining: joining) }, body)
    }
}

extension APIError {
    static let noPlayer = APIError(.unauthorized, "unauthenticated",
                                   "Send X-Assignment-Player: playerId:secret as joining gave them, or sign in as the player who joined.")
    static let invalidPlayer = APIError(.unauthorized, "invalid_player", "X-Assignment-Player is playerId:secret, as joining gave them.")
}
