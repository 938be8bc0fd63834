import QuizCore
import QuizFormats
import Testing

@Suite struct MoodleClozeTests {
    private func gapFill(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> GapFill {
        try MoodleCloze.parse(text).gapFill
    }

    private func problems(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        do {
            let parsed = try MoodleCloze.parse(text)
            Issue.record("expected problems, got \(parsed.gapFill.gaps.count) gaps", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.messages
        }
    }

    @Test func readsEachGapTypeWithItsWeightAndFractions() throws {
        let parsed = try gapFill("""
            {1:MULTICHOICE:=France~Spain~%50%Gaul} has {2:SHORTANSWER:=Paris~%50%Lutetia} as its capital, \
            which is {1:NUMERICAL:=777:5} years old.
            """)
        #expect(parsed.text == "[[1]] has [[2]] as its capital, which is [[3]] years old.")
        #expect(parsed.gaps == [
            GapFill.WeightedGap(.choice([Alternative("France"), Alternative("Spain", fraction: .zero), Alternative("Gaul", fraction: Fraction(0.5)!)])),
            GapFill.WeightedGap(.typed([Alternative("Paris"), Alternative("Lutetia", fraction: Fraction(0.5)!)]), weight: 2),
            GapFill.WeightedGap(.number(value: 777, tolerance: 5, units: [])),
        ])
        #expect(parsed.validationErrors().isEmpty)
    }

    @Test func shortTypeNamesAndLayoutsAreTheSameGaps() throws {
        let parsed = try gapFill("{:MC:=a~b} {:MCV:=a~b} {:MULTICHOICE_HS:=a~b} {:SA:=x} {:MW:=x} {:NM:=3} {:sa:=x}")
        #expect(parsed.gaps.map(\.weight) == Array(repeating: 1, count: 7))
        #expect(parsed.gaps[0].gap == parsed.gaps[1].gap && parsed.gaps[1].gap == parsed.gaps[2].gap)
        #expect(parsed.gaps[3].gap == .typed([Alternative("x")]) && parsed.gaps[4].gap == parsed.gaps[3].gap && parsed.gaps[6].gap == parsed.gaps[3].gap)
        #expect(parsed.gaps[5].gap == .number(value: 3, tolerance: 0, units: []))
    }

    @Test func feedbackIsDroppedAndEscapesAreUndone() throws {
        let parsed = try gapFill(##"Braces: {1:SHORTANSWER:=a\}b\~c\#d\/e\"f\\g#Right!~*#Anything else is wrong} and \n stay."##)
        #expect(parsed.gaps == [GapFill.WeightedGap(.typed([Alternative(#"a}b~c#d/e"f\g"#)]))])
        #expect(parsed.text == #"Braces: [[1]] and \n stay."#)
    }

    @Test func caseSensitiveShortAnswerIsReadAsTypedWithAWarning() throws {
        let parsed = try MoodleCloze.parse("Say {1:SHORTANSWER_C:=Yes}.")
        #expect(parsed.gapFill.gaps == [GapFill.WeightedGap(.typed([Alternative("Yes")]))])
        #expect(parsed.warnings == ["gap 1 is case-sensitive (SHORTANSWER_C): Quizbox compares typed answers ignoring case"])
    }

    @Test func aNumberGapKeepsItsRightValueAndSaysWhatItDropped() throws {
        let parsed = try MoodleCloze.parse("{2:NUMERICAL:=777:5#Good~%50%770:20#Close~*#Wrong}")
        #expect(parsed.gapFill.gaps == [GapFill.WeightedGap(.number(value: 777, tolerance: 5, units: []), weight: 2)])
        #expect(parsed.warnings == [#"gap 1 keeps only its right value 777: Quizbox has one value per number gap, so "770:20" was dropped"#])
    }

    @Test func braceThatStartsNoGapIsText() throws {
        let parsed = try gapFill("Sets {a, b} and {1:SA:=x} and {x:y}")
        #expect(parsed.text == "Sets {a, b} and [[1]] and {x:y}")
    }

    @Test func wrongGapsAreNamedByNumber() {
        #expect(problems("{1:SA:=a} {2:SHORTANSWER:=open") == ["gap 2 has no closing }"])
        #expect(problems("{1:ESSAY:=a}") == ["gap 1 has the type ESSAY, which is not a cloze type (MULTICHOICE, SHORTANSWER, NUMERICAL…)"])
        #expect(problems("{1:MULTIRESPONSE:=a~b}").first?.hasPrefix("gap 1 is MULTIRESPONSE") == true)
        #expect(problems("{0:SA:=a}") == ["gap 1 has the weight 0, but a weight is 1 to 10"])
        #expect(problems("{11:SA:=a}") == ["gap 1 has the weight 11, but a weight is 1 to 10"])
        #expect(problems("{99999999999999999999999:SA:=a}") == ["gap 1 has the weight 9999999, but a weight is 1 to 10"])
        #expect(problems("{1:MC:%150%a~=b}") == ["gap 1 has the fraction %150%, which is not a percentage from -100 to 100"])
        #expect(problems("{1:NM:=ten}") == [#"gap 1 has the value "ten", which is not a number"#])
        #expect(problems("{1:NM:=10:-1}") == [#"gap 1 has the tolerance "-1", which is not a number of 0 or more"#])
        #expect(problems("{1:NM:%50%10}") == ["gap 1 has no answer with full credit (=): a number gap needs its right value"])
        #expect(problems("No gaps here.") == ["the text has no gap: write one as {1:SHORTANSWER:=answer}"])
        #expect(problems("Marker [[1]] then {1:SA:=a}").count == 1)
    }

    @Test func aGapRightAfterABracketKeepsItsPlace() throws {
        // Found by the fuzzer: GapFill once read "[[[1]]" as "[[" and "[1]]", and the gap vanished.
        let bracket = try gapFill("array[{1:SA:=i}]")
        #expect(bracket.text == "array[[[1]]]")
        #expect(bracket.segments == [.text("array["), .gap(0), .text("]")])
        #expect(try gapFill("array[ {1:SA:=i}]").text == "array[ [[1]]]")
        #expect(try gapFill("array[[{1:SA:=i}]]").text == "array[[[[1]]]]")
    }

    @Test func tenThousandGapsStopAtTheMostAGapFillHolds() {
        let text = String(repeating: "{1:SA:=a} ", count: 10_000)
        #expect(problems(text) == ["the text has more than 20 gaps, the most a gap fill holds"])
    }

    @Test func hostileTextIsReadInOnePass() {
        // Each would make a naive reader rescan the rest of the text for every brace.
        #expect(problems(String(repeating: "{", count: 90_000)) == ["the text has no gap: write one as {1:SHORTANSWER:=answer}"])
        #expect(problems(String(repeating: "{1:", count: 30_000)).count == 1)
        #expect(problems("{1:SA:" + String(repeating: "~\\", count: 40_000)) == ["gap 1 has no closing }"])
        #expect(problems(String(repeating: "[[1]]", count: 19_000)).count == 1)  // said once
        #expect(problems(String(repeating: "x", count: MoodleCloze.maxLength + 1)).count == 1)
        // Found by the fuzzer: a long run of "[" beside a gap made writing it back quadratic.
        #expect(problems("{1:SA:=a} " + String(repeating: "[", count: 40_000)) == ["the text without its gaps' answers is longer than 5000 characters"])
    }

    @Test func fractionsAreWrittenAsPercentagesThatReadBackExactly() throws {
        for value in [1.0 / 3, 2.0 / 3, 0.07, 0.1, 1e-5, -1e-7, 0.123456789, -0.999999, 0.29, 1.0 / 7] {
            let fraction = try #require(Fraction(value))
            let gapFill = GapFill(text: "[[1]]", gaps: [GapFill.WeightedGap(.typed([Alternative("a"), Alternative("b", fraction: fraction)]))])
            let written = MoodleCloze.write(gapFill)
            #expect(try self.gapFill(written) == gapFill, "\(written)")
        }
        #expect(MoodleCloze.write(GapFill(text: "[[1]]", gaps: [GapFill.WeightedGap(.typed([Alternative("a", fraction: Fraction(1e-5)!)]))]))
                == "{1:SHORTANSWER:%0.001%a}")
        #expect(try gapFill("{1:SA:=a~%1e-3%b}").gaps[0].gap == .typed([Alternative("a"), Alternative("b", fraction: Fraction(1e-5)!)]))
    }

