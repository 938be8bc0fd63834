import Foundation
import QuizCore
import QuizFormats
import Testing

/// Real Open Trivia DB responses from /work/shared/testdata/formats/opentdb (see SOURCES.md there):
/// one per encoding the API offers, and one API capture with a JavaScript trailing comma.
@Suite(.timeLimit(.minutes(1)), SharedTestData.required) struct OpenTriviaFileTests {
    static func file(_ name: String) -> URL {
        SharedTestData.url("opentdb/\(name)")
    }

    static func read(_ name: String, encoding: OpenTriviaReader.Encoding? = nil) throws -> ReadResult {
        try OpenTriviaReader(encoding: encoding).read(Data(contentsOf: file(name)))
    }

    static func questions(_ bank: Bank) -> [Question] {
        bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions)
    }

    @Test func theDefaultEncodingHasItsEntitiesDecodedOnceAndItsCategoriesSplit() throws {
        let result = try Self.read("default-html-entities.json")
        #expect(try Self.read("default-html-entities.json", encoding: .htmlEntities) == result)  // detected
        let bank = result.bank
        let questions = Self.questions(bank)
        #expect(questions.count == 10)
        #expect(questions.allSatisfy { $0.difficulty == .hard && $0.kind == .singleChoice && $0.body.choices.count == 4 })

        // "Science & Nature" has no colon and a raw "&", which stays as it is.
        #expect(bank.subjects.map(\.name) == ["Science & Nature", "General Knowledge", "Animals", "Entertainment"])
        #expect(bank.subjects.map { $0.topics.map(\.name) } == [
            ["Science & Nature"], ["General Knowledge"], ["Animals"],
            ["Musicals & Theatres", "Japanese Anime & Manga", "Television"],
        ])
        #expect(bank.subjects[0].topics[0].quizzes[0].questions.count == 3)

        let texts = questions.map(\.text)
        #expect(texts.contains("Before the 19th Century, the \"Living Room\" was originally called the..."))
        #expect(texts.contains("What is the name of Broadway's first \"long-run\" musical?"))
        let everything = texts + questions.flatMap { $0.body.choices.map(\.text) }
        #expect(!everything.contains { $0.contains("&quot;") || $0.contains("&#039;") })
        let kahuna = try #require(questions.first { $0.text.hasPrefix("In \"Donkey Kong Country\"") })
        #expect(kahuna.body.choices.map(\.text) == [
            "Because Diddy Kong forced him.", "He wants to punish brutes.", "He's the big kahuna.", "To find out where all the bananas are.",
        ])
        #expect(kahuna.body.choices.first(where: \.isCorrect)?.text == "He's the big kahuna.")
    }

    @Test func theURL3986ResponseIsDetectedAndPercentDecoded() throws {
        let result = try Self.read("url3986.json")
        #expect(try Self.read("url3986.json", encoding: .url3986) == result)
        let questions = Self.questions(result.bank)
        #expect(questions.count == 6)
        #expect(result.bank.subjects.map(\.name) == ["Entertainment", "Geography", "Celebrities", "Politics"])
        #expect(result.bank.subjects[0].topics.map(\.name) == ["Video Games", "Japanese Anime & Manga"])
        #expect(questions.first?.text == "Which franchise does the creature \"Slowpoke\" originate from?")
        let jojo = try #require(questions.first { $0.text.hasPrefix("In \"JoJo's Bizarre Adventure\", which") })
        #expect(jojo.body.choices.first(where: \.isCorrect)?.text == "20th Century Boy")
        #expect(jojo.difficulty == .medium)
        let pacMan = try #require(questions.first { $0.kind == .trueFalse })
        #expect(pacMan == Question(
            text: "The ghosts in \"Pac-Man\" and \"Ms. Pac-Man\" have completely different behavior.", difficulty: .easy, body: .trueFalse(true)))
    }

    @Test func theBase64ResponseIsDetectedAndEveryFieldDecoded() throws {
        let result = try Self.read("base64.json")
        #expect(try Self.read("base64.json", encoding: .base64) == result)
        #expect(result.bank.subjects.map(\.name) == ["Entertainment"])
        #expect(result.bank.subjects[0].topics.map(\.name) == ["Japanese Anime & Manga", "Video Games"])
        let questions = Self.questions(result.bank)
        #expect(questions.map(\.difficulty) == [.easy, .medium])
        #expect(questions.first?.text == "In the 9th Pokemon movie, who is the Prince of the Sea?")
        #expect(questions.last == Question(
            text: "What type of genre is the controversial 2015 game \"Hatred\"?", difficulty: .medium,
            body: .singleChoice([
                Choice(id: 1, text: "MMORPG", isCorrect: false), Choice(id: 2, text: "Point & Click", isCorrect: false),
                Choice(id: 3, text: "Shoot 'Em Up", isCorrect: true), Choice(id: 4, text: "Simulation", isCorrect: false),
            ])))
    }

    @Test func theCaptureWithATrailingCommaIsRejectedAtTheBrace() throws {
        let data = try Data(contentsOf: Self.file("trailing-comma.malformed.json"))
        do {
            let result = try OpenTriviaReader().read(data)
            Issue.record("expected the trailing comma to be rejected, got \(result.bank.questionCount) questions")
        } catch {
            #expect(error.problems == [FormatProblem(line: 63, column: 1, message: "not valid JSON: expected a key in double quotes")])
        }
    }

    @Test func mutationsOfTheResponsesAndRandomBytesAreReadOrRejectedNeverCrash() throws {
        let samples = try ["default-html-entities.json", "url3986.json", "base64.json", "trailing-comma.malformed.json"]
            .map { try [UInt8](Data(contentsOf: Self.file($0))) }
        let tokens = ["\"", "{", "}", "[", "]", ",", ":", "\\", "\\u", "null", "true", "0", "-1e999", " ", "\n",
                      "&amp;", "&#", "&#x1F600;", "%", "%2", "%C3", "+", "=", "\"type\": \"boolean\"", "\u{FEFF}"]
            .map { Array($0.utf8) } + [[0xFF], [0xC3], [0]]
        var fuzzer = SeededMutator(seed: 0x07DB)
        var accepted = 0
        for round in 0..<3_000 {
            let input: [UInt8]
            switch round % 6 {
            case 0: input = fuzzer.randomBytes(maxCount: 200)
            case 1: input = fuzzer.randomTokens(tokens, maxCount: 40)
            default: input = fuzzer.mutate(samples[round % samples.count], tokens: tokens)
            }
            let encoding = round % 7 == 0 ? OpenTriviaReader.Encoding.allCases[round % 4] : nil
            do {
                let result = try OpenTriviaReader(encoding: encoding).read(Data(input))
                accepted += 1
                let questions = Self.questions(result.bank)
                #expect(!questions.isEmpty && questions.allSatisfy { $0.validationErrors().isEmpty })
            } catch {
                #expect(!error.problems.isEmpty && error.problems.count <= ImportError.maxProblems)
            }
        }
        #expect(accepted > 0)
    }
}
