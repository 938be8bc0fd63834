import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

/// Classes over the API (`Classes`): signed-in callers only; a teacher sees their own classes,
/// a student the classes they are in and only their own grades.
struct ClassesAPI: Sendable {
    let classes: Classes
    let time: any TimeSource

    func listClasses(_ input: Operations.ListClasses.Input, by caller: SignedInCaller) async throws -> Operations.ListClasses.Output {
        try await translating {
            let taught = try await classes.taught(userId: caller.user.id)
            let joined = try await classes.joined(userId: caller.user.id)
            return .ok(.init(body: .json(.init(
                taught: taught.map { .init(_class: .init($0.schoolClass), memberCount: $0.members, assignmentCount: $0.assignments) },
                joined: joined.map { .init(id: $0.id, name: $0.name) }))))
        }
    }

    func createClass(_ input: Operations.CreateClass.Input, by caller: SignedInCaller) async throws -> Operations.CreateClass.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        return try await translating { .created(.init(body: .json(.init(try await classes.create(name: body.name, user: caller.user))))) }
    }

    func joinClass(_ input: Operations.JoinClass.Input, by caller: SignedInCaller) async throws -> Operations.JoinClass.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        return try await translating {
            let joining = try await classes.join(code: body.code, user: caller.user, address: ClientAddress.current)
            return .ok(.init(body: .json(.init(_class: .init(id: joining.schoolClass.id, name: joining.schoolClass.name),
                                               joinedNow: joining.joinedNow))))
        }
    }

    func getClass(_ input: Operations.GetClass.Input, by caller: SignedInCaller) async throws -> Operations.GetClass.Output {
        try await translating {
            let view = try await classes.view(id: input.path.classId, userId: caller.user.id)
            let now = time.now()
            return .ok(.init(body: .json(.init(
                _class: .init(view.schoolClass, shownTo: view.isOwner), isOwner: view.isOwner,
                members: view.members.map { .init(userId: $0.userId, username: $0.username, joinedAt: $0.joinedAt) },
                assignments: view.assignments.map { assignment in
                    .init(id: assignment.id, code: assignment.code, title: assignment.title, opensAt: assignment.opensAt,
                          closesAt: assignment.closesAt, window: .init(assignment.window(at: now)), playPath: "/a/\(assignment.code)")
                }))))
        }
    }

    func updateClass(_ input: Operations.UpdateClass.Input, by caller: SignedInCaller) async throws -> Operations.UpdateClass.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        return try await translating {
            var schoolClass = try await classes.owned(id: input.path.classId, userId: caller.user.id)
            if let name = body.name { schoolClass = try await classes.rename(id: schoolClass.id, name: name, userId: caller.user.id) }
            if let open = body.joiningOpen { schoolClass = try await classes.setJoining(id: schoolClass.id, open: open, userId: caller.user.id) }
            return .ok(.init(body: .json(.init(schoolClass))))
        }
    }

    func removeClassMember(_ input: Operations.RemoveClassMember.Input, by caller: SignedInCaller) async throws
        -> Operations.RemoveClassMember.Output {
        try await translating {
            if input.path.userId == caller.user.id {
                try await classes.leave(id: input.path.classId, userId: caller.user.id)
            } else {
                try await classes.remove(userId: input.path.userId, from: input.path.classId, ownerId: caller.user.id)
            }
            return .noContent(.init())
        }
    }

    func getGradebook(_ input: Operations.GetGradebook.Input, by caller: SignedInCaller) async throws -> Operations.GetGradebook.Output {
        try await translating {
            let (schoolClass, book) = try await classes.gradebook(id: input.path.classId, userId: caller.user.id)
            return .ok(.init(body: .json(.init(schoolClass, book))))
        }
    }

    func exportGradebook(_ input: Operations.ExportGradebook.Input, by caller: SignedInCaller) async throws
        -> Operations.ExportGradebook.Output {
        try await translating {
            let (schoolClass, book) = try await classes.gradebook(id: input.path.classId, userId: caller.user.id)
            let name = "gradebook-\(schoolClass.id)"
            if input.query.format == .xlsx {
                ResponseCookies.setHeader(.contentDisposition, "attachment; filename=\"\(name).xlsx\"")
                let file = book.workbook(sheet: "Gradebook", student: "Student", average: "Average")
                return .ok(.init(body: .applicationVnd_openxmlformatsOfficedocument_spreadsheetml_sheet(HTTPBody(file))))
            }
            ResponseCookies.setHeader(.contentDisposition, "attachment; filename=\"\(name).csv\"")
            ResponseCookies.setHeader(.contentType, "text/csv; charset=utf-8")
            let csv = book.csv(separator: input.query.separator == .semicolon ? ";" : ",")
            return .ok(.init(body: .csv(HTTPBody(Data(csv.utf8)))))
        }
    }

    func listDueAssignments(_ input: Operations.ListDueAssignments.Input, by caller: SignedInCaller) async throws
        -> Operations.ListDueAssignments.Output {
        try await translating {
            let due = try await classes.due(userId: caller.user.id)
            return .ok(.init(body: .json(.init(assignments: due.map { item in
                let assignment = item.assignment
                return .init(assignmentId: assignment.id, code: assignment.code, title: assignment.title, classId: assignment.classId ?? 0,
                             className: item.className, opensAt: assignment.opensAt, closesAt: assignment.closesAt,
                             window: .init(item.window), done: item.done, playPath: "/a/\(assignment.code)")
            }))))
        }
    }

    private func translating<T>(_ body: () async throws -> T) async throws -> T {
        try await APIError.translating({ (failure: Classes.Failure) in APIError(failure) }, body)
    }
}

