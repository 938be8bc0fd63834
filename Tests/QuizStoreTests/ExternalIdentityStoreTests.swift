import Foundation
import QuizCore
import QuizStore
import SQLKit
import Testing

/// Linked provider accounts and sign-ins in flight, on each available database.
@Suite struct ExternalIdentityStoreTests {
    func pending(_ hash: String, at date: Date = t0, link: Int64? = nil) -> PendingSignIn {
        PendingSignIn(stateHash: hash, provider: "github", codeVerifier: "verifier", nonce: "nonce", linkUserId: link,
                      next: "/home", createdAt: date, expiresAt: date + 600)
    }

    func identity(_ subject: String, provider: String = "github", user: Int64 = 0) -> ExternalIdentity {
        ExternalIdentity(provider: provider, subject: subject, userId: user, providerUsername: "octo", createdAt: t0)
    }

    @Test(arguments: DatabaseKind.available)
    func aPendingSignInIsTakenOnceAndOnlyBeforeItExpires(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let user = try await store.createUser(newUser("ada"))
            try await store.savePendingSignIn(pending("a", link: user.id))
            let taken = try #require(try await store.takePendingSignIn(stateHash: "a", at: t0 + 10))
            #expect(taken == pending("a", link: user.id))
            #expect(try await store.takePendingSignIn(stateHash: "a", at: t0 + 10) == nil)
            try await store.savePendingSignIn(pending("b"))
            #expect(try await store.takePendingSignIn(stateHash: "b", at: t0 + 600) == nil)
            #expect(try await store.takePendingSignIn(stateHash: "b", at: t0) == nil)
            // Two callbacks with the same state at once: one wins.
            try await store.savePendingSignIn(pending("c"))
            async let first = store.takePendingSignIn(stateHash: "c", at: t0)
            async let second = store.takePendingSignIn(stateHash: "c", at: t0)
            let results = [try await first, try await second]
            #expect(results.compactMap { $0 }.count == 1)
            try await store.savePendingSignIn(pending("d"))
            try await store.savePendingSignIn(pending("e", at: t0 + 300))
            #expect(try await store.removeExpiredPendingSignIns(at: t0 + 700) == 1)
            #expect(try await store.takePendingSignIn(stateHash: "e", at: t0 + 700) != nil)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aProviderAccountLinksToOneUserAndAUserHasOneOfEachProvider(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.createUser(newUser("ada"))
            let bob = try await store.createUser(newUser("bob"))
            try await store.link(identity("1", user: ada.id))
            await #expect(throws: StoreError.identityTaken) { try await store.link(self.identity("1", user: bob.id)) }
            await #expect(throws: StoreError.identityTaken) { try await store.link(self.identity("2", user: ada.id)) }
            try await store.link(identity("1", provider: "google", user: ada.id))
            #expect(try await store.identities(userId: ada.id).map(\.provider) == ["github", "google"])
            #expect(try await store.identity(provider: "github", subject: "1")?.userId == ada.id)
            #expect(try await store.identity(provider: "github", subject: "2") == nil)
            // Ada has a password: she may unlink both.
            try await store.unlink(provider: "github", userId: ada.id)
            await #expect(throws: StoreError.notFound) { try await store.unlink(provider: "github", userId: ada.id) }
            try await store.unlink(provider: "google", userId: ada.id)
            #expect(try await store.identities(userId: ada.id).isEmpty)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func anAccountMadeThroughAProviderHasNoPasswordAndKeepsItsLastWayIn(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            var made = newUser("octo")
            made.passwordHash = nil
            let octo = try await store.createUser(made, linking: identity("9"))
            let found = try #require(try await store.credentials(username: "octo"))
            #expect(found.user == octo)
            #expect(found.passwordHash == nil)
            #expect(try await store.passwordHash(userId: octo.id) == nil)
            #expect(try await store.identity(provider: "github", subject: "9")?.userId == octo.id)
            await #expect(throws: StoreError.lastSignInMethod) { try await store.unlink(provider: "github", userId: octo.id) }
            try await store.link(identity("9", provider: "google", user: octo.id))
            try await store.unlink(provider: "github", userId: octo.id)
            await #expect(throws: StoreError.lastSignInMethod) { try await store.unlink(provider: "google", userId: octo.id) }
            try await store.setPasswordHash("$2b$04$other", userId: octo.id)
            try await store.unlink(provider: "google", userId: octo.id)
            #expect(try await store.credentials(username: "octo")?.passwordHash == "$2b$04$other")
        }
    }

    @Test(arguments: DatabaseKind.available)
    func creatingAnAccountForALinkedProviderAccountStoresNothing(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.createUser(newUser("ada"))
            try await store.link(identity("1", user: ada.id))
            await #expect(throws: StoreError.identityTaken) { try await store.createUser(newUser("ada2"), linking: self.identity("1")) }
            #expect(try await store.credentials(username: "ada2") == nil)
            await #expect(throws: StoreError.usernameTaken) { try await store.createUser(newUser("ADA"), linking: self.identity("2")) }
            #expect(try await store.identity(provider: "github", subject: "2") == nil)
        }
    }
}
