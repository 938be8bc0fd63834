import Foundation
import QuizCore
import QuizStore

/// The owner's side: setting an assignment, listing theirs, and moving its close.
extension Assignments {
    /// What an owner fills in; `title` nil takes the quiz's, `opensAt` nil is now; `classId`
    /// sets it to a class of the owner's (its students only, signed in).
    package struct Draft: Sendable, Equatable {
        package var quizId: Int64
        package var title: String?
        package var opensAt: Date?
        package var closesAt: Date
        package var settings: AssignmentSettings
        package var classId: Int64?

        package init(quizId: Int64, title: String? = nil, opensAt: Date? = nil, closesAt: Date, settings: AssignmentSettings = AssignmentSettings(),
                     classId: Int64? = nil) {
            (self.quizId, self.title, self.opensAt, self.closesAt, self.settings) = (quizId, title, opensAt, closesAt, settings)
            self.classId = classId
        }
    }

    /// Kinds an assignment plays: every kind a quiz holds (name-them-all is a game of its own).
    static func plays(_ question: Question) -> Bool { question.kind != .nameAll }

    /// A new assignment of a quiz `user` may host (as a live game), with a code of its own.
    package func create(_ draft: Draft, user: User) async throws(Failure) -> Assignment {
        let now = time.now()
        return try await storing("creating an assignment") {
            guard let quiz = try await store.quiz(id: draft.quizId), quiz.mayBeHosted(by: user) else { throw Failure.quizNotFound }
            // Only the class's owner assigns to it; another's class is as good as none.
            if let classId = draft.classId, try await store.schoolClass(id: classId)?.ownerUserId != user.id { throw Failure.notInClass }
            let questions = try await store.questions(quizId: quiz.id).filter(Self.plays)
            guard !questions.isEmpty else { throw Failure.noPlayableQuestions }
            var assignment = Assignment(code: "", quizId: quiz.id, ownerUserId: user.id,
                                        title: (draft.title ?? quiz.title).trimmingCharacters(in: .whitespacesAndNewlines),
                                        questionIds: questions.compactMap(\.id), opensAt: draft.opensAt ?? now, closesAt: draft.closesAt,
                                        settings: draft.settings, createdAt: now, classId: draft.classId)
            let problems = assignment.validationErrors(now: now)
            guard problems.isEmpty else { throw Failure.invalid(problems) }
            // Codes are unique among every assignment: draw again when one is taken.
            for _ in 0..<20 {
                assignment.code = String(Int.random(in: Assignment.codes))
                if let created = try await store.createAssignment(assignment) { return created }
            }
            throw Failure.notNow
        }
    }

    /// "My assignments": the owner's, newest first, with how many joined and finished.
    package func mine(userId: Int64) async throws(Failure) -> [AssignmentSummary] {
        try await storing("listing assignments") { try await store.assignments(ownerUserId: userId, limit: Self.listLimit, at: time.now()) }
    }

    /// The owner's assignment; anyone else's is `assignmentNotFound`.
    package func owned(id: Int64, userId: Int64) async throws(Failure) -> Assignment {
        try await storing("reading an assignment") {
            guard let assignment = try await store.assignment(id: id), assignment.ownerUserId == userId else {
                throw Failure.assignmentNotFound
            }
            return assignment
        }
    }

    /// Closes it now: nothing more is taken, attempts in progress keep what they answered.
    package func closeNow(id: Int64, userId: Int64) async throws(Failure) -> Assignment {
        var assignment = try await owned(id: id, userId: userId)
        let now = time.now()
        guard assignment.window(at: now) != .closed else { return assignment }
        assignment.closesAt = now
        // Not yet open: it opens and closes at once, so the window stays well-formed.
        assignment.opensAt = min(assignment.opensAt, now)
        return try await save(window: assignment)
    }

    /// Moves the close to `closesAt`, which must be later than now; a closed assignment opens
    /// again (an attempt the close cut off carries on).
    package func extend(id: Int64, userId: Int64, closesAt: Date) async throws(Failure) -> Assignment {
        var assignment = try await owned(id: id, userId: userId)
        assignment.closesAt = closesAt
        let problems = assignment.validationErrors(now: time.now()).filter { $0.field == "closesAt" }
        guard problems.isEmpty else { throw .invalid(problems) }
        return try await save(window: assignment)
    }

    /// Opens a closed assignment again until `closesAt` (the same as `extend`).
    package func reopen(id: Int64, userId: Int64, closesAt: Date) async throws(Failure) -> Assignment {
        try await extend(id: id, userId: userId, closesAt: closesAt)
    }

    private func save(window assignment: Assignment) async throws(Failure) -> Assignment {
        try await storing("moving an assignment's window") {
            try await store.setAssignmentWindow(id: assignment.id, opensAt: assignment.opensAt, closesAt: assignment.closesAt)
            return assignment
        }
    }
}
