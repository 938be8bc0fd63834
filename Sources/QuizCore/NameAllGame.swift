import Foundation

/// One player's round of a "name them all" question: guesses against a time limit.
///
/// A pure value: it never reads a clock, every call says when it happens (`at:`). A guess at the
/// deadline, or up to `grace` seconds after it (network latency), counts; later ones are `tooLate`.
/// The game ends when every item is found, when time runs out, or when the player gives up.
///
/// Points: `question.points` (default 1) per item found, plus, for finding every item, a bonus of
/// the item count divided by 5, rounded up, times `question.points` (10 items → +2, 500 → +100),
/// so the bonus keeps its weight on long lists and is never zero.
public struct NameAllGame: Sendable, Hashable {
    public static let defaultTimeLimitSeconds = 300
    public static let defaultGrace: TimeInterval = 1
    /// Longer guesses are refused before normalising (no item is anywhere near this long).
    public static let maxGuessLength = 200

    public enum Error: Swift.Error, Sendable, Hashable {
        /// Only name-them-all questions can be played as a game.
        case notNameAll(QuestionKind)
        case noItems
    }

    public enum EndReason: String, Sendable, Hashable, Codable {
        case allFound, timeUp, gaveUp
    }

    public enum State: Sendable, Hashable {
        case playing
        case finished(EndReason)
    }

    /// What became of one guess. Only `found` changes the game.
    public enum Verdict: Sendable, Hashable {
        /// A new item: reveal `items[item]`.
        case found(item: Int)
        case alreadyFound(item: Int)
        case notAnItem
        /// Nothing left once normalised: blank, punctuation or control characters only.
        case empty
        /// Over `maxGuessLength` characters.
        case tooLong
        /// After the deadline and its grace; the game is (now) finished with `timeUp`.
        case tooLate
        /// The game had already ended with every item found or the player giving up.
        case gameOver
    }

    public struct Result: Sendable, Hashable {
        public struct Item: Sendable, Hashable {
            public var index: Int
            public var answer: String
        }

        /// Nil while the game is still running (a result can be shown mid-game).
        public var endReason: EndReason?
        /// In the order found.
        public var found: [Item]
        /// In the question's order.
        public var missed: [Item]
        /// From the start to the end of the game (or to now), at most the time limit.
        public var secondsUsed: TimeInterval
        public var points: Int
    }

    public let question: Question
    public let items: [NameAllItem]
    public let startedAt: Date
    public let timeLimitSeconds: Int
    public let grace: TimeInterval
    /// As of the last call; `state(at:)` also notices that time ran out since.
    public private(set) var state: State = .playing
    /// Indices into `items`, in the order found.
    public private(set) var found: [Int] = []
    /// When the game ended; nil while playing.
    public private(set) var endedAt: Date?
    private var isFound: [Bool]
    private let lookup: Lookup

    public init(question: Question, startedAt: Date, grace: TimeInterval = NameAllGame.defaultGrace) throws(Error) {
        guard case .nameAll(let items, let timeLimitSeconds, let typoTolerance) = question.body else {
            throw .notNameAll(question.kind)
        }
        guard !items.isEmpty else { throw .noItems }
        self.question = question
        self.items = items
        self.startedAt = startedAt
        self.timeLimitSeconds = timeLimitSeconds > 0 ? timeLimitSeconds : NameAllGame.defaultTimeLimitSeconds
        self.grace = max(0, grace)
        isFound = Array(repeating: false, count: items.count)
        lookup = Lookup(items: items, typoTolerance: typoTolerance)
    }

    /// A game as stored: the items found so far (in the order found) and how it ended, if it has.
    /// Unknown or repeated item indices are ignored.
    public init(
        question: Question, startedAt: Date, found: [Int], ended: (reason: EndReason, at: Date)?,
        grace: TimeInterval = NameAllGame.defaultGrace
    ) throws(Error) {
        try self.init(question: question, startedAt: startedAt, grace: grace)
        for item in found where items.indices.contains(item) && !isFound[item] {
            isFound[item] = true
            self.found.append(item)
        }
        if let ended {
            end(ended.reason, at: ended.at)
        } else if self.found.count == items.count {
            end(.allFound, at: startedAt)
        }
    }

    /// The end of the time limit. Guesses up to `deadline + grace` still count.
    public var deadline: Date { startedAt + TimeInterval(timeLimitSeconds) }

    private func isLate(_ at: Date) -> Bool { at > deadline + grace }

    /// The state at `at`: `finished(.timeUp)` once the deadline and grace have passed.
    public func state(at: Date) -> State {
        if state == .playing && isLate(at) { return .finished(.timeUp) }
        return state
    }

    public mutating func guess(_ text: String, at: Date) -> Verdict {
        guard state == .playing else { return state == .finished(.timeUp) ? .tooLate : .gameOver }
        if isLate(at) {
            end(.timeUp, at: deadline)
            return .tooLate
        }
        // Bounded check: counting the characters of a 10 MB string would cost more than the guess.
        if text.utf8.count > NameAllGame.maxGuessLength && !text.dropFirst(NameAllGame.maxGuessLength).isEmpty {
            return .tooLong
        }
        let key = AnswerNormalizer.normalize(text)
        guard !key.isEmpty else { return .empty }
        guard let item = lookup.item(forKey: key) else { return .notAnItem }
        if isFound[item] { return .alreadyFound(item: item) }
        isFound[item] = true
        found.append(item)
        if found.count == items.count { end(.allFound, at: min(at, deadline)) }
        return .found(item: item)
    }

    /// Ends the game; does nothing once it has ended. Giving up after time ran out ends it as `timeUp`.
    public mutating func giveUp(at: Date) {
        guard state == .playing else { return }
        if isLate(at) {
            end(.timeUp, at: deadline)
        } else {
            end(.gaveUp, at: min(at, deadline))
        }
    }

    private mutating func end(_ reason: EndReason, at: Date) {
        state = .finished(reason)
        endedAt = max(at, startedAt)
    }

    public func result(at: Date) -> Result {
        let current = state(at: at)
        let end: Date
        switch current {
        case .playing: end = min(max(at, startedAt), deadline)
        case .finished(.timeUp): end = deadline
        case .finished: end = endedAt ?? at
        }
        var endReason: EndReason? = nil
        if case .finished(let reason) = current { endReason = reason }
        let allFound = found.count == items.count
        let bonus = allFound ? (items.count + 4) / 5 : 0
        return Result(
            endReason: endReason,
            found: found.map { Result.Item(index: $0, answer: items[$0].answer) },
            missed: items.indices.filter { !isFound[$0] }.map { Result.Item(index: $0, answer: items[$0].answer) },
            secondsUsed: end.timeIntervalSince(startedAt),
            points: (found.count + bonus) * question.points
        )
    }

    // The lookup is derived from the question, so it takes no part in equality.
    public static func == (lhs: NameAllGame, rhs: NameAllGame) -> Bool {
        lhs.question == rhs.question && lhs.startedAt == rhs.startedAt && lhs.grace == rhs.grace
            && lhs.state == rhs.state && lhs.found == rhs.found && lhs.endedAt == rhs.endedAt
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(question)
        hasher.combine(startedAt)
        hasher.combine(grace)
        hasher.combine(state)
        hasher.combine(found)
        hasher.combine(endedAt)
    }
}
