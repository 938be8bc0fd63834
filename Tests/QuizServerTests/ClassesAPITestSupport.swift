import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizStore
import Testing

extension TestClientProtocol {
    /// The signed-in user's id, as GET /me gives it.
    func userId(_ token: String) async throws -> Int64 {
        try #require((try await call(.get, "/api/v1/me", token: token)["id"] as? Int).map(Int64.init))
    }
}

/// An assignment of the first quiz set to `classId`, open from now for `closesIn` seconds, with
/// one finished attempt per `(userId, username, marks)` out of 4,000: a grade of marks / 4,000.
@discardableResult
func classAssignment(_ env: TestEnvironment, classId: Int64, owner: Int64, code: String, title: String, closesIn: TimeInterval = 3600,
                     attempts: [(userId: Int64, username: String, marks: Int)]) async throws -> Assignment {
    let store = env.store
    let now = env.time.now()
    let quizId = try #require(try await store.allQuizzes().first?.quiz.id)
    let questions = try await store.questions(quizId: quizId).compactMap(\.id)
    let assignment = try #require(try await store.createAssignment(Assignment(
        code: code, quizId: quizId, ownerUserId: owner, title: title, questionIds: questions, opensAt: now, closesAt: now + closesIn,
        createdAt: now, classId: classId)))
    for (userId, username, marks) in attempts {
        let player = try #require(try await store.addAssignmentPlayer(AssignmentPlayerRecord(
            assignmentId: assignment.id, nickname: username, userId: userId, secretHash: "s", codeHash: "c", joinedAt: now)))
        let attempt = try #require(try await store.startAssignmentAttempt(playerId: player.id, questionIds: questions, maxMarks: 4_000,
                                                                          allowed: 1, at: now))
        _ = try await store.showAssignmentQuestion(attemptId: attempt.id, position: 0, questionId: questions[0], at: now)
        _ = try await store.recordAssignmentAnswer(attemptId: attempt.id, position: 0, answer: "{}", correct: marks > 0, marks: marks, at: now)
        _ = try await store.finishAssignmentAttempt(id: attempt.id, at: now, pointsTo: nil)
    }
    return assignment
}
