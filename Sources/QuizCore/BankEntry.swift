/// One imported question with the subject and topic it goes into: what a reader hands to the
/// store a batch at a time when a file is too large to hold whole as a `Bank`.
public struct BankEntry: Sendable, Hashable {
    public var question: Question
    public var subject: String
    public var topic: String

    public init(question: Question, subject: String, topic: String) {
        self.question = question
        self.subject = subject
        self.topic = topic
    }
}