    @Test func writtenGapFillsReadBackTheSame() throws {
        let samples = [
            GapFill(text: "The capital of [[1]] is [[2]] ({[[3]]}).", gaps: [
                GapFill.WeightedGap(.choice([Alternative("France"), Alternative("=Spain", fraction: .zero),
                                             Alternative("%50%", fraction: Fraction(1.0 / 3)!), Alternative("a~b}c#d", fraction: Fraction(-0.25)!)])),
                GapFill.WeightedGap(.typed([Alternative("Paris"), Alternative("Lutetia", fraction: Fraction(0.1)!), Alternative(#"back\slash /"#)]), weight: 10),
                GapFill.WeightedGap(.number(value: -0.000_012_5, tolerance: 1e-7, units: []), weight: 3),
            ]),
            GapFill(text: "[[2]] before [[1]]", gaps: [
                GapFill.WeightedGap(.number(value: 1e20, tolerance: 0, units: [])),
                GapFill.WeightedGap(.typed([Alternative("x", fraction: Fraction(0.7)!), Alternative("y")])),
            ]),
        ]
        for sample in samples {
            #expect(sample.validationErrors().isEmpty)
            let written = MoodleCloze.write(sample)
            let read = try gapFill(written)
            // Gaps come back numbered in the order they appear.
            #expect(MoodleCloze.write(read) == written)
            if sample.text.hasPrefix("The") { #expect(read == sample) }
        }
        #expect(MoodleCloze.write(samples[1]) == "{1:SHORTANSWER:%70%x~=y} before {1:NUMERICAL:=1e+20:0}")
    }

    /// Found by the fuzzer: "=" or "%" with a combining accent is one Character, so a wrong
    /// answer starting with it was written bare and read back as the right one.
    @Test func aWrongAnswerStartingWithAnAccentedMarkKeepsItsFraction() throws {
        let read = try gapFill("{:MULTICHOICE_S: =\u{301}}")
        #expect(read.gaps[0].gap == .choice([Alternative("=\u{301}", fraction: .zero)]))
        for text in ["=\u{301}", "%\u{301}50%", "=\u{301}x"] {
            let gapFill = GapFill(text: "[[1]]", gaps: [GapFill.WeightedGap(.choice([Alternative("right"), Alternative(text, fraction: .zero)]))])
            let written = MoodleCloze.write(gapFill)
            #expect(try self.gapFill(written) == gapFill, "\(written)")
        }
    }
}
