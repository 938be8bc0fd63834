import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizStore
import QuizUseCases

// Admins give and take the author and admin roles.
extension WebController {
    static var usersPerPage: Int { 20 }

    func registerUserManagement(on router: Router<AppRequestContext>) {
        router.get("/manage/users") { request, _ in
            try await page(request) {
                try await usersPage($0, search: request.uri.queryParameters["search"].map(String.init) ?? "",
                                    page: request.uri.queryParameters["page"].flatMap { Int(String($0)) } ?? 1,
                                    done: request.uri.queryParameters["done"].map(String.init))
            }
        }
        router.post("/manage/users/:id/role") { request, context in
            try await post(request, context) { try await changeRole($0, $1, userId: context.parameters.require("id", as: Int64.self)) }
        }
    }

    /// Admins only: authors get a page saying so, players the /manage explanation.
    func requireAdmin(_ visit: Visit, returnTo path: String) async throws -> Response? {
        guard let user = try await requireAuthor(visit, returnTo: path) else { return try await needsAuthor(visit) }
        guard user.role == .admin else {
            return renderer.render("error", errorContext(visit, heading: "Only admins manage roles",
                                                         message: "Changing who is a player, author or admin needs an admin account."),
                                   status: .forbidden)
        }
        return nil
    }

    func usersPage(_ visit: Visit, search: String, page: Int, done: String?, failure: String? = nil) async throws -> Response {
        if let refusal = try await requireAdmin(visit, returnTo: "/manage/users") { return refusal }
        let search = String(search.trimmingCharacters(in: .whitespaces).prefix(64))
        let page = min(max(page, 1), 100_000)
        let found = try await store.users(matching: search, offset: (page - 1) * Self.usersPerPage, limit: Self.usersPerPage)
        var context = base(visit, title: "Users and roles", tab: "Manage", notice: Self.notice(done))
        context["search"] = search
        if let failure { context["failure"] = failure }
        context["users"] = found.users.map { user -> [String: Any] in
            ["id": user.id, "username": user.username, "name": "\(user.firstName) \(user.lastName)", "role": user.role.rawValue,
             "roles": Role.allCases.map { ["value": $0.rawValue, "selected": $0 == user.role] as [String: Any] }]
        }
        context["summary"] = found.total == 0 ? "No users match." : "\(Self.count(found.total, "user")), page \(page) of \((found.total + Self.usersPerPage - 1) / Self.usersPerPage)"
        let query = search.isEmpty ? "" : "search=\(Self.encode(search))&"
        if page > 1 { context["previous"] = "/manage/users?\(query)page=\(page - 1)" }
        if page * Self.usersPerPage < found.total { context["next"] = "/manage/users?\(query)page=\(page + 1)" }
        return renderer.render("manage-users", context, status: failure == nil ? .ok : .conflict)
    }

    func changeRole(_ visit: Visit, _ form: WebForm, userId: Int64) async throws -> Response {
        if let refusal = try await requireAdmin(visit, returnTo: "/manage/users") { return refusal }
        guard let role = Role(rawValue: form.text("role")) else { throw HTTPError(.badRequest, message: "Unknown role.") }
        let search = form.text("search")
        do {
            _ = try await store.setRole(role, userId: userId)
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        } catch let error as AuthoringError {
            return try await usersPage(visit, search: search, page: 1, done: nil, failure: APIError(authoring: error).message)
        }
        return PageRenderer.redirect(to: "/manage/users?\(search.isEmpty ? "" : "search=\(Self.encode(search))&")done=role")
    }
}
