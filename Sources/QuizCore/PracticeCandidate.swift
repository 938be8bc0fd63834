/// What a store returns cheaply for a practice draw: enough to filter and order, not the question.
public struct PracticeCandidate: Sendable, Hashable {
    public var id: Int64
    public var subjectId: Int64
    public var topicId: Int64
    public var difficulty: Difficulty
    public var kind: QuestionKind
    /// Place in the bank, for `PracticeSettings.Order.bankOrder`.
    public var position: Int

    public init(id: Int64, subjectId: Int64, topicId: Int64, difficulty: Difficulty, kind: QuestionKind, position: Int) {
        self.id = id
        self.subjectId = subjectId
        self.topicId = topicId
        self.difficulty = difficulty
        self.kind = kind
        self.position = position
    }
}
