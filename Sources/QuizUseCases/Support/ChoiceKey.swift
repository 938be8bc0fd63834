import Crypto
import Foundation
import QuizCore
import Synchronization

/// The server's secret behind what a player must not be able to work out: the ids choices are
/// shown under and the orders they are shown in. A choice's own id is its place in the source file
/// (GIFT and Aiken list the right answer first), and every shuffle algorithm here is public, so
/// both are derived with HMAC-SHA256 under a secret kept in the database (the same on every instance).
package final class ChoiceKey: Sendable {
    /// Public ids have this many digits: never one of the small ids stored, so an answer naming a
    /// stored id is an unknown choice, and well inside a 32-bit integer and a JavaScript number.
    package static let publicIds = 100_000_000..<1_000_000_000
    /// The secret's length in bytes.
    package static let secretLength = 32

    /// Bytes, not a `SymmetricKey`, which is not `Sendable`; a key is made per HMAC, only on a
    /// cache miss.
    private let secret: [UInt8]
    /// Each question's ids, by question id and choice ids: a page or a live question asks again
    /// and again, and one HMAC per choice would be most of the work.
    private let cache = Mutex<[CacheKey: ChoiceIds]>([:])
    private struct CacheKey: Hashable {
        var question: Int64
        var choices: [Int]
    }
    private static let cacheLimit = 20_000

    package init(secret: [UInt8]) {
        self.secret = secret
    }

    /// Random bytes for a new server's secret.
    package static func newSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<secretLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The ids `question`'s choices are shown under, and the seed of its orders.
    package func ids(for question: Question) -> ChoiceIds {
        let questionId = question.id ?? 0
        let internalIds = question.body.choices.map(\.id).sorted()
        let cacheKey = CacheKey(question: questionId, choices: internalIds)
        if let known = cache.withLock({ $0[cacheKey] }) { return known }
        var publicIds: [Int: Int] = [:]
        var taken: Set<Int> = []
        // In the stored ids' order, a collision tried again with the next counter: the same ids
        // on every instance.
        for id in internalIds {
            var attempt: UInt64 = 0
            var candidate: Int
            repeat {
                candidate = Self.publicIds.lowerBound
                    + Int(hash(.choice, [UInt64(bitPattern: questionId), UInt64(bitPattern: Int64(id)), attempt]) % UInt64(Self.publicIds.count))
                attempt += 1
            } while taken.contains(candidate)
            taken.insert(candidate)
            publicIds[id] = candidate
        }
        let ids = ChoiceIds(publicIds: publicIds, seed: hash(.order, [UInt64(bitPattern: questionId)]))
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[cacheKey] = ids
        }
        return ids
    }

    private enum Purpose: UInt8 {
        case choice = 1, order = 2
    }

    /// The first 8 bytes of the HMAC of the purpose and the numbers.
    private func hash(_ purpose: Purpose, _ numbers: [UInt64]) -> UInt64 {
        var message = [purpose.rawValue]
        for number in numbers { withUnsafeBytes(of: number.bigEndian) { message.append(contentsOf: $0) } }
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret))
        return mac.withUnsafeBytes { bytes in bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
    }
}

/// One question's choices as players see them: under public ids that say nothing about where a
/// choice stood in its file, in orders only the server can compute. Stored answers, grading and
/// exports keep the stored ids; use cases translate at their edge, both ways.
package struct ChoiceIds: Sendable, Equatable {
    /// By stored id.
    private let publicIds: [Int: Int]
    /// By public id.
    private let storedIds: [Int: Int]
    /// Keyed: the base of this question's shuffles.
    package let seed: UInt64

    init(publicIds: [Int: Int], seed: UInt64) {
        self.publicIds = publicIds
        storedIds = Dictionary(publicIds.map { ($1, $0) }) { first, _ in first }
        self.seed = seed
    }

    /// The question as a player is shown it: its choices under their public ids, ordered by them
    /// (an order only the server knows), then shuffled for `viewer` (an attempt) when given.
    package func presenting(_ question: Question, shuffledFor viewer: Int64? = nil) -> Question {
        var copy = question
        func shown(_ choices: [Choice]) -> [Choice] {
            choices.map { Choice(id: publicIds[$0.id] ?? $0.id, text: $0.text, isCorrect: $0.isCorrect) }.sorted { $0.id < $1.id }
        }
        switch question.body {
        case .singleChoice(let choices): copy.body = .singleChoice(shown(choices))
        case .multipleChoice(let choices): copy.body = .multipleChoice(shown(choices))
        default: return question
        }
        guard let viewer else { return copy }
        return copy.shufflingChoices(seed: mixed(viewer))
    }

    /// The seed of one viewer's order (an attempt, a live player): no HMAC per viewer, the
    /// question's keyed seed mixed with the viewer's number.
    package func mixed(_ viewer: Int64) -> UInt64 {
        var generator = SplitMix64(seed: seed ^ UInt64(bitPattern: viewer) &* 0x9E37_79B9_7F4A_7C15)
        return generator.next()
    }

    /// The public id of a stored one.
    package func publicId(_ id: Int) -> Int { publicIds[id] ?? id }

    /// An answer as the player gave it, in stored ids; an id the question does not show is an
    /// unknown choice (a stored id sent as if it were public among them).
    package func stored(_ answer: Answer) throws(AnswerProblem) -> Answer {
        // Not a choice question: grading says the answer does not fit.
        if publicIds.isEmpty { return answer }
        func id(_ shown: Int) throws(AnswerProblem) -> Int {
            guard let id = storedIds[shown] else { throw .unknownChoice(shown) }
            return id
        }
        switch answer {
        case .choice(let shown): return .choice(try id(shown))
        case .choices(let shown):
            var ids: Set<Int> = []
            for one in shown.sorted() { ids.insert(try id(one)) }
            return .choices(ids)
        default: return answer
        }
    }

    /// A stored answer in public ids, to show next to the question as presented. A choice the
    /// question no longer has keeps its stored id, which matches nothing shown (as before).
    package func presenting(_ answer: Answer) -> Answer {
        switch answer {
        case .choice(let id): .choice(publicId(id))
        case .choices(let ids): .choices(Set(ids.map(publicId)))
        default: answer
        }
    }

    package func presenting(_ given: GivenAnswer) -> GivenAnswer {
        GivenAnswer(presenting(given.answer), late: given.late)
    }

    /// A stored answer row (`AnsweredQuestion.given`) in public ids.
    package func presenting(stored given: String?) -> String? {
        guard let given, let read = GivenAnswer(stored: given) else { return given }
        return presenting(read).stored
    }
}
