import Foundation
import QuizCore
import QuizFormats
import QuizStore

/// Open Trivia DB's API over Quizbox's own bank, so apps, bots and libraries written for it work
/// against a Quizbox by changing only the base address. Its contract is Open Trivia DB's: every
/// outcome is a response code (0–5) in the body, never an error, so this use case returns codes
/// instead of throwing a `Failure`.
///
/// Served: questions anyone can already read in a published quiz (not a draft, a practice round
/// or a timed quiz) that are single choice with 2–4 choices ("multiple") or true/false
/// ("boolean"). Categories are topics, numbered `topic id + 8` (see `categoryId`).
package struct OpenTrivia: Sendable {
    package static let maxAmount = 50
    /// Open Trivia DB forgets a token after six hours without use.
    package static let tokenLifetime: TimeInterval = 6 * 3600
    /// Open Trivia DB's categories start at 9; so do these, so clients that only offer its numbers
    /// (enums of 9…32) still reach the first topics.
    package static let categoryOffset: Int64 = 8
    /// The window `Limits.tokensPerAddressPerHour` counts in.
    package static let tokenRequestWindow: TimeInterval = 3600

    package enum Code: Int, Sendable {
        case success = 0, noResults, invalidParameter, tokenNotFound, tokenEmpty, rateLimit
    }

    /// The query as sent: every value as text, absent or empty meaning "any".
    package struct Request: Sendable {
        package var amount: String?
        package var category: String?
        package var difficulty: String?
        package var type: String?
        package var encode: String?
        package var token: String?

        package init(amount: String? = nil, category: String? = nil, difficulty: String? = nil, type: String? = nil,
                     encode: String? = nil, token: String? = nil) {
            self.amount = amount
            self.category = category
            self.difficulty = difficulty
            self.type = type
            self.encode = encode
            self.token = token
        }
    }

    /// One question as Open Trivia DB writes it, every string already in the request's encoding.
    package struct Result: Sendable, Equatable {
        package var type: String
        package var difficulty: String
        package var category: String
        package var question: String
        package var correctAnswer: String
        package var incorrectAnswers: [String]

        package init(type: String, difficulty: String, category: String, question: String, correctAnswer: String, incorrectAnswers: [String]) {
            self.type = type
            self.difficulty = difficulty
            self.category = category
            self.question = question
            self.correctAnswer = correctAnswer
            self.incorrectAnswers = incorrectAnswers
        }
    }

    package struct Response: Sendable {
        package var code: Code
        package var results: [Result]
    }

    package struct Limits: Sendable {
        /// Seconds between two requests from one address (Open Trivia DB: 5); 0 for no limit.
        package var requestInterval: TimeInterval = 5
        /// Tokens kept at most; past it the least recently used go first.
        package var maxTokens = 10_000
        /// Tokens one address may request an hour.
        package var tokensPerAddressPerHour = 60

        package init(requestInterval: TimeInterval = 5, maxTokens: Int = 10_000, tokensPerAddressPerHour: Int = 60) {
            self.requestInterval = requestInterval
            self.maxTokens = maxTokens
            self.tokensPerAddressPerHour = tokensPerAddressPerHour
        }
    }

    let store: any TriviaStore
    let time: any TimeSource
    let limits: Limits
    let requests: RateLimiter?
    let tokenRequests: RateLimiter

    /// `shared`: count the limits in the database (instances sharing PostgreSQL).
    package init(store: any TriviaStore, time: any TimeSource, limits: Limits = .init(), shared: (any RateLimitStore)? = nil) {
        self.store = store
        self.time = time
        self.limits = limits
        requests = limits.requestInterval > 0 ? RateLimiter(limit: 1, window: limits.requestInterval, time: time, shared: shared) : nil
        tokenRequests = RateLimiter(limit: limits.tokensPerAddressPerHour, window: Self.tokenRequestWindow, time: time, shared: shared)
    }

    /// `GET /api.php`: up to 50 questions drawn at random, none a token has already been given.
    package func questions(_ request: Request, address: String) async throws -> Response {
        func fail(_ code: Code) -> Response { Response(code: code, results: []) }
        guard try await allow(address) else { return fail(.rateLimit) }
        guard let amount = request.amount.flatMap(Self.wholeNumber), (1...Self.maxAmount).contains(amount),
              let encoding = OpenTriviaWriter.encoding(parameter: request.encode),
              let filter = Filter(request) else { return fail(.invalidParameter) }
        var served: Set<Int64> = []
        let token = request.token.flatMap { $0.isEmpty ? nil : $0 }
        if let token {
            guard let known = try await store.triviaServed(hash: SessionTokens.hash(token), usedSince: expiry) else { return fail(.tokenNotFound) }
            served = known
        }
        let pool = try await store.triviaQuestions().filter(filter.matches)
        guard pool.count >= amount else { return fail(.noResults) }
        let fresh = pool.filter { !served.contains($0.question.id ?? 0) }
        guard fresh.count >= amount else { return fail(.tokenEmpty) }
        let picked = Array(fresh.shuffled().prefix(amount))
        if let token {
            let ids = picked.compactMap(\.question.id)
            guard try await store.recordTriviaServed(hash: SessionTokens.hash(token), questionIds: ids, usedSince: expiry, at: time.now())
            else { return fail(.tokenNotFound) }
        }
        return Response(code: .success, results: picked.compactMap { Self.result($0, encoding: encoding) })
    }

    /// Tokens not used since this are gone.
    var expiry: Date { time.now().addingTimeInterval(-Self.tokenLifetime) }

    func allow(_ address: String) async throws -> Bool {
        guard let requests else { return true }
        return try await requests.allow(keys: ["trivia:" + AddressKey.of(address)])
    }

    /// Digits only, as Open Trivia DB reads its numbers ("Five", "+5" and "5.0" are not numbers).
    static func wholeNumber(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(text)
    }
}
