import Foundation

/// One attempt as grading sees it: what it scored out of what it could, and each question's credit.
public struct GradedAttempt: Sendable, Equatable {
    public var number: Int
    public var marks: Int
    public var maxMarks: Int
    /// By question id; a question not answered has none.
    public var credits: [Int64: Credit]
    public var timeTaken: TimeInterval

    public init(number: Int, marks: Int, maxMarks: Int, credits: [Int64: Credit] = [:], timeTaken: TimeInterval = 0) {
        (self.number, self.marks, self.maxMarks, self.credits, self.timeTaken) = (number, marks, maxMarks, credits, timeTaken)
    }

    /// 0...1; an attempt with nothing to get right (a quiz of polls) grades as full.
    public var grade: Double { maxMarks > 0 ? min(1, Double(marks) / Double(maxMarks)) : 1 }
}

extension AssignmentSettings.Grading {
    /// The grade of attempts given in the order they were made (0...1), by Moodle's rule; nil
    /// when none is over. One value per player: a gradebook cell, or what a grade pass-back sends.
    public func grade(_ attempts: [GradedAttempt]) -> Double? {
        guard !attempts.isEmpty else { return nil }
        if let index = chosen(attempts) { return attempts[index].grade }
        return attempts.reduce(0) { $0 + $1.grade } / Double(attempts.count)
    }

    /// The attempt the grade is, in `attempts`; nil for the average (every attempt counts).
    /// The highest's first among equals.
    public func chosen(_ attempts: [GradedAttempt]) -> Int? {
        guard !attempts.isEmpty else { return nil }
        switch self {
        case .first: return 0
        case .last: return attempts.count - 1
        case .highest: return attempts.indices.max { attempts[$0].grade < attempts[$1].grade || (attempts[$0].grade == attempts[$1].grade && $0 > $1) }
        case .average: return nil
        }
    }

    /// Each question's credit as the grade counts it: the chosen attempt's, or the average over all.
    public func credits(_ attempts: [GradedAttempt], questionIds: [Int64]) -> [Int64: Credit] {
        if let index = chosen(attempts) { return attempts[index].credits }
        guard !attempts.isEmpty else { return [:] }
        return Dictionary(uniqueKeysWithValues: questionIds.map { id in
            (id, Credit(attempts.reduce(0) { $0 + ($1.credits[id]?.value ?? 0) } / Double(attempts.count)))
        })
    }

    /// The time the graded attempt took, or the average over all.
    public func timeTaken(_ attempts: [GradedAttempt]) -> TimeInterval? {
        guard !attempts.isEmpty else { return nil }
        if let index = chosen(attempts) { return attempts[index].timeTaken }
        return attempts.reduce(0) { $0 + $1.timeTaken } / Double(attempts.count)
    }
}
