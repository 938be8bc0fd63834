import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite struct OpenTriviaReaderTests {
    static func read(_ json: String, encoding: OpenTriviaReader.Encoding? = nil, defaults: ImportDefaults = .init()) throws -> ReadResult {
        try OpenTriviaReader(defaults: defaults, encoding: encoding).read(Data(json.utf8))
    }

    static func questions(_ json: String, encoding: OpenTriviaReader.Encoding? = nil) throws -> [Question] {
        try read(json, encoding: encoding).bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions)
    }

    /// A response holding one result with these members (JSON text).
    static func response(_ members: String) -> String {
        #"{"response_code": 0, "results": [{"# + members + "}]}"
    }

    static func multiple(_ question: String, _ correct: String, _ incorrect: [String], category: String = "General Knowledge") -> String {
        let quoted = incorrect.map { "\"\($0)\"" }.joined(separator: ", ")
        return #"{"category": "\#(category)", "type": "multiple", "difficulty": "easy", "question": "\#(question)", "#
            + #""correct_answer": "\#(correct)", "incorrect_answers": [\#(quoted)]}"#
    }

    @Test func multipleBecomesSingleChoiceWithTheAnswersSortedByText() throws {
        let json = Self.response(#""category": "Science: Computers", "type": "multiple", "difficulty": "easy", "question": "Q?", "#
            + #""correct_answer": "Banana", "incorrect_answers": ["Cherry", "apple", "Apple pie"]"#)
        let result = try Self.read(json)
        #expect(result.bank == Bank(subjects: [BankSubject(name: "Science", topics: [BankTopic(name: "Computers", quizzes: [
            BankQuiz(title: "Imported questions", questions: [Question(text: "Q?", difficulty: .easy, body: .singleChoice([
                Choice(id: 1, text: "Apple pie", isCorrect: false), Choice(id: 2, text: "Banana", isCorrect: true),
                Choice(id: 3, text: "Cherry", isCorrect: false), Choice(id: 4, text: "apple", isCorrect: false),
            ]))]),
        ])])]))
    }

    @Test func theOrderOfTheIncorrectAnswersDoesNotChangeTheImport() throws {
        let one = try Self.questions(#"{"results": [\#(Self.multiple("Q?", "b", ["c", "a", "d"]))]}"#)
        let two = try Self.questions(#"{"results": [\#(Self.multiple("Q?", "b", ["d", "c", "a"]))]}"#)
        #expect(one == two)
        #expect(one.first?.body.choices.map(\.text) == ["a", "b", "c", "d"])
    }

    @Test func booleanBecomesTrueFalse() throws {
        let json = Self.response(#""category": "Art", "type": "boolean", "difficulty": "hard", "question": "Is it?", "#
            + #""correct_answer": "False", "incorrect_answers": ["True"]"#)
        #expect(try Self.questions(json) == [Question(text: "Is it?", difficulty: .hard, body: .trueFalse(false))])
    }

    @Test func categoriesBecomeSubjectsAndTopicsInOrderOfAppearance() throws {
        let results = [("A?", "Entertainment: Film"), ("B?", "Science & Nature"), ("C?", "Entertainment: Music"), ("D?", "Entertainment: Film")]
            .map { Self.multiple($0.0, "a", ["b"], category: $0.1) }
        let json = #"{"results": ["# + results.joined(separator: ", ") + "]}"
        let defaults = ImportDefaults(quizTitle: "Trivia night")
        let bank = try Self.read(json, defaults: defaults).bank
        #expect(bank.subjects.map(\.name) == ["Entertainment", "Science & Nature"])
        #expect(bank.subjects.map { $0.topics.map(\.name) } == [["Film", "Music"], ["Science & Nature"]])
        #expect(bank.subjects[0].topics[0].quizzes.map(\.title) == ["Trivia night"])
        #expect(bank.subjects[0].topics[0].quizzes[0].questions.map(\.text) == ["A?", "D?"])
    }

    @Test func withoutCategoryOrDifficultyTheDefaultsApply() throws {
        let json = Self.response(#""type": "boolean", "question": "Q?", "correct_answer": "True", "incorrect_answers": ["False"], "added_later": 1"#)
        let bank = try Self.read(json, defaults: ImportDefaults(subject: "Misc", topic: "Quiz")).bank
        #expect(bank.subjects.map(\.name) == ["Misc"])
        #expect(bank.subjects.first?.topics.map(\.name) == ["Quiz"])
        #expect(bank.subjects.first?.topics.first?.quizzes.first?.questions.first?.difficulty == .medium)
    }

    @Test func htmlEntitiesAreDecodedExactlyOnce() throws {
        let text = "&amp;quot;Hi&quot; &lt;b&gt; caf&eacute; &#233; &#xE9; &#XE9; &euro;&nbsp;5 &hellip; &foo; AT&T &copy &#146;s"
        let question = try #require(try Self.questions(Self.multiple(text, "a", ["b"]).wrappedInResults, encoding: .htmlEntities).first)
        #expect(question.text == "&quot;Hi\" <b> café é é é €\u{A0}5 … &foo; AT&T &copy ’s")
    }

    @Test func theCommonNamedEntitiesAreKnown() throws {
        let names = "&apos;&Eacute;&eacute;&Ntilde;&uuml;&szlig;&oslash;&aelig;&ccedil;&lsquo;&rsquo;&ldquo;&rdquo;&ndash;&mdash;"
            + "&deg;&plusmn;&times;&divide;&frac12;&copy;&reg;&trade;&pi;&Omega;&rarr;&le;&ne;&infin;&sup2;&middot;&bull;&iquest;&iexcl;"
        let question = try #require(try Self.questions(Self.multiple(names, "a", ["b"]).wrappedInResults).first)
        #expect(question.text == "'ÉéÑüßøæç‘’“”–—°±×÷½©®™πΩ→≤≠∞²·•¿¡")
    }

    @Test func numericReferencesToNoCharacterBecomeTheReplacementCharacter() throws {
        let question = try #require(try Self.questions(Self.multiple("a&#0;b&#x110000;c&#55296;d&#99999999999;e&#;f&#x;", "a", ["b"]).wrappedInResults).first)
        #expect(question.text == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e&#;f&#x;")
    }

    @Test func urlEncodingsArePercentDecoded() throws {
        let json = Self.response(#""type": "multiple", "question": "%22Hi%22%20%2B1%3F", "correct_answer": "a+b", "incorrect_answers": ["c%20d"]"#)
        #expect(try Self.questions(json, encoding: .url3986).first?.text == "\"Hi\" +1?")
        #expect(try Self.questions(json, encoding: .url3986).first?.body.choices.map(\.text) == ["a+b", "c d"])
        #expect(try Self.questions(json, encoding: .urlLegacy).first?.body.choices.map(\.text) == ["a b", "c d"])
        let accents = Self.response(#""type": "boolean", "question": "Caf%C3%A9%3F", "correct_answer": "True", "incorrect_answers": ["False"]"#)
        #expect(try Self.questions(accents, encoding: .url3986).first?.text == "Café?")
    }

    @Test func base64StringsAreDecodedAsUTF8() throws {
        let b64 = { (s: String) in Data(s.utf8).base64EncodedString() }
        let json = Self.response(
            #""category": "\#(b64("Sports"))", "type": "\#(b64("boolean"))", "difficulty": "\#(b64("hard"))", "#
                + #""question": "\#(b64("Pelé scored 1000+ goals?"))", "correct_answer": "\#(b64("True"))", "#
                + #""incorrect_answers": ["\#(b64("False"))"]"#)
        let explicit = try Self.read(json, encoding: .base64)
        #expect(explicit.bank.subjects.first?.name == "Sports")
        #expect(explicit.bank.subjects.first?.topics.first?.quizzes.first?.questions == [
            Question(text: "Pelé scored 1000+ goals?", difficulty: .hard, body: .trueFalse(true)),
        ])
        #expect(try Self.read(json) == explicit)  // detected
    }

    @Test func theEncodingIsDetectedWhenNotGiven() throws {
        let url = Self.response(#""type": "multiple", "difficulty": "easy", "question": "Why%3F", "correct_answer": "a%20b", "incorrect_answers": ["c"]"#)
        #expect(try Self.read(url) == Self.read(url, encoding: .url3986))
        let legacy = Self.response(#""type": "multiple", "difficulty": "easy", "question": "Why+not%3F", "correct_answer": "a", "incorrect_answers": ["c"]"#)
        #expect(try Self.questions(legacy).first?.text == "Why not?")
        // A question with spaces is not URL-encoded, whatever else it holds.
        let html = Self.response(#""type": "multiple", "question": "100%25 sure &amp; a+b?", "correct_answer": "a", "incorrect_answers": ["c"]"#)
        #expect(try Self.questions(html).first?.text == "100%25 sure & a+b?")
        // Plain words are not base64 of a type.
        let plain = Self.response(#""type": "boolean", "question": "Lily", "correct_answer": "True", "incorrect_answers": ["False"]"#)
        #expect(try Self.questions(plain).first?.text == "Lily")
    }
}

private extension String {
    var wrappedInResults: String { #"{"response_code": 0, "results": ["# + self + "]}" }
}