extension Components.Schemas.SchoolClass {
    /// The code and the join link are the teacher's to hand out: a student is shown neither.
    init(_ schoolClass: SchoolClass, shownTo owner: Bool = true) {
        self.init(id: schoolClass.id, name: schoolClass.name, code: owner ? schoolClass.code : "", joiningOpen: schoolClass.joiningOpen,
                  createdAt: schoolClass.createdAt, joinPath: owner ? "/classes/join/\(schoolClass.code)" : "")
    }
}

extension Components.Schemas.ClassAssignmentWindow {
    init(_ window: Assignment.Window) {
        switch window {
        case .notOpen: self = .notOpen
        case .open: self = .open
        case .closed: self = .closed
        }
    }
}

extension Components.Schemas.Gradebook {
    init(_ schoolClass: SchoolClass, _ book: QuizCore.Gradebook) {
        self.init(
            classId: schoolClass.id, className: schoolClass.name,
            columns: zip(book.columns, book.columnAverages).map { column, average in
                .init(assignmentId: column.assignmentId, code: column.code, title: column.title, closesAt: column.closesAt,
                      grading: .init(rawValue: column.grading.rawValue) ?? .highest, average: average)
            },
            rows: book.rows.map { row in
                .init(userId: row.userId, username: row.username,
                      cells: zip(book.columns, row.cells).map { .init(assignmentId: $0.assignmentId, grade: $1) }, average: row.average)
            })
    }
}

extension APIError {
    init(_ failure: Classes.Failure) {
        let message = failure.message
        switch failure {
        case .invalid(let problems): self.init(.unprocessableContent, "invalid_class", message, field: problems.first?.field)
        case .tooManyClasses: self.init(.conflict, "too_many_classes", message)
        case .classNotFound: self.init(.notFound, "not_found", message)
        case .rateLimited: self.init(.tooManyRequests, "rate_limited", message)
        case .joiningClosed: self.init(.conflict, "joining_closed", message, field: "code")
        case .classFull: self.init(.conflict, "class_full", message)
        case .ownClass: self.init(.conflict, "own_class", message, field: "code")
        case .notMember: self.init(.notFound, "not_member", message, field: "userId")
        case .notNow: self.init(.serviceUnavailable, "unavailable", message)
        }
    }
}
