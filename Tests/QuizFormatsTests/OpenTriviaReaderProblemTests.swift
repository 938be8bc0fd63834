import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite(.timeLimit(.minutes(1))) struct OpenTriviaReaderProblemTests {
    static func error(
        _ bytes: [UInt8], encoding: OpenTriviaReader.Encoding? = nil, defaults: ImportDefaults = .init(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ImportError {
        do {
            let result = try OpenTriviaReader(defaults: defaults, encoding: encoding).read(Data(bytes))
            Issue.record("expected the response to be rejected, but it read \(result.bank.questionCount) questions", sourceLocation: sourceLocation)
            return ImportError(problems: [])
        } catch {
            return error
        }
    }

    static func problems(_ json: String, encoding: OpenTriviaReader.Encoding? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        error(Array(json.utf8), encoding: encoding, sourceLocation: sourceLocation).problems.map(\.description)
    }

    static func results(_ items: String...) -> String {
        #"{"response_code": 0, "results": ["# + items.joined(separator: ", ") + "]}"
    }

    @Test func aNonZeroResponseCodeIsAnErrorSayingWhatItMeans() {
        let meanings = [
            1: "No Results: the API did not have enough questions for the query",
            2: "Invalid Parameter: the request contained an invalid parameter",
            3: "Token Not Found: the session token does not exist",
            4: "Token Empty: the session token has returned every question for the query; reset it",
            5: "Rate Limit: too many requests; each IP address may ask once every 5 seconds",
            7: "a code this reader does not know",
        ]
        for (code, meaning) in meanings {
            #expect(Self.problems(#"{"response_code": \#(code), "results": []}"#) == [
                "response_code: the API answered with response code \(code) (\(meaning)), so the file holds no questions",
            ])
        }
    }

    @Test func theTopLevelMustBeAnObjectWithResults() {
        #expect(Self.problems("[1]") == ["not an Open Trivia DB response: expected a JSON object with \"results\", found an array"])
        #expect(Self.problems(#"{"response_code": 0}"#) == ["missing \"results\""])
        #expect(Self.problems(#"{"results": 3}"#) == ["results: expected an array, found 3"])
        #expect(Self.problems(#"{"results": []}"#) == ["results: the response holds no questions"])
        #expect(Self.problems(#"{"response_code": "0", "results": []}"#) == ["response_code: expected a whole number, found \"0\""])
    }

    @Test func fieldsOfTheWrongTypeAreReportedAtTheirPathWithTheQuestion() {
        #expect(Self.problems(Self.results(
            #""not an object""#,
            #"{"type": "multiple", "correct_answer": "a", "incorrect_answers": ["b"]}"#,
            #"{"type": "multiple", "question": "Q?", "correct_answer": 5, "incorrect_answers": ["b", null]}"#
        )) == [
            "results[0]: expected a question object, found a string",
            "results[1]: missing \"question\"",
            "results[2].correct_answer: expected a string, found 5 (question \"Q?\")",
            "results[2].incorrect_answers[1]: expected a string, found null (question \"Q?\")",
        ])
    }

    @Test func unknownTypeAndDifficultyAreReported() {
        #expect(Self.problems(Self.results(
            #"{"type": "matching", "difficulty": "easy", "question": "Q1?", "correct_answer": "a", "incorrect_answers": ["b"]}"#,
            #"{"type": "multiple", "difficulty": "extreme", "question": "Q2?", "correct_answer": "a", "incorrect_answers": ["b"]}"#
        )) == [
            "results[0].type: unknown type \"matching\": expected \"multiple\" or \"boolean\" (question \"Q1?\")",
            "results[1].difficulty: unknown difficulty \"extreme\": expected easy, medium or hard (question \"Q2?\")",
        ])
    }

    @Test func booleanAnswersMustBeTrueOrFalseAndAgree() {
        #expect(Self.problems(Self.results(
            #"{"type": "boolean", "question": "Q1?", "correct_answer": "Yes", "incorrect_answers": ["No"]}"#,
            #"{"type": "boolean", "question": "Q2?", "correct_answer": "True", "incorrect_answers": ["True"]}"#
        )) == [
            "results[0].correct_answer: expected \"True\" or \"False\" in a boolean question, found \"Yes\" (question \"Q1?\")",
            "results[1].incorrect_answers[0]: expected \"False\" as the wrong answer to a boolean question, found \"True\" (question \"Q2?\")",
        ])
    }

    @Test func brokenQuestionRulesAreReportedAtTheFieldTheyCameFrom() {
        #expect(Self.problems(Self.results(
            #"{"type": "multiple", "question": "Capital?", "correct_answer": "Paris", "incorrect_answers": ["Lyon", "paris"]}"#,
            #"{"type": "multiple", "question": "Alone?", "correct_answer": "yes", "incorrect_answers": []}"#,
            #"{"type": "multiple", "question": " ", "correct_answer": "a", "incorrect_answers": ["b", ""]}"#
        )) == [
            "results[0].incorrect_answers[1]: repeats correct_answer (\"Paris\") (question \"Capital?\")",
            "results[1].incorrect_answers: needs 2 to 10 answers, has 1 (question \"Alone?\")",
            "results[2].question: is empty (question \" \")",
            "results[2].incorrect_answers[1]: is empty (question \" \")",
        ])
    }

    @Test func stringsThatDoNotDecodeInTheGivenEncodingAreReported() {
        let json = Self.results(#"{"type": "bXVsdGlwbGU=", "question": "UT8=", "correct_answer": "not base64!", "incorrect_answers": ["/w=="]}"#)
        #expect(Self.problems(json, encoding: .base64) == [
            "results[0].correct_answer: is not valid base64, as the response's encoding requires (question \"Q?\")",
            "results[0].incorrect_answers[0]: is base64 of something that is not UTF-8 text (question \"Q?\")",
        ])
        let url = Self.results(#"{"type": "multiple", "question": "100%", "correct_answer": "%zz", "incorrect_answers": ["%FF"]}"#)
        #expect(Self.problems(url, encoding: .url3986) == [
            "results[0].question: is not valid URL encoding: the \"%\" at character 4 is not followed by two hex digits",
            "results[0].correct_answer: is not valid URL encoding: the \"%\" at character 1 is not followed by two hex digits",
            "results[0].incorrect_answers[0]: is URL-encoded bytes that are not UTF-8 text",
        ])
    }

    @Test func aHostileResponseWithHugeArraysIsRejectedQuickly() {
        let many = (0..<100_000).map { "\"answer \($0)\"" }.joined(separator: ",")
        let json = Self.results(#"{"type": "multiple", "question": "Q?", "correct_answer": "a", "incorrect_answers": [\#(many)]}"#)
        #expect(Self.problems(json) == ["results[0].incorrect_answers: needs 2 to 10 answers, has 100001 (question \"Q?\")"])
        let blanks = Array(repeating: "\"\"", count: 100_000).joined(separator: ",")
        let error = Self.error(Array(Self.results(#"{"type": "multiple", "question": "Q?", "correct_answer": "a", "incorrect_answers": [\#(blanks)]}"#).utf8))
        #expect(error.problems.count + error.omittedCount == 100_001)  // the count, then each empty answer
    }

    @Test func syntaxErrorsHaveLineAndColumn() {
        let error = Self.error(Array("{\n  \"results\": [\n    {\"question\": \"Q\" \"type\"}\n  ]\n}".utf8))
        #expect(error.problems == [FormatProblem(line: 3, column: 22, message: "not valid JSON: expected \",\" or \"}\"")])
    }

    @Test func textThatIsNotUTF8IsRejectedClearly() {
        let latin1 = Array(#"{"results": [{"question": "caf"#.utf8) + [0xE9] + Array(#"?"}]}"#.utf8)
        #expect(Self.error(latin1).problems.map(\.description) == ["line 1, column 27: not valid JSON: string is not valid UTF-8"])
        let outside = Array(#"{"results": []"#.utf8) + [0xFF] + Array("}".utf8)
        #expect(Self.error(outside).problems.map(\.message) == [
            "not valid JSON: expected \",\" or \"}\" (the file is not valid UTF-8; save it as UTF-8)",
        ])
        #expect(Self.error([0xFE, 0xFF, 0, 0x7B]).problems.map(\.message) == ["the file is UTF-16; save it as UTF-8"])
    }

    @Test func aFileOverTheSizeLimitIsRejectedBeforeParsing() {
        let error = Self.error(Array(#"{"results": []}"#.utf8), defaults: ImportDefaults(maxBytes: 4))
        #expect(error.problems.map(\.message) == ["the file is 15 bytes, over the import limit of 4 bytes"])
    }

    @Test func problemsBeyondTheLimitAreCounted() {
        let bad = #"{"type": "multiple", "question": "Q?", "correct_answer": "a", "incorrect_answers": ["a"]}"#
        let error = Self.error(Array(Self.results(Array(repeating: bad, count: 130).joined(separator: ", ")).utf8))
        #expect(error.problems.count == ImportError.maxProblems)
        #expect(error.omittedCount == 30)
        #expect(error.problems.last?.path == "results[99].incorrect_answers[0]")
    }
}
