import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

/// An owner's assignments over the API (`Assignments`, the owner's side): signed-in callers only,
/// each seeing and changing only their own (anyone else's is 404, as if it did not exist).
struct AssignmentsAPI: Sendable {
    let assignments: Assignments
    let time: any TimeSource

    func listAssignments(_ input: Operations.ListAssignments.Input, by caller: SignedInCaller) async throws -> Operations.ListAssignments.Output {
        let mine = try await owning { try await assignments.mine(userId: caller.user.id) }
        let now = time.now()
        return .ok(.init(body: .json(.init(assignments: mine.map {
            .init($0.assignment, at: now, players: $0.players, finished: $0.finished)
        }))))
    }

    func createAssignment(_ input: Operations.CreateAssignment.Input, by caller: SignedInCaller) async throws -> Operations.CreateAssignment.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let draft = Assignments.Draft(quizId: body.quizId, title: body.title, opensAt: body.opensAt, closesAt: body.closesAt,
                                      settings: AssignmentSettings(body.settings), classId: body.classId)
        let created = try await owning { try await assignments.create(draft, user: caller.user) }
        return .created(.init(body: .json(.init(created, at: time.now(), players: 0, finished: 0))))
    }

    /// The assignment and where each player is: the report's player rows, which fill up as it runs.
    func getAssignment(_ input: Operations.GetAssignment.Input, by caller: SignedInCaller) async throws -> Operations.GetAssignment.Output {
        let report = try await owning { try await assignments.report(id: input.path.assignmentId, userId: caller.user.id) }
        let players = report.players
        let finished = players.count { $0.state == .finished }
        return .ok(.init(body: .json(.init(
            assignment: .init(report.assignment, at: time.now(), players: players.count, finished: finished),
            joined: players.count, started: players.count { $0.attempts > 0 }, finished: finished,
            players: players.map { .init($0, questionIds: report.assignment.questionIds) }))))
    }

    func closeAssignment(_ input: Operations.CloseAssignment.Input, by caller: SignedInCaller) async throws -> Operations.CloseAssignment.Output {
        let closed = try await owning { try await assignments.closeNow(id: input.path.assignmentId, userId: caller.user.id) }
        return .ok(.init(body: .json(.init(closed, at: time.now()))))
    }

    func extendAssignment(_ input: Operations.ExtendAssignment.Input, by caller: SignedInCaller) async throws -> Operations.ExtendAssignment.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let moved = try await owning {
            try await assignments.extend(id: input.path.assignmentId, userId: caller.user.id, closesAt: body.closesAt)
        }
        return .ok(.init(body: .json(.init(moved, at: time.now()))))
    }

    func reopenAssignment(_ input: Operations.ReopenAssignment.Input, by caller: SignedInCaller) async throws -> Operations.ReopenAssignment.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let reopened = try await owning {
            try await assignments.reopen(id: input.path.assignmentId, userId: caller.user.id, closesAt: body.closesAt)
        }
        return .ok(.init(body: .json(.init(reopened, at: time.now()))))
    }

    func getAssignmentReport(_ input: Operations.GetAssignmentReport.Input, by caller: SignedInCaller) async throws -> Operations.GetAssignmentReport.Output {
        let report = try await owning { try await assignments.report(id: input.path.assignmentId, userId: caller.user.id) }
        let players = report.players
        return .ok(.init(body: .json(.init(
            assignment: .init(report.assignment, at: time.now(), players: players.count, finished: players.count { $0.state == .finished }),
            questions: zip(report.questions, report.questionRows).enumerated().map { index, pair in
                let (question, row) = pair
                return .init(questionId: row.questionId, position: index + 1, text: question.text,
                             kind: .init(rawValue: question.kind.rawValue) ?? .singleChoice, points: question.points,
                             answered: row.answered, right: row.right, partlyRight: row.partlyRight,
                             commonWrongAnswers: row.commonWrongAnswers.map { .init(answer: $0.answer, count: $0.count) })
            },
            players: players.map { .init($0, questionIds: report.assignment.questionIds) }))))
    }

    /// The report as the use case writes it for a spreadsheet, a named download.
    func exportAssignmentReport(_ input: Operations.ExportAssignmentReport.Input,
                                by caller: SignedInCaller) async throws -> Operations.ExportAssignmentReport.Output {
        let report = try await owning { try await assignments.report(id: input.path.assignmentId, userId: caller.user.id) }
        let csv = report.csv(separator: input.query.separator == .semicolon ? ";" : ",")
        ResponseCookies.setHeader(.contentDisposition, "attachment; filename=\"assignment-\(report.assignment.code).csv\"")
        ResponseCookies.setHeader(.contentType, "text/csv; charset=utf-8")
        return .ok(.init(body: .csv(HTTPBody(csv))))
    }

    private func owning<T>(_ body: () async throws -> T) async throws -> T {
        try await APIError.translating({ (failure: Assignments.Failure) in APIError(failure) }, body)
    }
}

