import Foundation
import QuizCore
import QuizStore
import QuizTestSupport
import Testing

/// Classes, their members, class assignments, the due list and the gradebook's attempts, on every database.
@Suite struct ClassStoreTests {
    private struct Setup {
        let store: SQLStore
        let quizId: Int64
        let teacher: Int64
        let ann: Int64
        let bob: Int64
    }

    private func setUp(_ cached: CachedStore) async throws -> Setup {
        _ = try await cached.importBank(binaryQuizBank(), at: t0)
        return Setup(store: cached.sql, quizId: try await firstQuizId(cached), teacher: try await cached.createUser(newUser("teacher")).id,
                     ann: try await cached.createUser(newUser("ann")).id, bob: try await cached.createUser(newUser("Bob")).id)
    }

    @Test(arguments: DatabaseKind.available)
    func aClassIsReadBackByIdAndCodeAndItsCodeIsItsOwn(kind: DatabaseKind) async throws {
        try await withStore(kind) { cached in
            let s = try await setUp(cached)
            let draft = SchoolClass(code: "246810", ownerUserId: s.teacher, name: "7B maths", createdAt: t0)
            let created = try #require(try await s.store.createClass(draft))
            #expect(created.id > 0 && created.joiningOpen)
            #expect(try await s.store.schoolClass(id: created.id) == created)
            #expect(try await s.store.schoolClass(code: "246810") == created)
            #expect(try await s.store.createClass(draft) == nil, "the code is taken")
            try await s.store.renameClass(id: created.id, name: "7B")
            try await s.store.setClassJoining(id: created.id, open: false)
            let changed = try #require(try await s.store.schoolClass(id: created.id))
            #expect(changed.name == "7B" && !changed.joiningOpen)
            #expect(try await s.store.classes(ownerUserId: s.teacher, limit: 10).map(\.schoolClass) == [changed])
            #expect(try await s.store.classes(ownerUserId: s.ann, limit: 10).isEmpty)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func membersJoinOnceAreListedByUsernameAndCanBeRemoved(kind: DatabaseKind) async throws {
        try await withStore(kind) { cached in
            let s = try await setUp(cached)
            let schoolClass = try #require(try await s.store.createClass(SchoolClass(code: "111111", ownerUserId: s.teacher, name: "A", createdAt: t0)))
            #expect(try await s.store.addClassMember(classId: schoolClass.id, userId: s.bob, at: t0 + 1))
            #expect(try await s.store.addClassMember(classId: schoolClass.id, userId: s.ann, at: t0 + 2))
            #expect(try await s.store.addClassMember(classId: schoolClass.id, userId: s.ann, at: t0 + 3) == false, "already a member")
            #expect(try await s.store.classMembers(classId: schoolClass.id) == [
                ClassMember(userId: s.ann, username: "ann", joinedAt: t0 + 2), ClassMember(userId: s.bob, username: "Bob", joinedAt: t0 + 1),
            ])
            #expect(try await s.store.isClassMember(classId: schoolClass.id, userId: s.ann))
            #expect(try await s.store.classes(memberUserId: s.ann, limit: 10) == [schoolClass])
            #expect(try await s.store.classes(ownerUserId: s.teacher, limit: 10).first?.members == 2)
            #expect(try await s.store.removeClassMember(classId: schoolClass.id, userId: s.ann))
            #expect(try await s.store.removeClassMember(classId: schoolClass.id, userId: s.ann) == false)
            #expect(try await s.store.isClassMember(classId: schoolClass.id, userId: s.ann) == false)
            #expect(try await s.store.classes(memberUserId: s.ann, limit: 10).isEmpty)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aClassAssignmentIsOnItsStudentsDueListWithWhetherTheyFinished(kind: DatabaseKind) async throws {
        try await withStore(kind) { cached in
            let s = try await setUp(cached)
            let schoolClass = try #require(try await s.store.createClass(SchoolClass(code: "222222", ownerUserId: s.teacher, name: "B", createdAt: t0)))
            _ = try await s.store.addClassMember(classId: schoolClass.id, userId: s.ann, at: t0)
            let questions = try await s.store.questions(quizId: s.quizId).compactMap(\.id)
            func assign(_ code: String, closes: TimeInterval, classId: Int64?) async throws -> Assignment {
                try #require(try await s.store.createAssignment(Assignment(code: code, quizId: s.quizId, ownerUserId: s.teacher, title: code,
                                                                           questionIds: questions, opensAt: t0, closesAt: t0 + closes,
                                                                           createdAt: t0, classId: classId)))
            }
            let late = try await assign("300002", closes: 7200, classId: schoolClass.id)
            let soon = try await assign("300001", closes: 3600, classId: schoolClass.id)
            let old = try await assign("300003", closes: 60, classId: schoolClass.id)
            _ = try await assign("300004", closes: 3600, classId: nil)
            #expect(try await s.store.assignment(id: soon.id)?.classId == schoolClass.id)
            #expect(try await s.store.classAssignments(classId: schoolClass.id).map(\.id) == [old.id, soon.id, late.id])
            #expect(try await s.store.classes(ownerUserId: s.teacher, limit: 10).first?.assignments == 3)
            let player = try #require(try await s.store.addAssignmentPlayer(AssignmentPlayerRecord(
                assignmentId: soon.id, nickname: "ann", userId: s.ann, secretHash: "s", codeHash: "c", joinedAt: t0)))
            let attempt = try #require(try await s.store.startAssignmentAttempt(playerId: player.id, questionIds: questions, maxMarks: 31_000,
                                                                                allowed: 1, at: t0))
            var due = try await s.store.dueAssignments(userId: s.ann, since: t0 + 120, limit: 10)
            #expect(due.map(\.assignment.id) == [soon.id, late.id], "the one closed before `since` is left out, the class-less one too")
            #expect(due.map(\.started) == [true, false] && due.map(\.finished) == [false, false] && due.first?.className == "B")
            _ = try await s.store.finishAssignmentAttempt(id: attempt.id, at: t0 + 30, pointsTo: nil)
            due = try await s.store.dueAssignments(userId: s.ann, since: t0 + 120, limit: 10)
            #expect(due.map(\.finished) == [true, false])
            #expect(try await s.store.dueAssignments(userId: s.bob, since: t0, limit: 10).isEmpty, "not in the class")
        }
    }

    @Test(arguments: DatabaseKind.available)
    func theGradebookSumsEachAttemptsMarksForCurrentMembersOnly(kind: DatabaseKind) async throws {
        try await withStore(kind) { cached in
            let s = try await setUp(cached)
            let schoolClass = try #require(try await s.store.createClass(SchoolClass(code: "333333", ownerUserId: s.teacher, name: "C", createdAt: t0)))
            for user in [s.ann, s.bob] { _ = try await s.store.addClassMember(classId: schoolClass.id, userId: user, at: t0) }
            let questions = try await s.store.questions(quizId: s.quizId).compactMap(\.id)
            let assignment = try #require(try await s.store.createAssignment(Assignment(
                code: "400001", quizId: s.quizId, ownerUserId: s.teacher, title: "Week", questionIds: questions, opensAt: t0, closesAt: t0 + 3600,
                settings: AssignmentSettings(attemptsAllowed: 2), createdAt: t0, classId: schoolClass.id)))
            for (user, name) in [(s.ann, "ann"), (s.bob, "Bob")] {
                let player = try #require(try await s.store.addAssignmentPlayer(AssignmentPlayerRecord(
                    assignmentId: assignment.id, nickname: name, userId: user, secretHash: "s", codeHash: "c", joinedAt: t0)))
                let attempt = try #require(try await s.store.startAssignmentAttempt(playerId: player.id, questionIds: questions, maxMarks: 5_000,
                                                                                    allowed: 2, at: t0))
                for position in 0..<(user == s.ann ? 3 : 1) {
                    _ = try await s.store.showAssignmentQuestion(attemptId: attempt.id, position: position, questionId: questions[position], at: t0)
                    _ = try await s.store.recordAssignmentAnswer(attemptId: attempt.id, position: position, answer: "{}", correct: true,
                                                                 marks: 1_000, at: t0 + 1)
                }
                if user == s.ann { _ = try await s.store.finishAssignmentAttempt(id: attempt.id, at: t0 + 2, pointsTo: nil) }
            }
            let rows = try await s.store.gradebookAttempts(classId: schoolClass.id)
            #expect(rows == [
                GradebookAttemptRecord(assignmentId: assignment.id, userId: s.ann, number: 1, marks: 3_000, maxMarks: 5_000, finishedAt: t0 + 2),
                GradebookAttemptRecord(assignmentId: assignment.id, userId: s.bob, number: 1, marks: 1_000, maxMarks: 5_000, finishedAt: nil),
            ].sorted { $0.userId < $1.userId })
            _ = try await s.store.removeClassMember(classId: schoolClass.id, userId: s.bob)
            #expect(try await s.store.gradebookAttempts(classId: schoolClass.id).map(\.userId) == [s.ann], "a removed student leaves the book")
        }
    }
}
