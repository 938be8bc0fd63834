import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizStore
import QuizText
import QuizUseCases

/// /manage/users: admins find people and give or take the author and admin roles (`ManageUsers`).
/// Players are refused as on every authoring page, authors with a page saying roles are for admins.
struct ManageUserPages: Sendable {
    let pages: Pages
    let manageUsers: ManageUsers

    static var usersPerPage: Int { 20 }

    func register(admins: some RouterMethods<AdminContext>) {
        admins.get("/manage/users") { request, context in
            let query = request.uri.queryParameters
            return try await usersPage(context, search: query["search"].map(String.init) ?? "", page: query["page"].flatMap { Int(String($0)) } ?? 1,
                                       done: query["done"].map(String.init))
        }
        admins.post("/manage/users/:id/role") { _, context in
            try await changeRole(context, userId: context.pathID("id"))
        }
    }

    struct RoleChoice: Encodable {
        var value: String
        /// The role's name in the page's language, for the option's text.
        var label: String
        var selected: Bool
    }

    struct UserRow: Encodable {
        var id: Int64
        var username: String
        var name: String
        var role: String
        var roles: [RoleChoice]
    }

    struct UsersPage: Encodable {
        var search: String
        var failure: String?
        var users: [UserRow]
        var summary: String
        var previous: String?
        var next: String?
    }

    func usersPage(_ context: AdminContext, search: String, page: Int, done: String?, failure: String? = nil) async throws -> Response {
        let t = context.visit.t
        // The form allows 64 characters; a longer address is cut rather than refused.
        let search = String(search.trimmingCharacters(in: .whitespaces).prefix(ManageUsers.maxSearchLength))
        let page = min(max(page, 1), 100_000)
        let found = try await refusing {
            try await manageUsers.search(search, offset: (page - 1) * Self.usersPerPage, limit: Self.usersPerPage, by: context.user)
        }
        let query = search.isEmpty ? "" : "search=\(Pages.encode(search))&"
        let pageCount = (found.total + Self.usersPerPage - 1) / Self.usersPerPage
        let model = UsersPage(
            search: search, failure: failure,
            users: found.users.map { user in
                UserRow(id: user.id, username: user.username, name: "\(user.firstName) \(user.lastName)", role: user.role.rawValue,
                        roles: Role.allCases.map { RoleChoice(value: $0.rawValue, label: AccountPages.roleName($0, t), selected: $0 == user.role) })
            },
            summary: found.total == 0 ? t("No users match.")
                : t.count(found.total, "{count} user, page {page} of {pages}", "{count} users, page {page} of {pages}",
                          ["page": t.number(page), "pages": t.number(pageCount)]),
            previous: page > 1 ? "/manage/users?\(query)page=\(page - 1)" : nil,
            next: page * Self.usersPerPage < found.total ? "/manage/users?\(query)page=\(page + 1)" : nil)
        return pages.render("manage-users", model, visit: context.visit, title: t("Users and roles"), tab: "Manage",
                            notice: ManageText.notice(done, t), status: failure == nil ? .ok : .conflict)
    }

    func changeRole(_ context: AdminContext, userId: Int64) async throws -> Response {
        guard let role = Role(rawValue: context.form.text("role")) else { throw HTTPError(.badRequest, message: "Unknown role.") }
        let search = context.form.text("search")
        do {
            _ = try await refusing { try await manageUsers.setRole(role, ofUser: userId, by: context.user) }
        } catch ManageUsers.Failure.lastAdmin {
            return try await usersPage(context, search: search, page: 1, done: nil, failure: context.visit.t(ManageUsers.Failure.lastAdmin.message))
        }
        return PageRenderer.redirect(to: "/manage/users?\(search.isEmpty ? "" : "search=\(Pages.encode(search))&")done=role")
    }

    /// An author is told roles are for admins; a missing user is a missing page.
    private func refusing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch ManageUsers.Failure.notAdmin {
            throw PageRefusal.needsAdmin
        } catch ManageUsers.Failure.notFound {
            throw HTTPError(.notFound)
        }
    }
}
