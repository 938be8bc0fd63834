import Foundation
import QuizCore

/// "My classes": one with how many students and assignments it has.
public struct ClassSummary: Sendable, Equatable {
    public var schoolClass: SchoolClass
    public var members: Int
    public var assignments: Int

    public init(schoolClass: SchoolClass, members: Int, assignments: Int) {
        (self.schoolClass, self.members, self.assignments) = (schoolClass, members, assignments)
    }
}

/// A class assignment on a student's list, with how far they got in it.
public struct DueAssignmentRecord: Sendable, Equatable {
    public var assignment: Assignment
    public var className: String
    /// They have finished an attempt.
    public var finished: Bool
    /// They have started an attempt (an attempt cut off by the close is over: `Assignment.isOver`).
    public var started: Bool

    public init(assignment: Assignment, className: String, finished: Bool, started: Bool) {
        (self.assignment, self.className, self.finished, self.started) = (assignment, className, finished, started)
    }
}

/// One attempt of a class member at a class assignment, as the gradebook needs it: its marks as
/// the attempt keeps them (added to with each answer), so a class of 500 over 50 assignments is
/// one query over 25,000 rows, not one per cell nor a sum over every answer.
public struct GradebookAttemptRecord: Sendable, Equatable {
    public var assignmentId: Int64
    public var userId: Int64
    public var number: Int
    public var marks: Int
    public var maxMarks: Int
    public var finishedAt: Date?

    public init(assignmentId: Int64, userId: Int64, number: Int, marks: Int, maxMarks: Int, finishedAt: Date?) {
        (self.assignmentId, self.userId, self.number, self.marks, self.maxMarks, self.finishedAt) = (assignmentId, userId, number, marks, maxMarks, finishedAt)
    }
}

public protocol ClassStore: Sendable {
    /// nil when another class has the code.
    func createClass(_ schoolClass: SchoolClass) async throws -> SchoolClass?
    func schoolClass(id: Int64) async throws -> SchoolClass?
    func schoolClass(code: String) async throws -> SchoolClass?
    /// The owner's, newest first.
    func classes(ownerUserId: Int64, limit: Int) async throws -> [ClassSummary]
    /// The classes a student is in, by name.
    func classes(memberUserId: Int64, limit: Int) async throws -> [SchoolClass]
    func renameClass(id: Int64, name: String) async throws
    func setClassJoining(id: Int64, open: Bool) async throws

    /// false when they were a member already.
    func addClassMember(classId: Int64, userId: Int64, at date: Date) async throws -> Bool
    /// false when they were not a member.
    func removeClassMember(classId: Int64, userId: Int64) async throws -> Bool
    func isClassMember(classId: Int64, userId: Int64) async throws -> Bool
    /// By username.
    func classMembers(classId: Int64) async throws -> [ClassMember]

    /// The class's assignments, oldest close first.
    func classAssignments(classId: Int64) async throws -> [Assignment]
    /// The assignments of every class `userId` is in that close at or after `since`, with how far they got.
    func dueAssignments(userId: Int64, since: Date, limit: Int) async throws -> [DueAssignmentRecord]
    /// Every attempt of the class's current members at its assignments, with its marks.
    func gradebookAttempts(classId: Int64) async throws -> [GradebookAttemptRecord]
}
