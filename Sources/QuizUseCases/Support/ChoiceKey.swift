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

    /// The ids `question`'s choices (and an ordering's items, a matching's answers, a gap's
    /// choices) are shown under, and the seed of its orders.
    package func ids(for question: Question) -> ChoiceIds {
        let questionId = question.id ?? 0
        let groups = ChoiceIds.storedGroups(of: question)
        let cacheKey = CacheKey(question: questionId, choices: groups.flatMap { [-1] + $0 })
        if let known = cache.withLock({ $0[cacheKey] }) { return known }
        var publicIds: [[Int: Int]] = []
        for (group, internalIds) in groups.enumerated() {
            var ids: [Int: Int] = [:]
            var taken: Set<Int> = []
            // In the stored ids' order, a collision tried again with the next counter: the same ids
            // on every instance. Group 0 (choices, items, answers) keeps the message choices always had.
            for id in internalIds {
                var attempt: UInt64 = 0
                var candidate: Int
                repeat {
                    let numbers = group == 0
                        ? [UInt64(bitPattern: questionId), UInt64(bitPattern: Int64(id)), attempt]
                        : [UInt64(bitPattern: questionId), UInt64(group), UInt64(bitPattern: Int64(id)), attempt]
                    candidate = Self.publicIds.lowerBound
                        + Int(hash(group == 0 ? .choice : .gapChoice, numbers) % UInt64(Self.publicIds.count))
                    attempt += 1
                } while taken.contains(candidate)
                taken.insert(candidate)
                ids[id] = candidate
            }
            publicIds.append(ids)
        }
        let ids = ChoiceIds(publicIds: publicIds, seed: hash(.order, [UInt64(bitPattern: questionId)]))
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[cacheKey] = ids
        }
        return ids
    }

    private enum Purpose: UInt8 {
        case choice = 1, order = 2, gapChoice = 3
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
    /// By group, then stored id: group 0 holds a question's choices (an ordering's items, a
    /// matching's answers), group g a gap fill's gap g's choices.
    private let publicIds: [[Int: Int]]
    /// By group, then public id.
    private let storedIds: [[Int: Int]]
    /// Keyed: the base of this question's shuffles.
    package let seed: UInt64

    init(publicIds: [[Int: Int]], seed: UInt64) {
        self.publicIds = publicIds
        storedIds = publicIds.map { group in Dictionary(group.map { ($1, $0) }) { first, _ in first } }
        self.seed = seed
    }

    /// The stored ids each group shows under public ones.
    static func storedGroups(of question: Question) -> [[Int]] {
        func numbered(_ count: Int) -> [Int] { (0..<count).map { $0 + 1 } }
        switch question.body {
        case .singleChoice(let choices), .multipleChoice(let choices): return [choices.map(\.id).sorted()]
        case .ordering(let ordering): return [numbered(ordering.items.count)]
        case .poll(let poll): return [numbered(poll.choices.count)]
        case .matching(let matching): return [numbered(matching.answers.count)]
        case .gapFill(let gapFill):
            return [[]] + gapFill.gaps.map { weighted in
                if case .choice(let choices) = weighted.gap { numbered(choices.count) } else { [] }
            }
        case .trueFalse, .typedAnswer, .numeric, .nameAll, .wordCloud, .estimate, .slide: return []
        }
    }

    private func group(_ index: Int) -> [Int: Int] { publicIds.indices.contains(index) ? publicIds[index] : [:] }
    private func storedGroup(_ index: Int) -> [Int: Int] { storedIds.indices.contains(index) ? storedIds[index] : [:] }

    /// The question as a player is shown it: its choices under their public ids, ordered by them
    /// (an order only the server knows), then shuffled for `viewer` (an attempt) when given. An
    /// ordering's items, a matching's answers and a gap's choices take public ids too, and are
    /// shown in their order.
    package func presenting(_ question: Question, shuffledFor viewer: Int64? = nil) -> Question {
        var copy = question
        let main = group(0)
        func shown(_ choices: [Choice]) -> [Choice] {
            choices.map { Choice(id: main[$0.id] ?? $0.id, text: $0.text, isCorrect: $0.isCorrect, fraction: $0.fraction) }
                .sorted { $0.id < $1.id }
        }
        func publicList(_ count: Int, _ group: [Int: Int]) -> [Int] { (0..<count).map { group[$0 + 1] ?? $0 + 1 } }
        switch question.body {
        case .singleChoice(let choices): copy.body = .singleChoice(shown(choices))
        case .multipleChoice(let choices): copy.body = .multipleChoice(shown(choices))
        case .ordering(var ordering):
            ordering.ids = publicList(ordering.items.count, main)
            copy.body = .ordering(ordering)
            return copy
        case .poll(var poll):
            poll.ids = publicList(poll.choices.count, main)
            copy.body = .poll(poll)
            return copy
        case .matching(var matching):
            matching.answerIds = publicList(matching.answers.count, main)
            copy.body = .matching(matching)
            return copy
        case .gapFill(var gapFill):
            for index in gapFill.gaps.indices {
                if case .choice(let choices) = gapFill.gaps[index].gap {
                    gapFill.gaps[index].choiceIds = publicList(choices.count, group(index + 1))
                }
            }
            copy.body = .gapFill(gapFill)
            return copy
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
    package func publicId(_ id: Int) -> Int { group(0)[id] ?? id }

    /// An answer as the player gave it, in stored ids; an id the question does not show is an
    /// unknown choice (a stored id sent as if it were public among them).
    package func stored(_ answer: Answer) throws(AnswerProblem) -> Answer {
        let main = storedGroup(0)
        // Not a question with choices: grading says the answer does not fit.
        if storedIds.isEmpty { return answer }
        func id(_ shown: Int) throws(AnswerProblem) -> Int {
            guard let id = main[shown] else { throw .unknownChoice(shown) }
            return id
        }
        switch answer {
        case .choice(let shown): return .choice(try id(shown))
        case .choices(let shown):
            var ids: Set<Int> = []
            for one in shown.sorted() { ids.insert(try id(one)) }
            return .choices(ids)
        case .order(let shown):
            // An id not shown is no item: 0, which grading refuses as no order of the items.
            return .order(shown.map { main[$0] ?? 0 })
        case .matches(let shown):
            var matches: [Int: Int] = [:]
            for (prompt, answer) in shown.sorted(by: { $0.key < $1.key }) {
                guard let stored = main[answer] else { throw .unknownPart(answer) }
                matches[prompt] = stored
            }
            return .matches(matches)
        case .gaps(let shown):
            var gaps: [Int: GapFill.GapAnswer] = [:]
            for (gap, given) in shown.sorted(by: { $0.key < $1.key }) {
                if case .choice(let choice) = given {
                    guard let stored = storedGroup(gap)[choice] else { throw .unknownChoice(choice) }
                    gaps[gap] = .choice(stored)
                } else {
                    gaps[gap] = given
                }
            }
            return .gaps(gaps)
        default: return answer
        }
    }

    /// A stored answer in public ids, to show next to the question as presented. A choice the
    /// question no longer has keeps its stored id, which matches nothing shown (as before).
    package func presenting(_ answer: Answer) -> Answer {
        let main = group(0)
        switch answer {
        case .choice(let id): return .choice(publicId(id))
        case .choices(let ids): return .choices(Set(ids.map(publicId)))
        case .order(let ids): return .order(ids.map(publicId))
        case .matches(let matches): return .matches(matches.mapValues { main[$0] ?? $0 })
        case .gaps(let gaps):
            return .gaps(Dictionary(uniqueKeysWithValues: gaps.map { gap, given in
                if case .choice(let id) = given { return (gap, GapFill.GapAnswer.choice(group(gap)[id] ?? id)) }
                return (gap, given)
            }))
        default: return answer
        }
    }

    package func presenting(_ given: GivenAnswer) -> GivenAnswer {
        GivenAnswer(presenting(given.answer), late: given.late, credit: given.partialCredit)
    }

    /// A stored answer row (`AnsweredQuestion.given`) in public ids.
    package func presenting(stored given: String?) -> String? {
        guard let given, let read = GivenAnswer(stored: given) else { return given }
        return presenting(read).stored
    }
}
