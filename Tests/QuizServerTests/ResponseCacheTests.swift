import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import Hummingbird
@testable import QuizServer
import QuizStore
import Testing

/// The response cache keeps public catalog bytes only: a response that depended on who asked is
/// never served to someone else.
@Suite struct ResponseCacheTests {
    static let cachedRoutes = [
        "/api/v1/subjects", "/api/v1/subjects/1/topics", "/api/v1/topics/1/quizzes", "/api/v1/quizzes/1",
        "/api/v1/quizzes/1/questions",
    ]

    @Test func anAuthorsExportIsNeverServedToAnAnonymousCaller() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("writer")
            try await env.store.setRole(.author, username: "writer")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            for path in ["/api/v1/topics/1/export", "/api/v1/quizzes/1/export", "/api/v1/quizzes/1/export?format=gift"] {
                let download = try await client.call(.get, path, token: token)
                #expect(download.status == .ok, "\(path)")
                // Same path at once, within the cache lifetime: no credentials, no bundle.
                let anonymous = try await client.call(.get, path)
                #expect(anonymous.status == .unauthorized, "\(path): \(anonymous.raw.prefix(200))")
                #expect(!anonymous.raw.contains("isCorrect"), "\(path)")
                let player = try await client.signUp("player\(path.count)")
                #expect(try await client.call(.get, path, token: player).status == .forbidden, "\(path)")
            }
        }
    }

    @Test func everyCachedRouteAnswersTheSameWithAndWithoutCredentials() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("reader")
            for path in Self.cachedRoutes {
                let signedIn = try await client.call(.get, path, token: token)
                let anonymous = try await client.call(.get, path)
                #expect(signedIn.status == .ok, "\(path)")
                #expect(anonymous.status == .ok, "\(path)")
                #expect(signedIn.raw == anonymous.raw, "\(path)")
                // A public question list never carries the answers.
                #expect(!anonymous.raw.contains("isCorrect"), "\(path)")
            }
        }
    }

    @Test func onlyTheListedPublicRoutesAreCached() {
        // The routes declared public are exactly those shown above to be the same for everyone.
        let declared = APIRoutes.policies.filter { $0.2.publicCache }.map { method, path, _ in
            #expect(method == .get, "\(path)")
            return "/api/v1" + path.replacingOccurrences(of: #"\{[A-Za-z]+\}"#, with: "1", options: .regularExpression)
        }
        #expect(Set(declared) == Set(Self.cachedRoutes))
        let policies = RoutePolicies()
        for (method, path, policy) in APIRoutes.policies { policies.declare(policy, method, RouterPath("/api/v1" + path)) }
        // Read by the endpoint Hummingbird resolved, whatever its parameters are named.
        #expect(policies.policy(.get, endpoint: "/api/v1/quizzes/{id}/questions")?.publicCache == true)
        for endpoint in ["/api/v1/quizzes/{quizId}/export", "/api/v1/topics/{topicId}/questions", "/api/v1/manage/quizzes/{quizId}"] {
            #expect(policies.policy(.get, endpoint: endpoint)?.publicCache != true, "\(endpoint)")
        }
        #expect(policies.policy(.post, endpoint: "/api/v1/quizzes/{quizId}/questions") == nil)
    }
}
