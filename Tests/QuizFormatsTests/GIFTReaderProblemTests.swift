import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite struct GIFTReaderProblemTests {
    private typealias S = GIFTSupport

    @Test func anUnclosedBraceIsReportedWhereItOpensWithTheQuestion() {
        let problems = S.problems("Q1?{=a ~b}\n\nWhat is 2+2?{\n=4\n~5\n\nQ3?{T}\n")
        #expect(problems.map(\.description) == [
            "line 3, column 13: unclosed '{' — every answer block needs a '}' (question \"What is 2+2?\")",
        ])
    }

    @Test func anUnknownWeightIsReportedAtItsPercentSign() {
        #expect(S.located(S.problems("Q?{\n~%abc%x\n=y\n}")) == [
            "2:2 unknown weight \"%abc%\" — write a percentage from -100 to 100, such as %50% or %-33.33333%",
        ])
        #expect(S.located(S.problems("Q?{~%150%a =b}")) == [
            "1:5 weight \"%150%\" is out of range — write a percentage from -100 to 100",
        ])
        #expect(S.located(S.problems("Q?{~%50 wrong =right}")) == [
            "1:5 the weight \"%50 wrong\" has no closing '%' — write it as %50%",
        ])
    }

    @Test func emptyAnswersAreReportedAtTheirMark() {
        #expect(S.located(S.problems("Q?{=a ~ ~b}")) == [
            "1:7 empty answer after '~' — write the answer's text, or remove the '~'",
        ])
        #expect(S.located(S.problems("Q?{=a ~#only feedback}")) == [
            "1:7 empty answer after '~' — write the answer's text, or remove the '~'",
        ])
        #expect(S.located(S.problems("Q?{=}")) == [
            "1:4 empty answer after '=' — write the answer's text, or remove the '='",
        ])
    }

    @Test func aCategoryWithNothingAfterItIsFine() throws {
        let result = try S.read("$CATEGORY: A\n\nQ?{T}\n\n$CATEGORY: Empty\n\n$CATEGORY:\n\nQ2?{F}\n\n$CATEGORY: Last")
        #expect(result.warnings.isEmpty)
        #expect(result.bank.subjects.map(\.name) == ["A", "Imported"])
        #expect(result.bank.subjects.flatMap(\.topics).map(\.name) == ["A", "Imported"])
    }

    @Test func strayClosingBracesAreReported() {
        #expect(S.located(S.problems("Q } here?{T}\n\nJust text }")) == [
            "1:3 '}' closes no answer block — write \\} for a literal brace",
            "3:11 '}' closes no answer block — write \\} for a literal brace",
        ])
        #expect(S.located(S.problems("Q?{T} and }")) == ["1:11 '}' closes no answer block — write \\} for a literal brace"])
    }

    @Test func twoQuestionsWithoutABlankLineBetweenThemAreReported() {
        #expect(S.located(S.problems("Q1?{T}\nQ2?{F}")) == [
            "2:4 a second answer block — a question has one; separate questions with a blank line",
        ])
    }

    @Test func aBraceInsideAnAnswerBlockIsReported() {
        #expect(S.located(S.problems("Q?{=a {b} ~c}")) == [
            "1:7 '{' inside an answer block — end the block with '}' first, or write \\{ for a literal brace",
        ])
    }

    @Test func anUnclosedTitleIsReported() {
        #expect(S.located(S.problems("::Title without end\nQ?{T}")) == [
            "1:1 the title opened by '::' is never closed — end it with '::' (write \\: for a colon inside it)",
        ])
    }

    @Test func bytesThatAreNotUTF8AreReportedAtTheirLineAndColumn() {
        let bytes = Array("Q?{T}\r\n\r\nÀ ".utf8) + [0x93] + Array("quoted".utf8) + [0x94] + Array("{T}".utf8)
        #expect(S.located(S.problems(bytes)) == ["3:3 the file is not UTF-8 (byte 0x93) — save it as UTF-8 and import it again"])
    }

    @Test func rulesBrokenByAQuestionAreReportedWhereTheyAre() {
        #expect(S.located(S.problems("Q?{\n=Paris\n~paris\n}")) == ["3:1 answer 2 repeats answer 1 (\"Paris\")"])
        #expect(S.located(S.problems("Q?{~only}")) == [
            "1:3 the answer block needs 2 to 10 choices, has 1",
            "1:3 the answer block needs exactly one correct choice, has 0",
        ])
        #expect(S.located(S.problems("::Title::{=a ~b}")) == ["1:10 the question text is empty"])
        #expect(S.located(S.problems("Q?{T####" + String(repeating: "x", count: 2_001) + "}")) == [
            "1:9 the feedback is longer than 2000 characters",
        ])
        #expect(S.located(S.problems("Q?{#5:-1}")) == ["1:5 the tolerance must not be negative"])
    }

    @Test func numbersThatAreNotNumbersAreReported() {
        #expect(S.located(S.problems("Q?{#abc}")) == [
            "1:5 \"abc\" is not a number — write 42, 3.14:0.01 (value:tolerance) or 1..5 (a range)",
        ])
        #expect(S.located(S.problems("Q?{#0,5}")) == ["1:5 \"0,5\" is not a number — write decimals with '.', as in 0.5"])
        #expect(S.located(S.problems("Q?{#5..1}")) == ["1:5 the range \"5..1\" runs backwards — write the smaller number first"])
        #expect(S.located(S.problems("Q?{#}")) == [
            "1:3 the numerical answer block holds no number — write it as {#42}, {#3.14:0.01} or {#1..5}",
        ])
        #expect(S.located(S.problems("Q?{#=%50%3}")) == ["1:3 no answer is worth 100% — mark the right number with '=' and no weight"])
        #expect(S.located(S.problems("Q?{#*}")) == ["1:5 '*' (any number) cannot be imported — Quizbox needs the right number"])
    }

    @Test func aShortAnswerWithoutAFullCreditAnswerIsReported() {
        #expect(S.located(S.problems("Q?{=%50%a}")) == [
            "1:3 no answer is worth 100% — mark each accepted answer with '=' and no weight",
        ])
    }

    @Test func everyProblemIsReportedAndLinesCountCRLFBlankLinesAndComments() {
        let problems = S.problems("// c\r\n\r\nQ1?{=a ~ }\r\n\r\n// c2\r\nQ2?{=b ~c\r\n\r\nQ3?{T}\r\n")
        #expect(S.located(problems) == [
            "3:8 empty answer after '~' — write the answer's text, or remove the '~'",
            "6:4 unclosed '{' — every answer block needs a '}'",
        ])
    }

    @Test func afterAHundredProblemsTheRestAreCounted() {
        let text = String(repeating: "Q?{=a\n\n", count: 150)
        do {
            _ = try GIFTReader().read(Array(text.utf8))
            Issue.record("expected the file to be rejected")
        } catch {
            #expect(error.problems.count == ImportError.maxProblems)
            #expect(error.omittedCount == 50)
            #expect(error.problems.last?.line == 199)
        }
    }

    @Test func aFileOverTheSizeLimitIsRejectedBeforeReading() {
        let problems = S.problems(Array("Q?{T}\n\nQ2?{F}\n\n".utf8), defaults: ImportDefaults(maxBytes: 10))
        #expect(problems.map(\.description) == ["the file is 15 bytes, over the import limit of 10 bytes"])
    }
}
