import Foundation
import QuizCore
import QuizStore

extension OpenTrivia {
    /// The answer to `/api_token.php`: a code, and the token requested or reset.
    package struct TokenAnswer: Sendable, Equatable {
        package var code: Code
        package var token: String?
        package var message: String?

        package init(code: Code, token: String? = nil, message: String? = nil) {
            self.code = code
            self.token = token
            self.message = message
        }
    }

    /// `command=request`: a new token, 64 hex digits as Open Trivia DB's are. Only its hash is kept.
    package func requestToken(address: String) async throws -> TokenAnswer {
        guard try await tokenRequests.allow(keys: ["trivia-token:" + AddressKey.of(address)]) else {
            return TokenAnswer(code: .rateLimit, message: "Too many tokens requested from this address; try again within the hour.")
        }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
        try await store.createTriviaToken(hash: SessionTokens.hash(token), at: time.now(), limit: limits.maxTokens)
        return TokenAnswer(code: .success, token: token, message: "Token Generated Successfully!")
    }

    /// `command=reset`: the token serves every question again.
    package func resetToken(_ token: String?) async throws -> TokenAnswer {
        guard let token, !token.isEmpty, token.utf8.count <= 256 else {
            return TokenAnswer(code: .tokenNotFound, token: "", message: "Token Not Found")
        }
        guard try await store.resetTriviaToken(hash: SessionTokens.hash(token), usedSince: expiry, at: time.now()) else {
            return TokenAnswer(code: .tokenNotFound, token: token, message: "Token Not Found")
        }
        return TokenAnswer(code: .success, token: token)
    }

    /// Deletes tokens unused for six hours; the housekeeping calls it. Expired ones already count
    /// as unknown before that.
    @discardableResult
    package func deleteExpiredTokens() async throws -> Int {
        try await store.deleteTriviaTokens(unusedSince: expiry)
    }
}
