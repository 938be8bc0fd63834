import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

/// Users and roles (`ManageUsers`): admins only.
struct ManageUsersAPI: Sendable {
    let manageUsers: ManageUsers

    /// The use case's refusals as the API's errors.
    private func refusing<T>(_ body: () async throws -> T) async throws -> T {
        try await APIError.translating({ (failure: ManageUsers.Failure) in APIError(failure) }, body)
    }

    func listUsers(_ input: Operations.ListUsers.Input, by caller: AdminCaller) async throws -> Operations.ListUsers.Output {
        let limit = try APIError.checked(input.query.limit, "limit", default: 20, in: 1...100)
        let offset = try APIError.checked(input.query.offset, "offset", default: 0, in: 0...10_000_000)
        let page = try await refusing { try await manageUsers.search(input.query.search ?? "", offset: offset, limit: limit, by: caller.user) }
        return .ok(.init(body: .json(.init(users: page.users.map(Components.Schemas.User.init), total: page.total))))
    }

    func setUserRole(_ input: Operations.SetUserRole.Input, by caller: AdminCaller) async throws -> Operations.SetUserRole.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let role = Role(rawValue: body.role.rawValue) ?? .player
        let user = try await refusing { try await manageUsers.setRole(role, ofUser: input.path.userId, by: caller.user) }
        return .ok(.init(body: .json(.init(user))))
    }
}

extension APIError {
    init(_ failure: ManageUsers.Failure) {
        switch failure {
        case .notAdmin:
            self = .needsAdmin
        case .searchTooLong:
            self.init(.unprocessableContent, "invalid_search", failure.message, field: "search")
        case .notFound:
            self = .notFound("user")
        case .lastAdmin:
            self.init(.conflict, "last_admin", failure.message, field: "role")
        }
    }
}
