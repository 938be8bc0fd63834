import Foundation
import QuizCore

extension CachedStore: TriviaStore {
    /// Cached like practice candidates: dropped by any catalog change, here or on another instance.
    public func triviaQuestions() async throws -> [TriviaQuestion] {
        try await refreshCaches()
        return try await caches.triviaQuestions.value(for: 0) { [sql] in try await sql.triviaQuestions() } ?? []
    }

    public func createTriviaToken(hash: String, at date: Date, limit: Int) async throws {
        try await sql.createTriviaToken(hash: hash, at: date, limit: limit)
    }

    public func triviaServed(hash: String, usedSince: Date) async throws -> Set<Int64>? {
        try await sql.triviaServed(hash: hash, usedSince: usedSince)
    }

    public func recordTriviaServed(hash: String, questionIds: [Int64], usedSince: Date, at date: Date) async throws -> Bool {
        try await sql.recordTriviaServed(hash: hash, questionIds: questionIds, usedSince: usedSince, at: date)
    }

    public func resetTriviaToken(hash: String, usedSince: Date, at date: Date) async throws -> Bool {
        try await sql.resetTriviaToken(hash: hash, usedSince: usedSince, at: date)
    }

    @discardableResult
    public func deleteTriviaTokens(unusedSince date: Date) async throws -> Int {
        try await sql.deleteTriviaTokens(unusedSince: date)
    }
}
