import Foundation

/// A class's students × its assignments. Each cell is the student's grade for the assignment by
/// that assignment's rule (`AssignmentSettings.Grading.grade`), 0...1, or nil when they have no
/// attempt that is over: one value, what an LMS grade pass-back would send for that pair.
/// Averages are over the cells that hold a grade, so an assignment not yet done does not pull a
/// student down before its close; the teacher reads the empty cells as "not done".
public struct Gradebook: Sendable, Equatable {
    public struct Column: Sendable, Equatable {
        public var assignmentId: Int64
        public var code: String
        public var title: String
        public var opensAt: Date
        public var closesAt: Date
        public var grading: AssignmentSettings.Grading

        public init(assignmentId: Int64, code: String, title: String, opensAt: Date, closesAt: Date, grading: AssignmentSettings.Grading) {
            (self.assignmentId, self.code, self.title, self.opensAt, self.closesAt, self.grading) = (assignmentId, code, title, opensAt, closesAt, grading)
        }

        public init(_ assignment: Assignment) {
            self.init(assignmentId: assignment.id, code: assignment.code, title: assignment.title, opensAt: assignment.opensAt,
                      closesAt: assignment.closesAt, grading: assignment.settings.grading)
        }
    }

    public struct Row: Sendable, Equatable {
        public var userId: Int64
        public var username: String
        /// One per column, in `columns`' order.
        public var cells: [Double?]
        public var average: Double?

        public init(userId: Int64, username: String, cells: [Double?]) {
            (self.userId, self.username, self.cells) = (userId, username, cells)
            average = Gradebook.mean(cells)
        }
    }

    /// Oldest close first.
    public var columns: [Column]
    /// By username.
    public var rows: [Row]
    /// Per column, over the rows shown; nil where nobody has a grade (and in a student's own view).
    public var columnAverages: [Double?]

    /// `grades[userId][assignmentId]`: the cells that hold a grade.
    public init(columns: [Column], students: [ClassMember], grades: [Int64: [Int64: Double]]) {
        self.columns = columns
        let rows = students.map { student in
            let mine = grades[student.userId] ?? [:]
            return Row(userId: student.userId, username: student.username, cells: columns.map { mine[$0.assignmentId] })
        }
        self.rows = rows
        columnAverages = columns.indices.map { index in Gradebook.mean(rows.map { $0.cells[index] }) }
    }

    /// Only `userId`'s row, without the class's averages: what a student may see.
    public func only(userId: Int64) -> Gradebook {
        var own = self
        own.rows = rows.filter { $0.userId == userId }
        own.columnAverages = columns.map { _ in nil }
        return own
    }

    /// The cell of one student and assignment (nil: no grade, or not in the book).
    public func cell(userId: Int64, assignmentId: Int64) -> Double? {
        guard let column = columns.firstIndex(where: { $0.assignmentId == assignmentId }),
              let row = rows.first(where: { $0.userId == userId }) else { return nil }
        return row.cells[column]
    }

    static func mean(_ values: [Double?]) -> Double? {
        let present = values.compactMap { $0 }
        return present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
    }
}
