import Foundation
import QuizCore
import QuizStore

/// A student's list for their home page: their classes' assignments that are open, not open yet,
/// or closed in the last week, the ones not done first, then by when they close.
extension Classes {
    package struct Due: Sendable, Equatable {
        package var assignment: Assignment
        package var className: String
        package var window: Assignment.Window
        /// An attempt finished, or one the close cut off.
        package var done: Bool
    }

    /// Closed assignments stay on the list this long, so a student sees what they missed.
    package static let recentlyClosed: TimeInterval = 7 * 86_400
    /// The list holds at most this many.
    package static let dueLimit = 100

    package func due(userId: Int64) async throws(Failure) -> [Due] {
        let now = time.now()
        let records = try await storing("listing due assignments") {
            try await store.dueAssignments(userId: userId, since: now - Self.recentlyClosed, limit: Self.dueLimit)
        }
        let due = records.map { record in
            let window = record.assignment.window(at: now)
            return Due(assignment: record.assignment, className: record.className, window: window,
                       done: record.finished || (record.started && window == .closed))
        }
        // Not done first; among them the open ones before those not open yet and the closed last;
        // then by close. The stored order (by close) is kept among equals.
        func rank(_ item: Due) -> Int {
            if item.done { return 3 }
            switch item.window {
            case .open: return 0
            case .notOpen: return 1
            case .closed: return 2
            }
        }
        return due.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }
}
