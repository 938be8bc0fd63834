import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Roles on the use case: admins only, always one admin left, and the command line as the way back.
@Suite struct ManageUsersTests {
    typealias Failure = ManageUsers.Failure

    @Test func onlyAdminsFindPeopleAndChangeRoles() async throws {
        try await withUseCases { env in
            let (author, admin, player) = try await env.people()
            let users = ManageUsers(store: env.store)
            #expect(await failure(Failure.self) { _ = try await users.search("", offset: 0, limit: 10, by: author) } == .notAdmin)
            #expect(await failure(Failure.self) { _ = try await users.setRole(.admin, ofUser: author.id, by: author) } == .notAdmin)
            #expect(try await env.store.user(id: author.id)?.role == .author)

            let found = try await users.search("AD", offset: 0, limit: 10, by: admin)
            #expect(found.users.map(\.username) == ["ada"])
            #expect(await failure(Failure.self) { _ = try await users.search(String(repeating: "a", count: 65), offset: 0, limit: 10, by: admin) }
                    == .searchTooLong(limit: 64))
            #expect(try await users.setRole(.author, ofUser: player.id, by: admin).role == .author)
            #expect(await failure(Failure.self) { _ = try await users.setRole(.author, ofUser: 999, by: admin) } == .notFound)
        }
    }

    @Test func theLastAdminStaysAnAdminButTheCommandLineMayDemoteThem() async throws {
        try await withUseCases { env in
            let (author, admin, _) = try await env.people()
            let users = ManageUsers(store: env.store)
            #expect(await failure(Failure.self) { _ = try await users.setRole(.player, ofUser: admin.id, by: admin) } == .lastAdmin)
            #expect(try await users.setRole(.admin, ofUser: author.id, by: admin).role == .admin)
            #expect(try await users.setRole(.player, ofUser: admin.id, by: admin).role == .player, "another admin is left")

            try await users.setRole(.player, ofUsername: "WRITER")
            #expect(try await env.store.user(id: author.id)?.role == .player, "whoever runs Quizbox can always make an admin again")
            await #expect(throws: Failure.notFound) { try await users.setRole(.admin, ofUsername: "nobody") }
        }
    }
}
