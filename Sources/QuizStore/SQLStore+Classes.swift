import Foundation
import QuizCore
import SQLKit

extension SQLStore: ClassStore {
    static let classColumns = "id, code, owner_user_id, name, joining_open, created_at"

    public func createClass(_ schoolClass: SchoolClass) async throws -> SchoolClass? {
        try await inserted(schoolClass, at: \.id, """
            INSERT INTO classes (code, owner_user_id, name, joining_open, created_at)
            VALUES (\(bind: schoolClass.code), \(bind: schoolClass.ownerUserId), \(bind: schoolClass.name), \(bind: schoolClass.joiningOpen),
              \(bind: schoolClass.createdAt.millis))
            """)
    }

    public func schoolClass(id: Int64) async throws -> SchoolClass? {
        try await database.read { db in
            try await db.raw("SELECT \(unsafeRaw: Self.classColumns) FROM classes WHERE id = \(bind: id)").first().map(Self.schoolClass)
        }
    }

    public func schoolClass(code: String) async throws -> SchoolClass? {
        try await database.read { db in
            try await db.raw("SELECT \(unsafeRaw: Self.classColumns) FROM classes WHERE code = \(bind: code)").first().map(Self.schoolClass)
        }
    }

    public func classes(ownerUserId: Int64, limit: Int) async throws -> [ClassSummary] {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.classColumns),
                  (SELECT COUNT(*) FROM class_members m WHERE m.class_id = classes.id) AS members,
                  (SELECT COUNT(*) FROM assignments a WHERE a.class_id = classes.id) AS assigned
                FROM classes WHERE owner_user_id = \(bind: ownerUserId) ORDER BY created_at DESC, id DESC LIMIT \(bind: limit)
                """).all().map { row in
                ClassSummary(schoolClass: try Self.schoolClass(row), members: try row.int("members"), assignments: try row.int("assigned"))
            }
        }
    }

    public func classes(memberUserId: Int64, limit: Int) async throws -> [SchoolClass] {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.prefixed(Self.classColumns, "c")) FROM class_members m JOIN classes c ON c.id = m.class_id
                WHERE m.user_id = \(bind: memberUserId) ORDER BY c.name, c.id LIMIT \(bind: limit)
                """).all().map(Self.schoolClass)
        }
    }

    public func renameClass(id: Int64, name: String) async throws {
        try await database.write { db in try await db.raw("UPDATE classes SET name = \(bind: name) WHERE id = \(bind: id)").run() }
    }

    public func setClassJoining(id: Int64, open: Bool) async throws {
        try await database.write { db in try await db.raw("UPDATE classes SET joining_open = \(bind: open) WHERE id = \(bind: id)").run() }
    }

    // MARK: Members

    public func addClassMember(classId: Int64, userId: Int64, at date: Date) async throws -> Bool {
        // The primary key decides, on every instance at once.
        try await database.write { db in
            try await db.raw("""
                INSERT INTO class_members (class_id, user_id, joined_at) VALUES (\(bind: classId), \(bind: userId), \(bind: date.millis))
                ON CONFLICT DO NOTHING RETURNING user_id
                """).first() != nil
        }
    }

    public func removeClassMember(classId: Int64, userId: Int64) async throws -> Bool {
        try await database.write { db in
            try await db.raw("""
                DELETE FROM class_members WHERE class_id = \(bind: classId) AND user_id = \(bind: userId) RETURNING user_id
                """).first() != nil
        }
    }

    public func isClassMember(classId: Int64, userId: Int64) async throws -> Bool {
        try await database.read { db in
            try await db.raw("SELECT 1 AS one FROM class_members WHERE class_id = \(bind: classId) AND user_id = \(bind: userId)").first() != nil
        }
    }

    public func classMembers(classId: Int64) async throws -> [ClassMember] {
        try await database.read { db in
            try await db.raw("""
                SELECT m.user_id, u.username, m.joined_at FROM class_members m JOIN users u ON u.id = m.user_id
                WHERE m.class_id = \(bind: classId) ORDER BY u.username_key, u.id
                """).all().map { row in
                ClassMember(userId: try row.int64("user_id"), username: try row.string("username"), joinedAt: try row.date("joined_at"))
            }
        }
    }

    // MARK: Assignments and grades

    public func classAssignments(classId: Int64) async throws -> [Assignment] {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.assignmentColumns) FROM assignments WHERE class_id = \(bind: classId) ORDER BY closes_at, id
                """).all().map(Self.assignment)
        }
    }

    public func dueAssignments(userId: Int64, since: Date, limit: Int) async throws -> [DueAssignmentRecord] {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.prefixed(Self.assignmentColumns, "a")), c.name AS class_name,
                  EXISTS (SELECT 1 FROM assignment_players p JOIN assignment_attempts t ON t.player_id = p.id
                          WHERE p.assignment_id = a.id AND p.user_id = \(bind: userId) AND t.finished_at IS NOT NULL) AS finished,
                  EXISTS (SELECT 1 FROM assignment_players p JOIN assignment_attempts t ON t.player_id = p.id
                          WHERE p.assignment_id = a.id AND p.user_id = \(bind: userId)) AS started
                FROM class_members m JOIN classes c ON c.id = m.class_id JOIN assignments a ON a.class_id = c.id
                WHERE m.user_id = \(bind: userId) AND a.closes_at >= \(bind: since.millis)
                ORDER BY a.closes_at, a.id LIMIT \(bind: limit)
                """).all().map { row in
                DueAssignmentRecord(assignment: try Self.assignment(row), className: try row.string("class_name"),
                                    finished: try row.bool("finished"), started: try row.bool("started"))
            }
        }
    }

    public func gradebookAttempts(classId: Int64) async throws -> [GradebookAttemptRecord] {
        // One pass: the class's assignments (by their index), their attempts by current members with
        // the marks each keeps; ordered so each cell's attempts come in the order they were made.
        try await database.read { db in
            try await db.raw("""
                SELECT t.assignment_id, p.user_id, t.number, t.max_marks, t.finished_at, t.marks
                FROM assignments a
                JOIN assignment_attempts t ON t.assignment_id = a.id
                JOIN assignment_players p ON p.id = t.player_id
                JOIN class_members m ON m.class_id = a.class_id AND m.user_id = p.user_id
                WHERE a.class_id = \(bind: classId)
                ORDER BY t.assignment_id, p.user_id, t.number
                """).all().map { row in
                GradebookAttemptRecord(assignmentId: try row.int64("assignment_id"), userId: try row.int64("user_id"), number: try row.int("number"),
                                       marks: try row.int("marks"), maxMarks: try row.int("max_marks"), finishedAt: try row.optionalDate("finished_at"))
            }
        }
    }

    static func schoolClass(_ row: any SQLRow) throws -> SchoolClass {
        SchoolClass(id: try row.int64("id"), code: try row.string("code"), ownerUserId: try row.int64("owner_user_id"), name: try row.string("name"),
                    joiningOpen: try row.bool("joining_open"), createdAt: try row.date("created_at"))
    }

    /// "a, b" as "t.a, t.b".
    static func prefixed(_ columns: String, _ table: String) -> String {
        columns.split(separator: ", ").map { "\(table).\($0)" }.joined(separator: ", ")
    }
}
