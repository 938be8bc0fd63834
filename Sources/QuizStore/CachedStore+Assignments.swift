import Foundation
import QuizCore

/// An assignment and a player by id, and a player's attempts, are cached (every question and
/// answer of every player reads them); moving a window, replacing a secret, starting or finishing
/// an attempt drops them here and, through the change counters, on other instances before their
/// next read. The rest (answers, reports) goes to the SQL. A finish that added leaderboard points drops the ranking, as a quiz's does.
extension CachedStore: AssignmentStore {
    public func createAssignment(_ assignment: Assignment) async throws -> Assignment? { try await sql.createAssignment(assignment) }
    public func assignment(id: Int64) async throws -> Assignment? {
        try await refreshCaches()
        return try await caches.assignments.value(for: id) { [sql] in try await sql.assignment(id: id) }
    }
    public func assignment(code: String) async throws -> Assignment? { try await sql.assignment(code: code) }

    public func assignments(ownerUserId: Int64, limit: Int, at now: Date) async throws -> [AssignmentSummary] {
        try await sql.assignments(ownerUserId: ownerUserId, limit: limit, at: now)
    }

    public func setAssignmentWindow(id: Int64, opensAt: Date, closesAt: Date) async throws {
        try await changing(.play) { try await sql.setAssignmentWindow(id: id, opensAt: opensAt, closesAt: closesAt) }
    }

    public func addAssignmentPlayer(_ player: AssignmentPlayerRecord) async throws -> AssignmentPlayerRecord? {
        try await sql.addAssignmentPlayer(player)
    }

    public func assignmentPlayer(id: Int64) async throws -> AssignmentPlayerRecord? {
        try await refreshCaches()
        return try await caches.assignmentPlayers.value(for: id) { [sql] in try await sql.assignmentPlayer(id: id) }
    }

    public func assignmentPlayer(assignmentId: Int64, userId: Int64) async throws -> AssignmentPlayerRecord? {
        try await sql.assignmentPlayer(assignmentId: assignmentId, userId: userId)
    }

    public func assignmentPlayer(assignmentId: Int64, nickname: String) async throws -> AssignmentPlayerRecord? {
        try await sql.assignmentPlayer(assignmentId: assignmentId, nickname: nickname)
    }

    public func assignmentPlayers(assignmentId: Int64) async throws -> [AssignmentPlayerRecord] {
        try await sql.assignmentPlayers(assignmentId: assignmentId)
    }

    public func replaceAssignmentSecret(playerId: Int64, secretHash: String) async throws {
        try await changing(.play) { try await sql.replaceAssignmentSecret(playerId: playerId, secretHash: secretHash) }
    }

    public func startAssignmentAttempt(playerId: Int64, questionIds: [Int64], maxMarks: Int, allowed: Int, at date: Date) async throws
        -> AssignmentAttemptRecord? {
        defer { caches.playerAttempts.remove(playerId) }
        let started = try await sql.startAssignmentAttempt(playerId: playerId, questionIds: questionIds, maxMarks: maxMarks,
                                                           allowed: allowed, at: date)
        try await caches.tracker?.publish(.play)
        return started
    }

    public func assignmentAttempt(id: Int64) async throws -> AssignmentAttemptRecord? { try await sql.assignmentAttempt(id: id) }

    public func assignmentAttempts(playerId: Int64) async throws -> [AssignmentAttemptRecord] {
        try await refreshCaches()
        return try await caches.playerAttempts.value(for: playerId) { [sql] in try await sql.assignmentAttempts(playerId: playerId) } ?? []
    }

    public func assignmentAttempts(assignmentId: Int64) async throws -> [AssignmentAttemptRecord] {
        try await sql.assignmentAttempts(assignmentId: assignmentId)
    }

    public func showAssignmentQuestion(attemptId: Int64, position: Int, questionId: Int64, at date: Date) async throws -> Date {
        try await sql.showAssignmentQuestion(attemptId: attemptId, position: position, questionId: questionId, at: date)
    }

    public func recordAssignmentAnswer(attemptId: Int64, position: Int, answer: String, correct: Bool, marks: Int, at date: Date) async throws
        -> AssignmentAnswerOutcome {
        try await sql.recordAssignmentAnswer(attemptId: attemptId, position: position, answer: answer, correct: correct, marks: marks, at: date)
    }

    public func finishAssignmentAttempt(id: Int64, at date: Date, pointsTo userId: Int64?) async throws -> Int64? {
        let added: Int64?
        do {
            added = try await sql.finishAssignmentAttempt(id: id, at: date, pointsTo: userId)
        } catch {
            caches.playerAttempts.removeAll()
            throw error
        }
        // The player's attempts now have this one finished (an attempt's player never changes).
        if let playerId = try await sql.assignmentAttempt(id: id)?.playerId {
            caches.playerAttempts.remove(playerId)
        } else {
            caches.playerAttempts.removeAll()
        }
        try await caches.tracker?.publish(.play)
        // After the commit, so no reader caches the total from before it.
        if let userId, let added, added > 0 { try await totalChanged(userId: userId) }
        return added
    }

    public func assignmentAnswers(attemptId: Int64) async throws -> [AssignmentAnswerRecord] {
        try await sql.assignmentAnswers(attemptId: attemptId)
    }

    public func assignmentAnswers(assignmentId: Int64) async throws -> [AssignmentAnswerRecord] {
        try await sql.assignmentAnswers(assignmentId: assignmentId)
    }
}
