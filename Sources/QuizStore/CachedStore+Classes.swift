import Foundation
import QuizCore

/// Classes are not cached: a class page, a join and a gradebook read their own rows, and a
/// member removed on one instance must be out on every other at once.
extension CachedStore: ClassStore {
    public func createClass(_ schoolClass: SchoolClass) async throws -> SchoolClass? { try await sql.createClass(schoolClass) }
    public func schoolClass(id: Int64) async throws -> SchoolClass? { try await sql.schoolClass(id: id) }
    public func schoolClass(code: String) async throws -> SchoolClass? { try await sql.schoolClass(code: code) }

    public func classes(ownerUserId: Int64, limit: Int) async throws -> [ClassSummary] {
        try await sql.classes(ownerUserId: ownerUserId, limit: limit)
    }

    public func classes(memberUserId: Int64, limit: Int) async throws -> [SchoolClass] {
        try await sql.classes(memberUserId: memberUserId, limit: limit)
    }

    public func renameClass(id: Int64, name: String) async throws { try await sql.renameClass(id: id, name: name) }
    public func setClassJoining(id: Int64, open: Bool) async throws { try await sql.setClassJoining(id: id, open: open) }

    public func addClassMember(classId: Int64, userId: Int64, at date: Date) async throws -> Bool {
        try await sql.addClassMember(classId: classId, userId: userId, at: date)
    }

    public func removeClassMember(classId: Int64, userId: Int64) async throws -> Bool {
        try await sql.removeClassMember(classId: classId, userId: userId)
    }

    public func isClassMember(classId: Int64, userId: Int64) async throws -> Bool {
        try await sql.isClassMember(classId: classId, userId: userId)
    }

    public func classMembers(classId: Int64) async throws -> [ClassMember] { try await sql.classMembers(classId: classId) }
    public func classAssignments(classId: Int64) async throws -> [Assignment] { try await sql.classAssignments(classId: classId) }

    public func dueAssignments(userId: Int64, since: Date, limit: Int) async throws -> [DueAssignmentRecord] {
        try await sql.dueAssignments(userId: userId, since: since, limit: limit)
    }

    public func gradebookAttempts(classId: Int64) async throws -> [GradebookAttemptRecord] {
        try await sql.gradebookAttempts(classId: classId)
    }
}
