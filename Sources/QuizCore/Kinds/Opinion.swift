import Foundation

/// A poll (Kahoot, ClassQuiz's voting): choices with no right answer and no points. The reveal is
/// how everyone answered.
public struct Poll: Sendable, Hashable {
    public static let choiceCountRange = 2...10

    public var choices: [String]
    /// Each choice's id: 1...n as stored, public ids once presented (as other choices have).
    public var ids: [Int]

    public init(choices: [String], ids: [Int]? = nil) {
        self.choices = choices
        self.ids = ids ?? choices.indices.map { $0 + 1 }
    }

    /// The choices as a player sees them: ordered by id.
    public var shown: [(id: Int, text: String)] {
        zip(ids, choices).map { (id: $0, text: $1) }.sorted { $0.id < $1.id }
    }

    public func check(_ choice: Int) throws(GradingError) {
        guard ids.contains(choice) else { throw .unknownChoice(choice) }
    }

    /// How many chose each choice, in choice order, from counts keyed by choice id.
    public func tally(_ counts: [Int: Int]) -> [Int] {
        ids.map { counts[$0] ?? 0 }
    }

    func findProblems(_ fail: (String, String) -> Void) {
        if !Poll.choiceCountRange.contains(choices.count) {
            fail("choices", "needs 2 to 10 choices, has \(choices.count)")
        }
        validateDistinctTexts(choices, field: { "choices[\($0)]" }, maxLength: Question.maxChoiceTextLength, fail)
    }
}

/// A word cloud (Kahoot, Mentimeter): a short free answer, no right answer and no points. Answers
/// are counted by their normalised form; the host may hide one from every screen.
public struct WordCloud: Sendable, Hashable {
    /// The longest entry a player may send, in characters: a word or a few.
    public static let maxEntryLength = 40

    public init() {}

    /// The key entries are counted by ("Helsinki!", " helsinki" are one), or nil for an entry that
    /// is empty once punctuation goes or longer than `maxEntryLength`.
    public static func key(_ entry: String) -> String? {
        guard !exceeds(entry, maxEntryLength) else { return nil }
        let key = AnswerNormalizer.normalize(entry)
        return key.isEmpty ? nil : key
    }

    /// Counts of entries by key, each shown as its most common spelling (alphabetically first on a tie).
    public struct Tally: Sendable, Hashable {
        public struct Entry: Sendable, Hashable {
            public var key: String
            public var text: String
            public var count: Int
        }

        private var counts: [String: Int] = [:]
        private var spellings: [String: [String: Int]] = [:]
        private var order: [String] = []
        public private(set) var hidden: Set<String> = []
        /// Distinct keys kept: past this, new words are counted in `others` (a cloud of thousands
        /// of different words is unreadable and a cost).
        public static let maxKeys = 500
        public private(set) var others = 0

        public init() {}

        /// Adds an entry (`times` times: counts already summed); false for an entry that has no key.
        @discardableResult
        public mutating func add(_ entry: String, times: Int = 1) -> Bool {
            guard let key = WordCloud.key(entry), times > 0 else { return false }
            if counts[key] == nil {
                guard counts.count < Tally.maxKeys else {
                    others += times
                    return true
                }
                order.append(key)
            }
            counts[key, default: 0] += times
            // Shown as typed, without the punctuation around it ("Coffee!" is shown "Coffee").
            let spelling = entry.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if spellings[key, default: [:]].count < 8 || spellings[key]?[spelling] != nil {
                spellings[key, default: [:]][spelling, default: 0] += times
            }
            return true
        }

        public mutating func hide(_ key: String) { hidden.insert(key) }

        /// The shown entries, most common first (ties: first typed first), at most `limit`.
        public func top(_ limit: Int) -> [Entry] {
            let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
            return order.filter { !hidden.contains($0) }
                .sorted { (counts[$0]!, position[$1]!) > (counts[$1]!, position[$0]!) }
                .prefix(limit)
                .map { key in Entry(key: key, text: spelling(of: key), count: counts[key]!) }
        }

        private func spelling(of key: String) -> String {
            let seen = spellings[key] ?? [:]
            return seen.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? key
        }
    }
}
