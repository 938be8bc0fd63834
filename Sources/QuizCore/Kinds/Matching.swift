/// A matching question (Moodle's matching, GIFT's `=a -> b`): prompts, each matched to one answer,
/// plus extra answers that match nothing.
///
/// Prompts keep their ids (1-based, in order: their order says nothing). The answers offered are
/// the pairs' answers, each text once (two prompts may share an answer: "cat → mammal", "dog →
/// mammal"), then the extras; an answer's stored id is its place in that list, which would give
/// the pairs away, so players see answers under public ids (`answerIds`), ordered by them.
public struct Matching: Sendable, Hashable {
    public struct Pair: Sendable, Hashable {
        public var prompt: String
        public var answer: String

        public init(prompt: String, answer: String) {
            self.prompt = prompt
            self.answer = answer
        }
    }

    public static let pairCountRange = 2...10
    public static let maxExtras = 10
    public static let maxTextLength = 200

    public var pairs: [Pair]
    /// Answers that match no prompt.
    public var extras: [String]
    /// Each offered answer's id, parallel to `answers`: nil for 1...n as stored.
    public var answerIds: [Int]?

    public init(pairs: [Pair], extras: [String] = [], answerIds: [Int]? = nil) {
        self.pairs = pairs
        self.extras = extras
        self.answerIds = answerIds
    }

    private func ids(count: Int) -> [Int] {
        answerIds.flatMap { $0.count == count ? $0 : nil } ?? (0..<count).map { $0 + 1 }
    }

    /// The answers as a player sees them: ordered by id.
    public var shownAnswers: [(id: Int, text: String)] {
        let answers = answers
        return zip(ids(count: answers.count), answers).map { (id: $0, text: $1) }.sorted { $0.id < $1.id }
    }

    /// The answers offered, each text once (compared as choices are), in stored-id order.
    public var answers: [String] {
        var seen: Set<String> = []
        return (pairs.map(\.answer) + extras).filter { seen.insert(Question.choiceKey($0)).inserted }
    }

    /// The right answer's id for each prompt, in prompt order.
    public var rightAnswerIds: [Int] {
        let keys = answers.map(Question.choiceKey)
        let ids = ids(count: keys.count)
        return pairs.map { pair in keys.firstIndex(of: Question.choiceKey(pair.answer)).map { ids[$0] } ?? 0 }
    }

    /// `matches` maps prompt ids to answer ids; a prompt left out is unmatched (and wrong).
    public func check(_ matches: [Int: Int]) throws(GradingError) {
        let known = Set(ids(count: answers.count))
        for prompt in matches.keys.sorted() where !(1...max(1, pairs.count)).contains(prompt) { throw .unknownPart(prompt) }
        for answer in matches.values.sorted() where !known.contains(answer) { throw .unknownPart(answer) }
    }

    /// For each prompt, in order, whether the player matched it right.
    public func promptsRight(_ matches: [Int: Int]) throws(GradingError) -> [Bool] {
        try check(matches)
        return rightAnswerIds.enumerated().map { matches[$0.offset + 1] == $0.element }
    }

    /// The share of prompts matched right.
    public func credit(for matches: [Int: Int]) throws(GradingError) -> Credit {
        let right = try promptsRight(matches)
        return Credit(right: right.count(where: { $0 }), of: pairs.count)
    }

    func findProblems(_ fail: (String, String) -> Void) {
        if !Matching.pairCountRange.contains(pairs.count) {
            fail("pairs", "needs 2 to 10 pairs, has \(pairs.count)")
        }
        if extras.count > Matching.maxExtras {
            fail("extras", "holds at most \(Matching.maxExtras) extra answers, has \(extras.count)")
        }
        validateDistinctTexts(pairs.map(\.prompt), field: { "pairs[\($0)].prompt" }, maxLength: Matching.maxTextLength, fail)
        for (index, pair) in pairs.enumerated() {
            if isBlank(pair.answer) {
                fail("pairs[\(index)].answer", "is empty")
            } else if exceeds(pair.answer, Matching.maxTextLength) {
                fail("pairs[\(index)].answer", "is longer than \(Matching.maxTextLength) characters")
            }
        }
        let pairAnswers = Set(pairs.map { Question.choiceKey($0.answer) })
        for (index, extra) in extras.enumerated() where !isBlank(extra) && pairAnswers.contains(Question.choiceKey(extra)) {
            fail("extras[\(index)]", "is already a pair's answer, so it would match a prompt")
        }
        validateDistinctTexts(extras, field: { "extras[\($0)]" }, maxLength: Matching.maxTextLength, fail)
    }
}
