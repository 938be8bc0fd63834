import Foundation
import QuizCore
import QuizFormats
import Testing

/// The "Load Question From Remote" use case (quiz-mobile-app's README, /work/shared/seeds/004…):
/// the payload is validated, then becomes a question with its correct answers.
@Suite(.timeLimit(.minutes(1))) struct RemoteQuestionReaderTests {
    static let javaKeywords = [
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
        "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
        "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
        "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
        "throw", "throws", "transient", "try", "void", "volatile", "while",
    ]

    /// The payload contract from the use case, as the server sends it (pretty-printed).
    static let contractPayload = """
        {
          "question": "What are all the java keywords?",
          "answer": [
        \(javaKeywords.map { "    \"\($0)\"" }.joined(separator: ",\n"))
          ]
        }
        """

    static func read(_ json: String, defaults: ImportDefaults = .init(), timeLimitSeconds: Int = 300) throws -> ReadResult {
        try RemoteQuestionReader(defaults: defaults, timeLimitSeconds: timeLimitSeconds).read(Data(json.utf8))
    }

    static func questions(_ result: ReadResult) -> [Question] {
        result.bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions)
    }

    @Test func theContractPayloadBecomesOneNameThemAllQuestionWithEveryAnswer() throws {
        let defaults = ImportDefaults(subject: "Programming", topic: "Java", quizTitle: "Keywords")
        let result = try Self.read(Self.contractPayload, defaults: defaults)
        #expect(result.warnings.isEmpty)
        #expect(result.bank == Bank(subjects: [BankSubject(name: "Programming", topics: [BankTopic(name: "Java", quizzes: [
            BankQuiz(title: "Keywords", questions: [Question(
                text: "What are all the java keywords?",
                body: .nameAll(items: Self.javaKeywords.map { NameAllItem(answer: $0) }, timeLimitSeconds: 300, typoTolerance: false))]),
        ])])]))
    }

    @Test func anArrayOfPayloadsBecomesOneQuestionEachInOrder() throws {
        let json = #"[{"question": "Name the Beatles", "answer": ["John", "Paul", "George", "Ringo"]}, {"question": "Primary colours?", "answer": ["red", "blue", "yellow"]}]"#
        let questions = Self.questions(try Self.read(json, timeLimitSeconds: 90))
        #expect(questions.map(\.text) == ["Name the Beatles", "Primary colours?"])
        #expect(questions.map(\.body) == [
            .nameAll(items: ["John", "Paul", "George", "Ringo"].map { NameAllItem(answer: $0) }, timeLimitSeconds: 90, typoTolerance: false),
            .nameAll(items: ["red", "blue", "yellow"].map { NameAllItem(answer: $0) }, timeLimitSeconds: 90, typoTolerance: false),
        ])
    }

    @Test func answersAndTheQuestionAreTrimmedAndOtherKeysIgnored() throws {
        let json = "\u{FEFF}" + #"{"id": 7, "question": "  Planets?\n", "answer": ["  Mercury ", "\tVenus"], "source": "nasa"}"#
        let question = try #require(Self.questions(try Self.read(json)).first)
        #expect(question.text == "Planets?")
        #expect(question.body == .nameAll(items: [NameAllItem(answer: "Mercury"), NameAllItem(answer: "Venus")], timeLimitSeconds: 300, typoTolerance: false))
    }

    @Test func answersThatOnlyLookAlikeAreAllKept() throws {
        // Different once normalised: a word more, or a decimal point between digits.
        let json = #"{"question": "Q", "answer": ["Straße", "Strasse Nord", "3.14", "314"]}"#
        let question = try #require(Self.questions(try Self.read(json)).first)
        #expect(question.body == .nameAll(
            items: ["Straße", "Strasse Nord", "3.14", "314"].map { NameAllItem(answer: $0) }, timeLimitSeconds: 300, typoTolerance: false))
    }
}

