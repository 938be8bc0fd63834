import QuizCore

/// Turns a parsed Quizbox bundle into a `Bank`, collecting every problem with its JSON path
/// ("subjects[0].topics[2].quizzes[1].questions[4].choices") and the question's text.
/// Unknown keys are problems too: a misspelt "explaination" would otherwise vanish silently.
struct BundleDecoder {
    private(set) var problems = ProblemList()

    /// An object being read, with where it is and which question it belongs to.
    struct Fields {
        var path: String
        var question: String?
        var members: [JSONValue.Member]

        subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    }

    enum Requirement<T> {
        case required, optional, defaulted(T)
    }

    mutating func decode(_ root: JSONValue) -> Bank {
        guard case .object(let members) = root else {
            report("", "not a Quizbox bundle: expected a JSON object, found \(root.typeDescription)")
            return Bank()
        }
        let bundle = Fields(path: "", members: members)
        guard case .string(BundleCodec.format) = bundle["format"] else {
            let found = bundle["format"].map { "found \(describe($0))" } ?? "it is missing"
            report("format", "must be \"\(BundleCodec.format)\" in a Quizbox bundle; \(found)")
            return Bank()
        }
        guard case .number(Double(BundleCodec.version)) = bundle["version"] else {
            let found = bundle["version"].map { "found \(describe($0))" } ?? "it is missing"
            report("version", "unsupported bundle version: this Quizbox reads version \(BundleCodec.version); \(found)")
            return Bank()
        }
        rejectUnknownKeys(bundle, allowed: ["format", "version", "subjects"])

        let subjects = array(bundle, "subjects", .required) ?? []
        return Bank(subjects: subjects.enumerated().compactMap { index, value in
            subject(value, at: "subjects[\(index)]")
        })
    }

    private mutating func subject(_ value: JSONValue, at path: String) -> BankSubject? {
        guard let fields = object(value, at: path, allowed: ["name", "description", "topics"]) else { return nil }
        let name = requiredName(fields, "name")
        let description = string(fields, "description", .defaulted(""))
        let topics = (array(fields, "topics", .defaulted([])) ?? []).enumerated().compactMap { index, value in
            topic(value, at: fields.path("topics[\(index)]"))
        }
        return BankSubject(name: name ?? "", description: description ?? "", topics: topics)
    }

    private mutating func topic(_ value: JSONValue, at path: String) -> BankTopic? {
        guard let fields = object(value, at: path, allowed: ["name", "description", "quizzes", "questions"]) else { return nil }
        let name = requiredName(fields, "name")
        let description = string(fields, "description", .defaulted(""))
        let quizzes = (array(fields, "quizzes", .defaulted([])) ?? []).enumerated().compactMap { index, value in
            quiz(value, at: fields.path("quizzes[\(index)]"))
        }
        let questions = (array(fields, "questions", .defaulted([])) ?? []).enumerated().compactMap { index, value in
            question(value, at: fields.path("questions[\(index)]"))
        }
        return BankTopic(name: name ?? "", description: description ?? "", quizzes: quizzes, questions: questions)
    }

    private mutating func quiz(_ value: JSONValue, at path: String) -> BankQuiz? {
        guard let fields = object(value, at: path, allowed: ["title", "description", "questions"]) else { return nil }
        let title = requiredName(fields, "title")
        let description = string(fields, "description", .defaulted(""))
        let questions = (array(fields, "questions", .defaulted([])) ?? []).enumerated().compactMap { index, value in
            question(value, at: fields.path("questions[\(index)]"))
        }
        return BankQuiz(title: title ?? "", description: description ?? "", questions: questions)
    }

    // MARK: - Reading fields

    mutating func object(_ value: JSONValue, at path: String, allowed: Set<String>, question: String? = nil) -> Fields? {
        guard case .object(let members) = value else {
            report(path, "expected an object, found \(value.typeDescription)", question: question)
            return nil
        }
        let fields = Fields(path: path, question: question, members: members)
        rejectUnknownKeys(fields, allowed: allowed)
        return fields
    }

    mutating func rejectUnknownKeys(_ fields: Fields, allowed: Set<String>) {
        for member in fields.members where !allowed.contains(member.key) {
            report(fields.path(member.key), "unknown key", question: fields.question)
        }
    }

    /// A field that `extract` understands. JSON null counts as absent for optional fields.
    private mutating func field<T>(
        _ fields: Fields, _ key: String, _ requirement: Requirement<T>, expected: String,
        _ extract: (JSONValue) -> T?
    ) -> T? {
        guard let value = fields[key], value != .null || requirement.isRequired else {
            switch requirement {
            case .required: report(fields.path, "missing \"\(key)\"", question: fields.question)
            case .optional: break
            case .defaulted(let fallback): return fallback
            }
            return nil
        }
        if let result = extract(value) { return result }
        report(fields.path(key), "expected \(expected), found \(describe(value))", question: fields.question)
        return nil
    }

    mutating func string(_ fields: Fields, _ key: String, _ requirement: Requirement<String> = .required) -> String? {
        field(fields, key, requirement, expected: "a string") { if case .string(let s) = $0 { s } else { nil } }
    }

    /// A required name or title, which must not be blank.
    mutating func requiredName(_ fields: Fields, _ key: String) -> String? {
        guard let name = string(fields, key) else { return nil }
        if name.allSatisfy(\.isWhitespace) { report(fields.path(key), "is empty") }
        return name
    }

    mutating func bool(_ fields: Fields, _ key: String, _ requirement: Requirement<Bool> = .required) -> Bool? {
        field(fields, key, requirement, expected: "true or false") { if case .bool(let b) = $0 { b } else { nil } }
    }

    mutating func number(_ fields: Fields, _ key: String, _ requirement: Requirement<Double> = .required) -> Double? {
        field(fields, key, requirement, expected: "a number") { if case .number(let n) = $0 { n } else { nil } }
    }

    mutating func integer(_ fields: Fields, _ key: String, _ requirement: Requirement<Int> = .required) -> Int? {
        field(fields, key, requirement, expected: "a whole number") { if case .number(let n) = $0 { Int(exactly: n) } else { nil } }
    }

    mutating func array(_ fields: Fields, _ key: String, _ requirement: Requirement<[JSONValue]> = .required) -> [JSONValue]? {
        field(fields, key, requirement, expected: "an array") { if case .array(let a) = $0 { a } else { nil } }
    }

    /// An array of strings, each element checked at its own path ("answers[2]").
    mutating func strings(_ fields: Fields, _ key: String, _ requirement: Requirement<[JSONValue]> = .required) -> [String]? {
        guard let items = array(fields, key, requirement) else { return nil }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let string) = item else {
                report(fields.path("\(key)[\(index)]"), "expected a string, found \(describe(item))", question: fields.question)
                continue
            }
            strings.append(string)
        }
        return strings
    }

    func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): "\"\(s)\""
        case .number(let n): JSONValue.format(n)
        case .bool(let b): b ? "true" : "false"
        default: value.typeDescription
        }
    }

    mutating func report(_ path: String, _ message: String, question: String? = nil) {
        problems.append(FormatProblem(path: path.isEmpty ? nil : path, question: question, message: message))
    }
}

extension BundleDecoder.Requirement {
    var isRequired: Bool {
        if case .required = self { true } else { false }
    }
}
