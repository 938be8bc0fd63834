import Foundation
import QuizCore
@testable import QuizServer
import QuizStore
import Testing

/// Log-in limits, tested on the use case itself: one address cannot lock an account for others,
/// and the limiter's memory stays bounded whatever names are tried.
@Suite struct LogInUseCaseTests {
    typealias Failure = LogIn<CachedStore>.Failure

    func withLogIn(_ body: @escaping @Sendable (LogIn<CachedStore>, LoginRateLimiter, TestEnvironment) async throws -> Void) async throws {
        try await withApp { client, env in
            _ = try await client.signUp("owner", password: "the right one")
            let limiter = LoginRateLimiter(limit: 10, window: 60, time: env.time)
            let logIn = LogIn(store: env.store, hasher: PasswordHasher(cost: 4), limiter: limiter, time: env.time,
                              sessionLifetime: 3600, perAddressPerMinute: 60)
            try await body(logIn, limiter, env)
        }
    }

    func attempt(_ logIn: LogIn<CachedStore>, _ password: String, from address: String, as username: String = "owner") async -> Failure? {
        do {
            _ = try await logIn(username: username, password: password, address: address)
            return nil
        } catch let failure as Failure {
            return failure
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test func oneAddressGuessingDoesNotLockTheOwnerOut() async throws {
        try await withLogIn { logIn, _, _ in
            for _ in 0..<10 { #expect(await attempt(logIn, "guess", from: "203.0.113.9") == .refused) }
            #expect(await attempt(logIn, "guess", from: "203.0.113.9") == .tooManyAttempts)
            // The attacker's address is stopped; the owner's is not, right password first time.
            #expect(await attempt(logIn, "the right one", from: "198.51.100.7") == nil)
        }
    }

    @Test func manyAddressesGuessingSlowEachToAFewTriesWhileTheOwnerStillGetsIn() async throws {
        try await withLogIn { logIn, _, env in
            // A botnet: 60 addresses, 1 guess each, pushes the account into its back-off.
            for n in 0..<60 { #expect(await attempt(logIn, "guess", from: "192.0.2.\(n)") == .refused) }
            // Each address now gets three tries a quarter hour, not ten a minute.
            for _ in 0..<3 { #expect(await attempt(logIn, "guess", from: "192.0.2.1") == .refused) }
            #expect(await attempt(logIn, "guess", from: "192.0.2.1") == .tooManyAttempts)
            env.time.advance(by: 61)
            #expect(await attempt(logIn, "guess", from: "192.0.2.1") == .tooManyAttempts, "still backed off a minute later")
            #expect(await attempt(logIn, "the right one", from: "198.51.100.7") == nil)
        }
    }

    @Test func oneAddressIsLimitedAcrossAccountsToo() async throws {
        try await withLogIn { logIn, _, _ in
            for n in 0..<60 { #expect(await attempt(logIn, "guess", from: "203.0.113.1", as: "someone\(n)") == .refused) }
            #expect(await attempt(logIn, "guess", from: "203.0.113.1", as: "someone-else") == .tooManyAttempts)
            // An IPv6 client's whole /64 counts as one.
            for n in 0..<60 { _ = await attempt(logIn, "guess", from: "2001:db8:1:2::\(n + 1)", as: "user\(n)") }
            #expect(await attempt(logIn, "guess", from: "2001:db8:1:2:ffff::9", as: "another") == .tooManyAttempts)
        }
    }

    @Test func hugeUsernamesAreRefusedWithoutKeepingThem() async throws {
        try await withLogIn { logIn, limiter, _ in
            let before = limiter.keyCount
            for n in 0..<20 {
                #expect(await attempt(logIn, "x", from: "203.0.113.\(n)", as: String(repeating: "u", count: 100_000 + n)) == .refused)
            }
            #expect(limiter.keyCount == before)
        }
    }

    @Test func theLimiterKeepsAtMostItsMaximumOfKeys() async throws {
        let time = ManualTimeSource()
        let limiter = LoginRateLimiter(limit: 5, window: 60, time: time, maxKeys: 1_000)
        for n in 0..<5_000 { _ = try await limiter.allow(keys: ["k\(n)"]) }
        #expect(limiter.keyCount <= 1_000)
        // The newest keys are the ones kept, still counting.
        for _ in 0..<5 { _ = try await limiter.allow(keys: ["k4999"]) }
        #expect(try await limiter.allow(keys: ["k4999"]) == false)
    }
}