extension AssignmentSettings {
    /// The sent fields over the defaults; the use case judges the values.
    init(_ wire: Components.Schemas.AssignmentSettingsInput?) {
        self.init()
        guard let wire else { return }
        if let attempts = wire.attemptsAllowed { attemptsAllowed = attempts }
        if let grading = wire.grading { self.grading = Grading(rawValue: grading.rawValue) ?? self.grading }
        if let timing = wire.timing { self.timing = Timing(rawValue: timing.rawValue) ?? self.timing }
        if let speed = wire.speedPoints { speedPoints = speed }
        if let shuffle = wire.shuffleQuestions { shuffleQuestions = shuffle }
        if let shuffle = wire.shuffleAnswers { shuffleAnswers = shuffle }
        if let shown = wire.answersShown { answersShown = AnswersShown(rawValue: shown.rawValue) ?? answersShown }
        if let points = wire.leaderboardPoints { leaderboardPoints = points }
    }
}

extension Components.Schemas.Assignment {
    /// Players open it at /a/{code} (the assignment's page), as a live game's at /join/{pin}.
    init(_ assignment: Assignment, at now: Date, players: Int? = nil, finished: Int? = nil) {
        let settings = assignment.settings
        self.init(
            id: assignment.id, code: assignment.code, quizId: assignment.quizId, title: assignment.title,
            questionCount: assignment.questionIds.count, opensAt: assignment.opensAt, closesAt: assignment.closesAt,
            window: .init(assignment.window(at: now)),
            settings: .init(attemptsAllowed: settings.attemptsAllowed, grading: .init(rawValue: settings.grading.rawValue) ?? .highest,
                            timing: .init(rawValue: settings.timing.rawValue) ?? Components.Schemas.AssignmentTiming.none, speedPoints: settings.speedPoints,
                            shuffleQuestions: settings.shuffleQuestions, shuffleAnswers: settings.shuffleAnswers,
                            answersShown: .init(rawValue: settings.answersShown.rawValue) ?? .afterFinishing,
                            leaderboardPoints: settings.leaderboardPoints),
            createdAt: assignment.createdAt, playerPath: "/a/\(assignment.code)", classId: assignment.classId, playerCount: players, finishedCount: finished)
    }
}

extension Components.Schemas.AssignmentWindow {
    init(_ window: Assignment.Window) {
        self = switch window {
        case .notOpen: .notOpen
        case .open: .open
        case .closed: .closed
        }
    }
}

extension Components.Schemas.AssignmentPlayerRow {
    /// Credits in the assignment's order, only for questions the grade counts.
    init(_ row: Assignments.PlayerRow, questionIds: [Int64]) {
        self.init(playerId: row.playerId, nickname: row.nickname, signedIn: row.userId != nil,
                  state: .init(rawValue: row.state.rawValue) ?? .joined, attempts: row.attempts, grade: row.grade,
                  timeTakenSeconds: row.timeTaken, answeredNow: row.answeredNow,
                  credits: questionIds.compactMap { id in row.credits[id].map { .init(questionId: id, credit: $0.value) } })
    }
}
