import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import QuizServer
import QuizStore
import Testing

/// A large body's sender is checked before the body is read. When the session cannot be looked up
/// at all, that is the server's trouble (503, try again), not the sender's (401, log in again).
@Suite struct BodyLimitSessionTests {
    @Test func aDatabaseThatCannotBeAskedIs503NotSignedOut() async throws {
        let renderer = try await PageRenderer.load()
        let router = Router()
        let policies = RoutePolicies()
        router.addMiddleware {
            ErrorMiddleware(renderer: renderer) { _ in nil }
            BodyLimitMiddleware(defaultMaxBytes: 1 << 20, budget: BodyBudget(total: 1 << 30, perClient: 1 << 30),
                                policies: policies) {
                throw QuizDatabase.Error.unavailable("closed for the test")
            }
        }
        router.post("/api/v1/imports", policy: .body(.importFile), in: policies) { _, _ in "stored" }
        try await Application(router: router).test(.router) { client in
            var headers = HTTPFields()
            headers[.contentType] = "application/octet-stream"
            headers[.authorization] = "Bearer \(String(repeating: "a", count: 43))"
            try await client.execute(uri: "/api/v1/imports", method: .post, headers: headers,
                                     body: ByteBuffer(repeating: 0x61, count: 3 << 20)) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains("database_unavailable"))
            }
        }
    }
}
