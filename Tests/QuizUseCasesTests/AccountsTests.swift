import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Registering, sessions and password changes, on the use cases themselves.
@Suite struct AccountsTests {
    func register(_ env: UseCaseEnvironment, limiter: RateLimiter? = nil) -> Register {
        Register(store: env.store, hasher: env.hasher, minimumPasswordLength: 8, limiter: limiter, perAddressPerHour: 2, time: env.time)
    }

    func registration(_ username: String, password: String = "password123") -> Registration {
        Registration(username: username, firstName: " Ada ", lastName: "Lovelace", password: password)
    }

    @Test func registeringTrimsNamesAndRefusesATakenNameInAnyCase() async throws {
        try await withUseCases { env in
            let user = try await register(env)(registration("ada"), address: "192.0.2.1")
            #expect(user.firstName == "Ada")
            #expect(user.role == .player)
            await #expect(throws: Register.Failure.usernameTaken("ADA")) {
                try await register(env)(registration("ADA"), address: "192.0.2.2")
            }
        }
    }

    @Test func aBadFieldIsNamedWithItsMessage() async throws {
        try await withUseCases { env in
            do {
                _ = try await register(env)(registration("ada", password: "short"), address: nil)
                Issue.record("a short password was accepted")
            } catch let Register.Failure.invalid(problems) {
                #expect(problems.map(\.field) == ["password"])
                #expect(problems[0].message.contains("8"))
            }
            // Every field's mistake at once, so a form can mark them all.
            let bad = Registration(username: String(repeating: "b", count: 40), firstName: String(repeating: "a", count: 300),
                                   lastName: "", password: "short")
            await #expect(throws: Register.Failure.invalid([
                .init(field: "firstName", message: "First name must be at most 100 characters."),
                .init(field: "lastName", message: "Last name must not be empty."),
                .init(field: "username", message: "Username must be 3 to 32 characters long."),
                .init(field: "password", message: "Password must be at least 8 characters long."),
            ])) { _ = try await register(env)(bad, address: nil) }
        }
    }

    @Test func registrationsArePerAddressAndTheCLIIsNotCounted() async throws {
        try await withUseCases { env in
            let limiter = RateLimiter(time: env.time)
            let use = register(env, limiter: limiter)
            _ = try await use(registration("one"), address: "192.0.2.1")
            _ = try await use(registration("two"), address: "192.0.2.1")
            await #expect(throws: Register.Failure.tooManyRegistrations) { try await use(registration("three"), address: "192.0.2.1") }
            // Another address, and the CLI (no address), are not held back by the first.
            _ = try await use(registration("four"), address: "198.51.100.1")
            _ = try await use(registration("five"), address: nil)
            env.time.advance(by: 3601)
            _ = try await use(registration("six"), address: "192.0.2.1")
        }
    }

    @Test func aSessionProvesItsUserUntilItExpiresOrEnds() async throws {
        try await withUseCases { env in
            let user = try await env.register("ada")
            let grant = try await env.sessions.start(for: user)
            #expect(try await env.sessions.user(token: grant.token).id == user.id)
            await #expect(throws: Sessions.Failure.missing) { try await env.sessions.user(token: nil) }
            await #expect(throws: Sessions.Failure.invalid) { try await env.sessions.user(token: "not-a-token") }
            await #expect(throws: Sessions.Failure.invalid) { try await env.sessions.user(token: SessionTokens.make()) }
            env.time.advance(by: 3601)
            await #expect(throws: Sessions.Failure.expired) { try await env.sessions.user(token: grant.token) }
            let again = try await env.sessions.start(for: user)
            try await env.sessions.end(token: again.token)
            await #expect(throws: Sessions.Failure.invalid) { try await env.sessions.user(token: again.token) }
        }
    }

    @Test func changingThePasswordChecksTheOldOneAndLogsOutOtherDevices() async throws {
        try await withUseCases { env in
            let user = try await env.register("ada", password: "first password")
            let here = try await env.sessions.start(for: user)
            let elsewhere = try await env.sessions.start(for: user)
            let change = ChangePassword(store: env.store, sessions: env.sessions, hasher: env.hasher,
                                        limiter: RateLimiter(time: env.time), minimumPasswordLength: 8)
            await #expect(throws: ChangePassword.Failure.invalid(.init(current: "Your current password is not right."))) {
                try await change(userId: user.id, current: "wrong", new: "second password", keepingToken: here.token)
            }
            // Every mistake at once: a wrong current password, a short new one typed twice differently.
            await #expect(throws: ChangePassword.Failure.invalid(.init(current: "Your current password is not right.",
                                                                      new: "Password must be at least 8 characters long.",
                                                                      confirmation: "The two new passwords differ."))) {
                try await change(userId: user.id, current: "wrong", new: "short", confirmed: false, keepingToken: here.token)
            }
            await #expect(throws: ChangePassword.Failure.invalid(.init(confirmation: "The two new passwords differ."))) {
                try await change(userId: user.id, current: "first password", new: "second password", confirmed: false, keepingToken: here.token)
            }
            #expect(try await change(userId: user.id, current: "first password", new: "second password", keepingToken: here.token) == .changed)
            #expect(try await env.sessions.user(token: here.token).id == user.id)
            await #expect(throws: Sessions.Failure.invalid) { try await env.sessions.user(token: elsewhere.token) }
            // Five tries a quarter hour, right or wrong: this is the fifth, the sixth waits.
            await #expect(throws: ChangePassword.Failure.invalid(.init(current: "Your current password is not right."))) {
                try await change(userId: user.id, current: "x", new: "third password", keepingToken: nil)
            }
            await #expect(throws: ChangePassword.Failure.tooManyChanges) {
                try await change(userId: user.id, current: "second password", new: "third password", keepingToken: here.token)
            }
        }
    }

    @Test func theProfileIsReadAfreshWithRankAndQuizzesFinished() async throws {
        try await withUseCases { env in
            let user = try await env.register("ada")
            let me = try await Profile(store: env.store).me(userId: user.id)
            #expect(me.user.username == "ada")
            #expect(me.rank == 1)
            #expect(me.quizzesFinished == 0)
            await #expect(throws: Profile.Failure.accountGone) { try await Profile(store: env.store).me(userId: 999) }
        }
    }
}
