import Foundation
import QuizCore

/// A question the Open Trivia DB-compatible API may serve, with the topic it is filed under.
public struct TriviaQuestion: Sendable, Hashable {
    public var question: Question
    public var topicId: Int64
    public var subjectName: String
    public var topicName: String

    public init(question: Question, topicId: Int64, subjectName: String, topicName: String) {
        self.question = question
        self.topicId = topicId
        self.subjectName = subjectName
        self.topicName = topicName
    }
}

/// The questions and session tokens of the Open Trivia DB-compatible API. Tokens are stored by
/// their hash; one "unused since" date decides whether a token still counts.
public protocol TriviaStore: Sendable {
    /// Every question anyone may already read in a published, untimed quiz that is a single choice
    /// or a true/false, in id order (cached).
    func triviaQuestions() async throws -> [TriviaQuestion]
    /// Adds a token; past `limit` tokens, the least recently used are deleted first.
    func createTriviaToken(hash: String, at date: Date, limit: Int) async throws
    /// The question ids a token has served, or nil when no token was used since `usedSince`.
    func triviaServed(hash: String, usedSince: Date) async throws -> Set<Int64>?
    /// Records questions as served and the token as used, in one transaction; false when the
    /// token was not used since `usedSince` (expired or deleted meanwhile), with nothing recorded.
    func recordTriviaServed(hash: String, questionIds: [Int64], usedSince: Date, at date: Date) async throws -> Bool
    /// Forgets what a token has served; false when it was not used since `usedSince`.
    func resetTriviaToken(hash: String, usedSince: Date, at date: Date) async throws -> Bool
    /// Deletes tokens not used since `date`; returns how many.
    @discardableResult
    func deleteTriviaTokens(unusedSince date: Date) async throws -> Int
}
