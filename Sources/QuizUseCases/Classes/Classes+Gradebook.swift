import Foundation
import QuizCore
import QuizStore

/// A class as its owner and its students see it, and its gradebook: the owner every row, a
/// student only their own (never another's grade, nor the class's averages).
extension Classes {
    package struct View: Sendable, Equatable {
        package var schoolClass: SchoolClass
        /// The one asking teaches it (else they are a student of it).
        package var isOwner: Bool
        /// The students, by username; empty for a student.
        package var members: [ClassMember]
        /// Oldest close first.
        package var assignments: [Assignment]
        /// Every row for the owner, the student's own otherwise.
        package var gradebook: Gradebook
    }

    /// The class, for its owner or a student of it; anyone else gets `classNotFound`.
    package func view(id: Int64, userId: Int64) async throws(Failure) -> View {
        let now = time.now()
        return try await storing("reading a class") {
            guard let schoolClass = try await store.schoolClass(id: id) else { throw Failure.classNotFound }
            let isOwner = schoolClass.ownerUserId == userId
            if !isOwner, !(try await store.isClassMember(classId: id, userId: userId)) { throw Failure.classNotFound }
            let assignments = try await store.classAssignments(classId: id)
            let members = try await store.classMembers(classId: id)
            let attempts = try await store.gradebookAttempts(classId: id)
            let book = Self.gradebook(assignments: assignments, members: members, attempts: attempts, at: now)
            return View(schoolClass: schoolClass, isOwner: isOwner, members: isOwner ? members : [], assignments: assignments,
                        gradebook: isOwner ? book : book.only(userId: userId))
        }
    }

    /// The gradebook alone (what the downloads write).
    package func gradebook(id: Int64, userId: Int64) async throws(Failure) -> (SchoolClass, Gradebook) {
        let view = try await view(id: id, userId: userId)
        return (view.schoolClass, view.gradebook)
    }

    /// Each member's grade for each assignment by its rule, over their attempts that are over at `now`.
    static func gradebook(assignments: [Assignment], members: [ClassMember], attempts: [GradebookAttemptRecord], at now: Date) -> Gradebook {
        let byId = Dictionary(uniqueKeysWithValues: assignments.map { ($0.id, $0) })
        var graded: [Int64: [Int64: [GradedAttempt]]] = [:]
        for attempt in attempts {
            guard let assignment = byId[attempt.assignmentId], assignment.isOver(finishedAt: attempt.finishedAt, at: now) else { continue }
            graded[attempt.userId, default: [:]][attempt.assignmentId, default: []]
                .append(GradedAttempt(number: attempt.number, marks: attempt.marks, maxMarks: attempt.maxMarks))
        }
        var grades: [Int64: [Int64: Double]] = [:]
        for (userId, theirs) in graded {
            for (assignmentId, list) in theirs {
                grades[userId, default: [:]][assignmentId] = byId[assignmentId]?.settings.grading.grade(list)
            }
        }
        return Gradebook(columns: assignments.map(Gradebook.Column.init), students: members, grades: grades)
    }
}