@Suite(.timeLimit(.minutes(1))) struct RemoteQuestionReaderProblemTests {
    static func error(_ bytes: [UInt8], defaults: ImportDefaults = .init(), timeLimitSeconds: Int = 300,
                      sourceLocation: SourceLocation = #_sourceLocation) -> ImportError {
        do {
            let result = try RemoteQuestionReader(defaults: defaults, timeLimitSeconds: timeLimitSeconds).read(Data(bytes))
            Issue.record("expected the payload to be rejected, but it read \(result.bank.questionCount) questions", sourceLocation: sourceLocation)
            return ImportError(problems: [])
        } catch {
            return error
        }
    }

    static func problems(_ json: String, timeLimitSeconds: Int = 300, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        error(Array(json.utf8), timeLimitSeconds: timeLimitSeconds, sourceLocation: sourceLocation).problems.map(\.description)
    }

    @Test func answersAPlayerCouldNotTellApartAreAnErrorNamingBoth() {
        #expect(Self.problems(#"{"question": "Languages?", "answer": ["Java", "C", "java ", "C++", "The Go", "Go"]}"#) == [
            "answer[2]: \"java\" repeats answer[0] \"Java\": players could not tell them apart (question \"Languages?\")",
            "answer[3]: \"C++\" repeats answer[1] \"C\": players could not tell them apart (question \"Languages?\")",
            "answer[5]: \"Go\" repeats answer[4] \"The Go\": players could not tell them apart (question \"Languages?\")",
        ])
    }

    @Test func emptyAnswersAreErrors() {
        #expect(Self.problems(#"{"question": "Q", "answer": ["a", "", "  ", "?!"]}"#) == [
            "answer[1]: is empty (question \"Q\")",
            "answer[2]: is empty (question \"Q\")",
        ])
        #expect(Self.problems(#"{"question": "Q", "answer": ["a", "?!"]}"#) == [
            "answer[1]: is empty once punctuation and spaces are ignored (question \"Q\")",
        ])
        #expect(Self.problems(#"{"question": "Q", "answer": []}"#) == [
            "answer: is empty: a name-them-all question needs at least one answer (question \"Q\")",
        ])
    }

    @Test func missingOrMistypedFieldsAreReportedAtTheirPath() {
        #expect(Self.problems(#"{"answer": ["a"]}"#) == ["missing \"question\""])
        #expect(Self.problems(#"{"question": "Q"}"#) == ["missing \"answer\" (question \"Q\")"])
        #expect(Self.problems(#"{"question": 1, "answer": "a"}"#) == [
            "question: expected a string, found 1", "answer: expected an array, found \"a\"",
        ])
        #expect(Self.problems(#"{"question": " ", "answer": ["a", 2, null]}"#) == [
            "question: is empty",
            "answer[1]: expected a string, found 2",
            "answer[2]: expected a string, found null",
        ])
    }

    @Test func inAnArrayPathsStartWithTheElementsIndex() {
        #expect(Self.problems(#"[{"question": "Q1", "answer": ["a"]}, "x", {"question": "Q3", "answer": ["b", "B"]}]"#) == [
            "[1]: expected an object {\"question\": …, \"answer\": […]}, found a string",
            "[2].answer[1]: \"B\" repeats answer[0] \"b\": players could not tell them apart (question \"Q3\")",
        ])
        #expect(Self.problems("[]") == ["the payload is an empty array: it holds no questions"])
        #expect(Self.problems("\"question\"") == ["expected an object {\"question\": …, \"answer\": […]} or an array of them, found a string"])
    }

    @Test func theQuestionRulesApply() {
        #expect(Self.problems(#"{"question": "Q", "answer": ["a"]}"#, timeLimitSeconds: 5) == [
            "the time limit must be between 10 and 3600 seconds, not 5 (question \"Q\")",
        ])
        let many = (0...1_000).map { "\"item \($0)\"" }.joined(separator: ",")
        #expect(Self.problems(#"{"question": "Q", "answer": [\#(many)]}"#) == ["answer: needs 1 to 1000 answers, has 1001 (question \"Q\")"])
        let long = String(repeating: "x", count: 2_001)
        #expect(Self.problems(#"{"question": "\#(long)", "answer": ["a"]}"#).map { $0.prefix(44) } == ["question: is longer than 2000 characters (qu"])
    }

    @Test func aHostilePayloadOfIdenticalAnswersIsRejectedQuickly() {
        let same = Array(repeating: "\"Java\"", count: 100_000).joined(separator: ",")
        let error = Self.error(Array(#"{"question": "Q", "answer": [\#(same)]}"#.utf8))
        #expect(error.problems.count + error.omittedCount == 99_999)
    }

    @Test func malformedJSONIsRejectedWithLineAndColumn() {
        let error = Self.error(Array("{\n  \"question\": \"Q\",\n  \"answer\": [\"a\",]\n}".utf8))
        #expect(error.problems == [FormatProblem(line: 3, column: 18, message: "not valid JSON: expected a value")])
        let latin1 = Array(#"{"question": "Caf"#.utf8) + [0xE9] + Array(#"", "answer": ["a"]}"#.utf8)
        #expect(Self.error(latin1).problems.map(\.description) == ["line 1, column 14: not valid JSON: string is not valid UTF-8"])
    }

    @Test func aPayloadOverTheSizeLimitIsRejectedBeforeParsing() {
        let error = Self.error(Array(#"{"question": "Q", "answer": ["a"]}"#.utf8), defaults: ImportDefaults(maxBytes: 8))
        #expect(error.problems.map(\.message) == ["the file is 34 bytes, over the import limit of 8 bytes"])
    }

    @Test func mutationsOfThePayloadAndRandomBytesAreReadOrRejectedNeverCrash() {
        let samples = [RemoteQuestionReaderTests.contractPayload, #"[{"question": "Q", "answer": ["a", "b"]}, {"question": "R", "answer": ["c"]}]"#]
            .map { Array($0.utf8) }
        let tokens = ["\"", "{", "}", "[", "]", ",", ":", "\\", "\\u00e9", "null", "1", " ", "\n", "\"answer\"", "\"question\"", "?"]
            .map { Array($0.utf8) } + [[0xFF], [0xC3], [0]]
        var fuzzer = SeededMutator(seed: 0x4E3A)
        var accepted = 0
        for round in 0..<2_000 {
            let input: [UInt8]
            switch round % 5 {
            case 0: input = fuzzer.randomBytes(maxCount: 200)
            case 1: input = fuzzer.randomTokens(tokens, maxCount: 40)
            default: input = fuzzer.mutate(samples[round % 2], tokens: tokens)
            }
            do {
                let result = try RemoteQuestionReader().read(Data(input))
                accepted += 1
                let questions = RemoteQuestionReaderTests.questions(result)
                #expect(!questions.isEmpty && questions.allSatisfy { $0.validationErrors().isEmpty })
            } catch {
                #expect(!error.problems.isEmpty && error.problems.count <= ImportError.maxProblems)
            }
        }
        #expect(accepted > 0)
    }
}
