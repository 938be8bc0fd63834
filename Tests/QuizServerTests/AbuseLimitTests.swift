import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import QuizCore
@testable import QuizServer
import QuizStore
import QuizUseCases
import Testing

/// What one client can make the server spend: registrations, bcrypt work, posts, image disk space,
/// sessions that never go away.
@Suite struct AbuseLimitTests {
    @Test func registrationsFromOneAddressAreLimited() async throws {
        try await withApp(configure: { $0.registrationsPerAddressPerHour = 3 }) { client, env in
            for n in 0..<3 {
                let made = try await client.call(.post, "/api/v1/users", json: ["username": "user\(n)", "firstName": "A", "lastName": "B",
                                                                                "password": "long enough"])
                #expect(made.status == .created)
            }
            let fourth = try await client.call(.post, "/api/v1/users", json: ["username": "user9", "firstName": "A", "lastName": "B",
                                                                                "password": "long enough"])
            #expect(fourth.status == .tooManyRequests)
            #expect(fourth.errorCode == "too_many_registrations")
            #expect(fourth.headers[.retryAfter] == "600")
            env.time.advance(by: 3601)
            #expect(try await client.call(.post, "/api/v1/users", json: ["username": "user9", "firstName": "A", "lastName": "B",
                                                                           "password": "long enough"]).status == .created)
        }
    }

    /// With bcrypt at cost 24 a hash takes a quarter of an hour: only a check made before it
    /// answers in time. (Three minutes, not one: the whole API suite starting at once on two cores
    /// and PostgreSQL keeps a test queued for a minute before it runs.)
    @Test(.timeLimit(.minutes(3))) func aTakenNameIsRefusedBeforeAnyBcryptWork() async throws {
        try await withApp(configure: { $0.bcryptCost = 24 }) { client, env in
            _ = try await env.store.createUser(NewUser(username: "taken", firstName: "T", lastName: "U", passwordHash: nil,
                                                       role: .player, createdAt: env.time.now()))
            let again = try await client.call(.post, "/api/v1/users", json: ["username": "TAKEN", "firstName": "A", "lastName": "B",
                                                                               "password": "long enough"])
            #expect(again.status == .conflict)
            #expect(again.errorCode == "username_taken")
        }
    }

    @Test func bcryptWorkWaitingIsBoundedPerLane() async throws {
        let hasher = PasswordHasher(cost: 10)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<PasswordHasher.Lane.register.capacity {
                group.addTask { _ = try await hasher.hash("password", lane: .register) }
            }
            // Let every task take its place in the lane before the one too many.
            while hasher.waiting(in: .register) < PasswordHasher.Lane.register.capacity { await Task.yield() }
            await #expect(throws: PasswordHasher.Busy.self) { try await hasher.hash("one too many", lane: .register) }
            // Log-ins have their own lane: a registration flood does not refuse them.
            #expect(hasher.waiting(in: .logIn) == 0)
            try await group.waitForAll()
        }
        #expect(hasher.waiting(in: .register) == 0)
    }

    @Test func postsAreRateLimitedPerUser() async throws {
        try await withApp { client, _ in
            let ada = try await client.signUp("ada")
            for n in 0..<ServerConfig.PostLimits().perMinute {
                #expect(try await client.call(.post, "/api/v1/posts", token: ada, json: ["text": "post \(n)"]).status == .created)
            }
            let over = try await client.call(.post, "/api/v1/posts", token: ada, json: ["text": "one more"])
            #expect(over.status == .tooManyRequests)
            #expect(over.errorCode == "too_many_posts")
            let bob = try await client.signUp("bob")
            #expect(try await client.call(.post, "/api/v1/posts", token: bob, json: ["text": "mine"]).status == .created)
        }
    }

    /// A PNG of about `size` bytes, different for each `seed`.
    static func png(seed: Int, size: Int) -> Data {
        var bytes = tinyPNG
        bytes += (0..<(size - tinyPNG.count)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }
        return Data(bytes)
    }

    @Test func imagesCountAgainstAQuotaAndDeletingThePostFreesItAndItsFile() async throws {
        try await withApp(configure: { $0.postLimits.imageQuotaBytes = 250_000 }) { client, env in
            let ada = try await client.signUp("ada")
            var ids: [Int] = []
            for seed in 0..<2 {
                let made = try await client.call(.post, "/api/v1/posts", token: ada,
                                                 json: ["text": "pic", "image": Self.png(seed: seed, size: 100_000).base64EncodedString()])
                #expect(made.status == .created, "\(made.raw.prefix(200))")
                ids.append(try #require(made["id"] as? Int))
            }
            let third = try await client.call(.post, "/api/v1/posts", token: ada,
                                              json: ["text": "pic", "image": Self.png(seed: 2, size: 100_000).base64EncodedString()])
            #expect(third.status == .contentTooLarge)
            #expect(third.errorCode == "image_quota_exceeded")

            let images = URL(fileURLWithPath: env.config.dataDirectory).appendingPathComponent("images")
            func files() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: images.path).count }
            #expect(try files() == 2)
            // Bob posts the same bytes as Ada's first picture: one file for both.
            let bob = try await client.signUp("bob")
            let shared = try await client.call(.post, "/api/v1/posts", token: bob,
                                               json: ["text": "same", "image": Self.png(seed: 0, size: 100_000).base64EncodedString()])
            let sharedId = try #require(shared["id"] as? Int)
            #expect(try files() == 2)
            // Ada deletes hers: Bob's post still shows the file; her quota is free again.
            #expect(try await client.call(.delete, "/api/v1/posts/\(ids[0])", token: ada).status == .noContent)
            #expect(try files() == 2)
            #expect(try await client.call(.post, "/api/v1/posts", token: ada,
                                          json: ["text": "pic", "image": Self.png(seed: 2, size: 100_000).base64EncodedString()]).status == .created)
            #expect(try files() == 3)
            // Bob deletes his: nobody shows those bytes, so the file goes.
            #expect(try await client.call(.delete, "/api/v1/posts/\(sharedId)", token: bob).status == .noContent)
            #expect(try files() == 2)
        }
    }

    @Test func passwordChangesAreRateLimited() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            try await browser.register("ada", password: "first password")
            // Guessing the current password through the change form: five tries a quarter hour.
            for _ in 0..<5 {
                let wrong = try await browser.post("/profile/password", [("old_password", "a guess"), ("new_password", "next password"),
                                                                         ("new_password_confirm", "next password")])
                #expect(wrong.status == .unprocessableContent)
            }
            let blocked = try await browser.post("/profile/password", [("old_password", "first password"), ("new_password", "next password"),
                                                                       ("new_password_confirm", "next password")])
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter] == "900")
            env.time.advance(by: 15 * 60 + 1)
            let done = try await browser.post("/profile/password", [("old_password", "first password"), ("new_password", "next password"),
                                                                    ("new_password_confirm", "next password")])
            #expect(done.status == .ok)
            #expect(done.contains("Your password has been changed"))
        }
    }

    @Test func expiredSessionsAreDeleted() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("sleepy")
            let keeper = Housekeeping(store: env.store, trivia: OpenTrivia(store: env.store, time: env.time), time: env.time, logger: .init(label: "test"))
            #expect(try await keeper.sweep() == 0)
            env.time.advance(by: env.config.sessionLifetime + 1)
            #expect(try await keeper.sweep() == 1)
            #expect(try await env.store.session(tokenHash: SessionTokens.hash(token)) == nil)
        }
    }
}
