import QuizCore
import QuizFormats
import Testing

@Suite struct BundleCodecProblemTests {
    private func problems(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> [FormatProblem] {
        do {
            _ = try BundleCodec().read(Array(json.utf8))
            Issue.record("expected the bundle to be rejected", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.problems
        }
    }

    /// A bundle whose one topic holds `questions` (JSON text) in one quiz.
    private func bundle(_ questions: String) -> String {
        """
        {"format": "quizbox-bundle", "version": 1, "subjects": [{"name": "S", "topics": [
          {"name": "T", "quizzes": [{"title": "Q", "questions": [\(questions)]}]}]}]}
        """
    }

    private let root = "subjects[0].topics[0].quizzes[0].questions"

    @Test func wrongFormatIsNotABundle() {
        #expect(problems(#"{"format": "moodle", "version": 1, "subjects": []}"#).map(\.description) == [
            "format: must be \"quizbox-bundle\" in a Quizbox bundle; found \"moodle\"",
        ])
        #expect(problems(#"{"subjects": []}"#).map(\.description) == [
            "format: must be \"quizbox-bundle\" in a Quizbox bundle; it is missing",
        ])
        #expect(problems("[1, 2]").map(\.message) == ["not a Quizbox bundle: expected a JSON object, found an array"])
    }

    @Test func unsupportedVersionIsAClearProblem() {
        #expect(problems(#"{"format": "quizbox-bundle", "version": 2, "subjects": []}"#).map(\.description) == [
            "version: unsupported bundle version: this Quizbox reads version 1; found 2",
        ])
    }

    @Test func syntaxErrorsHaveLineAndColumn() {
        let json = "{\n  \"format\": \"quizbox-bundle\",\n  \"version\": 1,\n  \"subjects\": [\n    {\"name\": \"é\" \"x\"}\n  ]\n}"
        #expect(problems(json) == [FormatProblem(line: 5, column: 18, message: "not valid JSON: expected \",\" or \"}\"")])
        #expect(problems("{\"a\": 1, \"a\": 2}").map(\.description) == ["line 1, column 10: not valid JSON: duplicate key \"a\""])
        #expect(problems("").map(\.message) == ["not valid JSON: unexpected end of the file"])
        #expect(problems("{\"a\": 01}").map(\.message) == ["not valid JSON: numbers cannot start with 0"])
        #expect(problems("{\"a\": \"tab\there\"}").first?.column == 11)
        #expect(problems(String(repeating: "[", count: 100)).map(\.message) == ["not valid JSON: nested deeper than 64 levels"])
    }

    @Test func badStringsAreSyntaxErrors() {
        #expect(problems(#"{"a": "\x"}"#).map(\.description) == [#"line 1, column 8: not valid JSON: unknown escape \x"#])
        #expect(problems(#"{"a": "\ud83c"}"#).map(\.message) == ["not valid JSON: unpaired surrogate escape"])
        #expect(problems(#"{"a": "never closed}"#).map(\.description) == ["line 1, column 7: not valid JSON: string never closed: a \" is missing"])
        let invalidUTF8 = Array(#"{"a": ""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        do {
            _ = try BundleCodec().read(invalidUTF8)
            Issue.record("expected a failure")
        } catch {
            #expect(error.problems.map(\.message) == ["not valid JSON: string is not valid UTF-8"])
        }
        #expect(problems("{\"a\": tru}").map(\.message) == ["not valid JSON: expected a value"])
        #expect(problems("{} x").map(\.message) == ["not valid JSON: unexpected text after the JSON value"])
    }

    @Test func choiceProblemsCarryTheirPathAndTheQuestionText() {
        let found = problems(bundle(#"""
            {"kind": "singleChoice", "text": "Capital of France?", "choices": [{"text": "Paris", "correct": 1}, {"text": "Lyon"}]}
            """#))
        #expect(found == [FormatProblem(
            path: "\(root)[0].choices[0].correct", question: "Capital of France?", message: "expected true or false, found 1")])
        #expect(found.first?.description
            == "\(root)[0].choices[0].correct: expected true or false, found 1 (question \"Capital of France?\")")
    }

    @Test func validationErrorsExtendTheQuestionPath() {
        let found = problems(bundle(#"""
            {"kind": "typedAnswer", "text": "Ok?", "answers": ["yes"]},
            {"kind": "singleChoice", "text": "Two right?", "points": 500,
             "choices": [{"text": "a", "correct": true}, {"text": "A", "correct": true}]}
            """#))
        #expect(found.map(\.path) == ["\(root)[1].points", "\(root)[1].choices[1].text", "\(root)[1].choices"])
        #expect(found.map(\.message) == [
            "must be between 0 and 100, not 500", "repeats choices[0] (\"a\")", "needs exactly one correct choice, has 2",
        ])
        #expect(Set(found.map(\.question)) == ["Two right?"])
    }

    @Test func missingAndMistypedFieldsAreNamed() {
        let found = problems(bundle(#"""
            {"kind": "numeric", "value": "4"},
            {"kind": "riddle", "text": "What has keys?"},
            {"kind": "nameAll", "text": "Name them", "items": [{"answer": "x", "alternates": ["y", 3]}], "timeLimitSeconds": 12.5}
            """#))
        #expect(found.map(\.description) == [
            "\(root)[0]: missing \"text\"",
            "\(root)[0].value: expected a number, found \"4\"",
            "\(root)[1].kind: unknown kind \"riddle\": use one of singleChoice, multipleChoice, trueFalse, typedAnswer, numeric, nameAll, ordering, matching, gapFill, poll, wordCloud, estimate, slide (question \"What has keys?\")",
            "\(root)[2].items[0].alternates[1]: expected a string, found 3 (question \"Name them\")",
            "\(root)[2].timeLimitSeconds: expected a whole number, found 12.5 (question \"Name them\")",
        ])
    }

    @Test func unknownAndMisplacedKeysAreReported() {
        let found = problems(bundle(#"""
            {"kind": "trueFalse", "text": "Sky blue?", "answer": true, "explaination": "Rayleigh", "choices": []}
            """#))
        #expect(found.map(\.path) == ["\(root)[0].explaination", "\(root)[0].choices"])
        #expect(found.map(\.message) == ["unknown key", "does not apply to a trueFalse question"])
    }

    @Test func blankNamesAndWrongDifficultyAreReported() {
        let json = #"""
            {"format": "quizbox-bundle", "version": 1, "subjects": [{"name": " ", "topics": [{"name": "T",
              "questions": [{"kind": "trueFalse", "text": "Q?", "answer": true, "difficulty": "brutal"}]}]}]}
            """#
        #expect(problems(json).map(\.description) == [
            "subjects[0].name: is empty",
            "subjects[0].topics[0].questions[0].difficulty: unknown difficulty \"brutal\": use easy, medium or hard (question \"Q?\")",
        ])
    }

    @Test func inputOverTheSizeLimitIsRejected() {
        do {
            _ = try BundleCodec(maxBytes: 16).read(Array(bundle("").utf8))
            Issue.record("expected a failure")
        } catch {
            #expect(error.problems.map(\.message) == ["the file is \(bundle("").utf8.count) bytes, over the import limit of 16 bytes"])
        }
    }
}
