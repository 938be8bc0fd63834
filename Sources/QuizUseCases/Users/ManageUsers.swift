import Foundation
import QuizCore
import QuizStore

/// Finding people and giving or taking the author and admin roles: for admins on the API and the
/// pages, and for whoever runs Quizbox through `quizbox user set-role`.
package struct ManageUsers: Sendable {
    package enum Failure: Error, Equatable {
        case notAdmin
        case searchTooLong(limit: Int)
        case notFound
        /// Demoting the only admin would leave nobody able to manage roles.
        case lastAdmin
    }

    package static var maxSearchLength: Int { 64 }

    package typealias Storage = AuthoringStore & UserStore
    let store: any Storage

    package init(store: any Storage) {
        self.store = store
    }

    /// Users whose username contains `search`, ignoring case, by username.
    package func search(_ search: String, offset: Int, limit: Int, by admin: User) async throws -> UserPage {
        try check(admin)
        guard search.count <= Self.maxSearchLength else { throw Failure.searchTooLong(limit: Self.maxSearchLength) }
        return try await store.users(matching: search, offset: offset, limit: limit)
    }

    /// There is always an admin left: the last one cannot be demoted.
    package func setRole(_ role: Role, ofUser userId: Int64, by admin: User) async throws -> User {
        try check(admin)
        do {
            return try await store.setRole(role, userId: userId)
        } catch StoreError.notFound {
            throw Failure.notFound
        } catch AuthoringError.lastAdmin {
            throw Failure.lastAdmin
        }
    }

    /// Whoever runs Quizbox, from the command line: no admin needed, and the last admin may be
    /// demoted, since the command line can always make one again.
    package func setRole(_ role: Role, ofUsername username: String) async throws {
        do {
            try await store.setRole(role, username: username)
        } catch StoreError.notFound {
            throw Failure.notFound
        }
    }

    private func check(_ user: User) throws {
        guard user.role.canManageUsers else { throw Failure.notAdmin }
    }
}

