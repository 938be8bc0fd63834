import Foundation
import QuizCore

/// Reads the "Load Question From Remote" payload: a name-them-all question and every answer.
///
/// ```
/// {"question": "What are all the java keywords?", "answer": ["abstract", "assert", …]}
/// ```
/// A top-level array of such objects is accepted too. Each object becomes one `nameAll` question
/// (medium difficulty, no typo tolerance, `timeLimitSeconds`), each string of `answer` one item,
/// trimmed of surrounding spaces. An empty answer, and two answers a player could not tell apart
/// (the same after `AnswerNormalizer.normalize`, such as "Java" and "java"), are errors. Other keys
/// are ignored. Questions go into `defaults.subject` → `defaults.topic`, in one quiz titled
/// `defaults.quizTitle`.
///
/// Problems carry a JSON path (`answer[3]`, or `[2].answer[3]` in an array) and the question's
/// text; nothing is returned unless the whole payload is good.
public struct RemoteQuestionReader: Sendable {
    public var defaults: ImportDefaults
    public var timeLimitSeconds: Int

    public init(defaults: ImportDefaults = .init(), timeLimitSeconds: Int = 300) {
        self.defaults = defaults
        self.timeLimitSeconds = timeLimitSeconds
    }

    public func read(_ data: Data) throws(ImportError) -> ReadResult {
        guard data.count <= defaults.maxBytes else { throw .tooLarge(size: data.count, limit: defaults.maxBytes) }
        let root = try OpenTriviaReader.parseJSON([UInt8](data))
        var decoder = BundleDecoder()
        var questions: [Question] = []
        switch root {
        case .object:
            questions = question(root, at: "", decoder: &decoder).map { [$0] } ?? []
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let question = question(element, at: "[\(index)]", decoder: &decoder) { questions.append(question) }
            }
            if elements.isEmpty { decoder.report("", "the payload is an empty array: it holds no questions") }
        default:
            decoder.report("", "expected an object \(RemoteQuestionReader.shape) or an array of them, found \(root.typeDescription)")
        }
        let skipped = try decoder.problems.skippedProblems(skipInvalid: defaults.skipInvalid, keptAny: !questions.isEmpty)
        var builder = BankBuilder()
        for question in questions {
            builder.add(question, subject: defaults.subject, topic: defaults.topic)
        }
        return ReadResult(bank: builder.bank(quizTitle: defaults.quizTitle), skipping: skipped)
    }

    private static let shape = #"{"question": …, "answer": […]}"#

    private func question(_ value: JSONValue, at path: String, decoder: inout BundleDecoder) -> Question? {
        guard case .object(let members) = value else {
            decoder.report(path, "expected an object \(RemoteQuestionReader.shape), found \(value.typeDescription)")
            return nil
        }
        let before = decoder.problems.problems.count + decoder.problems.omittedCount
        var fields = BundleDecoder.Fields(path: path, members: members)
        let rawText = decoder.string(fields, "question")
        let text = rawText?.trimmingCharacters(in: .whitespacesAndNewlines)
        fields.question = text
        let named = text.flatMap { $0.isEmpty ? nil : $0 }  // the question problems name
        func report(_ key: String, _ message: String) {
            decoder.report(fields.path(key), message, question: named)
        }
        if let text, text.isEmpty { report("question", "is empty") }

        var items: [NameAllItem] = []
        var origins: [Int] = []  // the index in "answer" of each item
        var seen: [String: (index: Int, answer: String)] = [:]  // by normalised answer
        let answers = decoder.array(fields, "answer") ?? []
        if case .array([]) = fields["answer"] {
            report("answer", "is empty: a name-them-all question needs at least one answer")
        }
        for (index, element) in answers.enumerated() {
            guard case .string(let raw) = element else {
                report("answer[\(index)]", "expected a string, found \(decoder.describe(element))")
                continue
            }
            let answer = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if answer.isEmpty {
                report("answer[\(index)]", "is empty")
                continue
            }
            let key = AnswerNormalizer.normalize(answer)
            if let earlier = seen[key] {
                let message = "\"\(answer)\" repeats answer[\(earlier.index)] \"\(earlier.answer)\": players could not tell them apart"
                report("answer[\(index)]", message)
                continue
            }
            if !key.isEmpty { seen[key] = (index, answer) }
            items.append(NameAllItem(answer: answer))
            origins.append(index)
        }

        guard let text, decoder.problems.problems.count + decoder.problems.omittedCount == before else { return nil }
        let body = QuestionBody.nameAll(items: items, timeLimitSeconds: timeLimitSeconds, typoTolerance: false)
        let question = Question(text: text, body: body)
        let errors = question.validationErrors()
        for error in errors {
            let (key, message) = RemoteQuestionReader.describe(error, origins: origins)
            if let key {
                report(key, message)
            } else {
                decoder.report(path, message, question: named)
            }
        }
        return errors.isEmpty ? question : nil
    }

    /// A validation error in the payload's terms: "items[2].answer" is "answer[k]" for the k it came from.
    private static func describe(_ error: Question.ValidationError, origins: [Int]) -> (key: String?, message: String) {
        switch error.field {
        case "text": return ("question", error.message)
        case "items": return ("answer", error.message.replacingOccurrences(of: "items", with: "answers"))
        case "timeLimitSeconds": return (nil, "the time limit \(error.message)")
        default:
            if error.field.hasPrefix("items["), error.field.hasSuffix("].answer"),
               let index = Int(error.field.dropFirst("items[".count).dropLast("].answer".count)),
               origins.indices.contains(index) {
                return ("answer[\(origins[index])]", error.message)
            }
            return (nil, "\(error.field) \(error.message)")
        }
    }
}
