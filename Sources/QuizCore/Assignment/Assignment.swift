import Foundation

/// A quiz set as homework: players join with its code and do it on their own before it closes.
public struct Assignment: Sendable, Equatable {
    /// One broken rule; `field` names it as the API and the form do.
    public typealias Invalid = FieldError

    public enum Window: Sendable, Equatable {
        case notOpen, open, closed
    }

    public static let titleLength = 1...200
    /// Six digits, as a live game's PIN.
    public static let codes = 100_000...999_999

    public var id: Int64
    public var code: String
    public var quizId: Int64
    public var ownerUserId: Int64
    public var title: String
    /// The quiz's questions when it was assigned: editing the quiz later leaves the assignment alone.
    public var questionIds: [Int64]
    public var opensAt: Date
    public var closesAt: Date
    public var settings: AssignmentSettings
    public var createdAt: Date
    /// The class it is set to (`SchoolClass`): only its members, signed in, may play it. nil: anyone with the code.
    public var classId: Int64?

    public init(id: Int64 = 0, code: String, quizId: Int64, ownerUserId: Int64, title: String, questionIds: [Int64], opensAt: Date,
                closesAt: Date, settings: AssignmentSettings = AssignmentSettings(), createdAt: Date, classId: Int64? = nil) {
        (self.id, self.code, self.quizId, self.ownerUserId, self.title) = (id, code, quizId, ownerUserId, title)
        (self.questionIds, self.opensAt, self.closesAt, self.settings, self.createdAt) = (questionIds, opensAt, closesAt, settings, createdAt)
        self.classId = classId
    }

    /// Open from `opensAt` (included) to `closesAt` (excluded).
    public func window(at now: Date) -> Window {
        now < opensAt ? .notOpen : now < closesAt ? .open : .closed
    }

    /// Whether an attempt is over: finished, or cut off by the close (it
    /// keeps the answers given before). Reopening lets one cut off carry on.
    public func isOver(finishedAt: Date?, at now: Date) -> Bool {
        finishedAt != nil || now >= closesAt
    }

    /// Whether the right answers (and each question's verdict, which for a true-or-false is the
    /// same thing) may be shown for a question answered in an attempt.
    public func showsAnswers(attemptOver: Bool, at now: Date) -> Bool {
        switch settings.answersShown {
        case .afterEachQuestion: true
        case .afterFinishing: attemptOver
        case .afterClose: window(at: now) == .closed
        }
    }

    /// Thousandths of a point an answer earns (`Marks`): the question's points times its credit,
    /// and with speed points the live game's share for how fast it came.
    public func marks(for question: Question, credit: Credit, elapsed: TimeInterval) -> Int {
        var share = 1.0
        if settings.speedPoints, let seconds = settings.seconds(for: question) {
            share = LiveGame.speedShare(elapsed: elapsed, seconds: seconds, kind: question.kind)
        }
        return Int((credit.of(Double(question.points)) * share * Double(Marks.perPoint)).rounded())
    }

    /// What an attempt can earn at most, in thousandths: the points of the questions that can be right.
    public static func maxMarks(of questions: [Question]) -> Int {
        questions.filter(\.kind.hasRightAnswer).reduce(0) { $0 + $1.points } * Marks.perPoint
    }

    /// Throws the first broken rule; `validationErrors(now:)` gives them all.
    public func validate(now: Date) throws(Invalid) {
        if let first = validationErrors(now: now).first { throw first }
    }

    /// Every broken rule, in the form's order. `now`: an assignment must not be closed as it is set.
    public func validationErrors(now: Date) -> [Invalid] {
        var errors: [Invalid] = []
        func fail(_ field: String, _ message: String) { errors.append(Invalid(field: field, message: message)) }
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty {
            fail("title", "is empty")
        } else if !Self.titleLength.contains(trimmed.count) {
            fail("title", "is longer than \(Self.titleLength.upperBound) characters")
        }
        if closesAt <= opensAt {
            fail("closesAt", "must be after it opens")
        } else if closesAt <= now {
            fail("closesAt", "is in the past")
        }
        if !AssignmentSettings.attemptsRange.contains(settings.attemptsAllowed) {
            fail("attemptsAllowed", "must be between 1 and \(AssignmentSettings.attemptsRange.upperBound), not \(settings.attemptsAllowed)")
        }
        if settings.speedPoints && settings.timing == .none {
            fail("speedPoints", "needs a time per question: without a clock there is no speed to score")
        }
        return errors
    }
}

/// Scores kept in thousandths of a point, so a partly right answer and speed points lose nothing
/// to rounding and stay whole numbers in every database.
public enum Marks {
    public static let perPoint = 1_000
}
