import Foundation
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases
import Testing

/// The Open Trivia DB-compatible API as a use case: what it serves, its parameters, its tokens
/// and its rate limit, with response codes 0–5 as Open Trivia DB gives them.
@Suite struct OpenTriviaTests {
    struct Fixture {
        var astronomy: Int64
        var history: Int64
        var servedTexts: Set<String>
    }

    static func single(_ text: String, _ choices: [String], difficulty: Difficulty = .medium) -> Question {
        Question(text: text, difficulty: difficulty,
                 body: .singleChoice(choices.enumerated().map { Choice(id: $0.offset + 1, text: $0.element, isCorrect: $0.offset == 0) }))
    }

    /// Four questions anyone can read in a published quiz and may be served; the rest may not.
    static func loadBank(_ env: UseCaseEnvironment) async throws -> Fixture {
        let planets: [Question] = [
            single("Largest planet?", ["Jupiter", "Mars"], difficulty: .easy),
            single("Red planet?", ["Mars", "Venus", "Mercury", "Saturn"]),
            Question(text: "Pluto is a planet.", difficulty: .hard, body: .trueFalse(false)),
            Question(text: "Gas giants?", body: .multipleChoice([Choice(id: 1, text: "Jupiter", isCorrect: true),
                                                                  Choice(id: 2, text: "Saturn", isCorrect: true)])),
            single("Five choices?", ["A", "B", "C", "D", "E"]),
            Question(text: "Capital of Mars?", body: .typedAnswer(["None"])),
        ]
        let bank = Bank(subjects: [
            BankSubject(name: "Science", topics: [
                BankTopic(name: "Astronomy", quizzes: [BankQuiz(title: "Planets", questions: planets)],
                          questions: [single("In the bank only?", ["Yes", "No", "Maybe"])]),
            ]),
            BankSubject(name: "History", topics: [
                BankTopic(name: "History", quizzes: [BankQuiz(title: "Rome", questions: [
                    Question(text: #"Rome's "forum" had <b> & more."#, difficulty: .easy, body: .trueFalse(true)),
                ])]),
            ]),
        ])
        _ = try await env.store.importBank(bank, at: env.time.now())
        let subjects = try await env.store.subjects()
        let astronomy = try #require(try await env.store.topics(subjectId: subjects[0].id)?.first?.id)
        let history = try #require(try await env.store.topics(subjectId: subjects[1].id)?.first?.id)
        // A draft quiz's question is its author's work in progress.
        let draft = try await env.store.create(.quiz, parent: astronomy, name: "Draft", description: "")
        _ = try await env.store.createQuestion(single("Draft question?", ["Yes", "No"]), topicId: astronomy, appendingTo: draft,
                                               at: env.time.now())
        return Fixture(astronomy: astronomy, history: history,
                       servedTexts: ["Largest planet?", "Red planet?", "Pluto is a planet.", #"Rome's "forum" had <b> & more."#])
    }

    func makeSUT(_ env: UseCaseEnvironment, interval: TimeInterval = 0, maxTokens: Int = 100) -> OpenTrivia {
        OpenTrivia(store: env.store, time: env.time, limits: .init(requestInterval: interval, maxTokens: maxTokens))
    }

    func texts(_ response: OpenTrivia.Response) -> Set<String> {
        Set(response.results.map { HTMLDecoded.text($0.question) })
    }

    @Test func servesOnlyPublishedSingleChoiceAndTrueFalseQuestions() async throws {
        try await withUseCases { env in
            let bank = try await Self.loadBank(env)
            let sut = makeSUT(env)
            let all = try await sut.questions(.init(amount: "4"), address: "192.0.2.1")
            #expect(all.code == .success)
            #expect(texts(all) == bank.servedTexts)
            let tooMany = try await sut.questions(.init(amount: "5"), address: "192.0.2.1")
            #expect(tooMany.code == .noResults && tooMany.results.isEmpty)
        }
    }

    @Test func resultsAreWrittenAsOpenTriviaDBWritesThem() async throws {
        try await withUseCases { env in
            let bank = try await Self.loadBank(env)
            let sut = makeSUT(env)
            let rome = try await sut.questions(.init(amount: "1", category: String(bank.history + 8)), address: "a")
            #expect(rome.results == [OpenTrivia.Result(
                type: "boolean", difficulty: "easy", category: "History", question: "Rome&#039;s &quot;forum&quot; had &lt;b&gt; &amp; more.",
                correctAnswer: "True", incorrectAnswers: ["False"])])
            let red = try await sut.questions(.init(amount: "1", category: String(bank.astronomy + 8), difficulty: "medium", type: "multiple"),
                                              address: "a")
            #expect(red.results == [OpenTrivia.Result(type: "multiple", difficulty: "medium", category: "Science: Astronomy",
                                                      question: "Red planet?", correctAnswer: "Mars",
                                                      incorrectAnswers: ["Venus", "Mercury", "Saturn"])])
            let pluto = try await sut.questions(.init(amount: "1", difficulty: "hard", encode: "base64"), address: "a")
            #expect(pluto.results == [OpenTrivia.Result(
                type: "Ym9vbGVhbg==", difficulty: "aGFyZA==", category: "U2NpZW5jZTogQXN0cm9ub215",
                question: "UGx1dG8gaXMgYSBwbGFuZXQu", correctAnswer: "RmFsc2U=", incorrectAnswers: ["VHJ1ZQ=="])])
            let legacy = try await sut.questions(.init(amount: "1", difficulty: "hard", encode: "urlLegacy"), address: "a")
            #expect(legacy.results.first?.question == "Pluto+is+a+planet.")
            #expect(legacy.results.first?.category == "Science%3A+Astronomy")
            let rfc = try await sut.questions(.init(amount: "1", difficulty: "hard", encode: "url3986"), address: "a")
            #expect(rfc.results.first?.question == "Pluto%20is%20a%20planet.")
        }
    }

    @Test func filtersNarrowTheQuestionsAndUnknownCategoriesHaveNone() async throws {
        try await withUseCases { env in
            let bank = try await Self.loadBank(env)
            let sut = makeSUT(env)
            let booleans = try await sut.questions(.init(amount: "2", type: "boolean"), address: "a")
            #expect(texts(booleans) == ["Pluto is a planet.", #"Rome's "forum" had <b> & more."#])
            #expect(try await sut.questions(.init(amount: "3", type: "boolean"), address: "a").code == .noResults)
            let easy = try await sut.questions(.init(amount: "2", category: "", difficulty: "easy", type: ""), address: "a")
            #expect(texts(easy) == ["Largest planet?", #"Rome's "forum" had <b> & more."#])
            #expect(try await sut.questions(.init(amount: "3", category: String(bank.astronomy + 8)), address: "a").code == .success)
            #expect(try await sut.questions(.init(amount: "1", category: "999"), address: "a").code == .noResults)
            #expect(try await sut.questions(.init(amount: "1", category: "0"), address: "a").code == .success)
        }
    }

    @Test(arguments: [
        OpenTrivia.Request(), .init(amount: ""), .init(amount: "0"), .init(amount: "51"), .init(amount: "abc"), .init(amount: "5.0"),
        .init(amount: "+5"), .init(amount: "99999999999999999999"), .init(amount: "1", category: "nine"), .init(amount: "1", category: "-9"),
        .init(amount: "1", difficulty: "extreme"), .init(amount: "1", difficulty: "Easy"), .init(amount: "1", type: "any"),
        .init(amount: "1", encode: "rot13"),
    ])
    func invalidParametersAreCode2(_ request: OpenTrivia.Request) async throws {
        try await withUseCases { env in
            _ = try await Self.loadBank(env)
            let response = try await makeSUT(env).questions(request, address: "a")
            #expect(response.code == .invalidParameter && response.results.isEmpty)
        }
    }

    @Test func aTokenServesEachQuestionOnceUntilReset() async throws {
        try await withUseCases { env in
            _ = try await Self.loadBank(env)
            let sut = makeSUT(env)
            #expect(try await sut.questions(.init(amount: "1", token: "nope"), address: "a").code == .tokenNotFound)
            let token = try #require(try await sut.requestToken(address: "a").token)
            #expect(token.count == 64)
            let first = try await sut.questions(.init(amount: "3", token: token), address: "a")
            let second = try await sut.questions(.init(amount: "1", token: token), address: "a")
            #expect(first.code == .success && second.code == .success)
            #expect(texts(first).union(texts(second)).count == 4, "no question twice")
            #expect(try await sut.questions(.init(amount: "1", token: token), address: "a").code == .tokenEmpty)
            // More than the bank holds is "no results" whatever the token has seen.
            #expect(try await sut.questions(.init(amount: "5", token: token), address: "a").code == .noResults)
            #expect(try await sut.resetToken(token) == .init(code: .success, token: token))
            #expect(try await sut.questions(.init(amount: "4", token: token), address: "a").code == .success)
            #expect(try await sut.resetToken("unknown").code == .tokenNotFound)
            #expect(try await sut.resetToken(nil).code == .tokenNotFound)
        }
    }

    @Test func aTokenUnusedForSixHoursIsGone() async throws {
        try await withUseCases { env in
            _ = try await Self.loadBank(env)
            let sut = makeSUT(env)
            let token = try #require(try await sut.requestToken(address: "a").token)
            env.time.advance(by: 5 * 3600)
            #expect(try await sut.questions(.init(amount: "1", token: token), address: "a").code == .success, "use keeps it alive")
            env.time.advance(by: 5 * 3600)
            #expect(try await sut.questions(.init(amount: "1", token: token), address: "a").code == .success)
            env.time.advance(by: 6 * 3600 + 1)
            #expect(try await sut.questions(.init(amount: "1", token: token), address: "a").code == .tokenNotFound)
            #expect(try await sut.resetToken(token).code == .tokenNotFound)
            #expect(try await sut.deleteExpiredTokens() == 1)
        }
    }

    @Test func tokensAreBoundedOverallAndPerAddress() async throws {
        try await withUseCases { env in
            _ = try await Self.loadBank(env)
            let sut = makeSUT(env, maxTokens: 3)
            var tokens: [String] = []
            for index in 0..<4 {
                tokens.append(try #require(try await sut.requestToken(address: "192.0.2.\(index)").token))
                env.time.advance(by: 1)
            }
            #expect(try await sut.questions(.init(amount: "1", token: tokens[0]), address: "a").code == .tokenNotFound,
                    "the least recently used token made room")
            for token in tokens.dropFirst() {
                #expect(try await sut.questions(.init(amount: "1", token: token), address: "a").code == .success)
            }
            for _ in 0..<60 { #expect(try await sut.requestToken(address: "198.51.100.7").code == .success) }
            #expect(try await sut.requestToken(address: "198.51.100.7").code == .rateLimit)
            env.time.advance(by: 3600)
            #expect(try await sut.requestToken(address: "198.51.100.7").code == .success)
        }
    }

    @Test func oneRequestPerAddressEveryFiveSeconds() async throws {
        try await withUseCases { env in
            _ = try await Self.loadBank(env)
            let sut = makeSUT(env, interval: 5)
            #expect(try await sut.questions(.init(amount: "1"), address: "192.0.2.1").code == .success)
            env.time.advance(by: 4.9)
            let limited = try await sut.questions(.init(amount: "1"), address: "192.0.2.1")
            #expect(limited.code == .rateLimit && limited.results.isEmpty)
            #expect(try await sut.questions(.init(amount: "abc"), address: "192.0.2.1").code == .rateLimit, "checked before anything else")
            #expect(try await sut.questions(.init(amount: "1"), address: "192.0.2.2").code == .success, "another address has its own")
            env.time.advance(by: 0.1)
            #expect(try await sut.questions(.init(amount: "1"), address: "192.0.2.1").code == .success)
        }
    }

    @Test func categoriesAndCountsCoverWhatIsServed() async throws {
        try await withUseCases { env in
            let bank = try await Self.loadBank(env)
            let sut = makeSUT(env)
            #expect(try await sut.categories() == [.init(id: bank.astronomy + 8, name: "Science: Astronomy"),
                                                    .init(id: bank.history + 8, name: "History")])
            let astronomy = try #require(try await sut.count(category: String(bank.astronomy + 8)))
            #expect(astronomy.count == .init(total: 3, easy: 1, medium: 1, hard: 1))
            #expect(try await sut.count(category: "999")?.count == .init())
            #expect(try await sut.count(category: "abc") == nil)
            #expect(try await sut.count(category: nil) == nil)
            let global = try await sut.globalCount()
            #expect(global.overall == 4)
            #expect(global.categories == [bank.astronomy + 8: 3, bank.history + 8: 1])
        }
    }

    @Test func categoryIdsStayWhenTopicsAreAddedBeforeThem() async throws {
        try await withUseCases { env in
            let bank = try await Self.loadBank(env)
            let sut = makeSUT(env)
            let before = try await sut.categories()
            // A subject placed first in the catalog, with a topic of its own.
            _ = try await env.store.importBank(Bank(subjects: [BankSubject(name: "Art", topics: [
                BankTopic(name: "Painting", quizzes: [BankQuiz(title: "Colours", questions: [Self.single("Primary?", ["Red", "Green"])])]),
            ])]), at: env.time.now())
            try await env.store.move(.subject, id: try #require(try await env.store.subjects().last?.id), to: 0)
            let after = try await sut.categories()
            #expect(after.count == 3)
            for category in before { #expect(after.contains(category)) }
            #expect(before.map(\.id) == [bank.astronomy + 8, bank.history + 8])
        }
    }
}

/// Reads back the default encoding for comparisons (the five characters htmlspecialchars writes).
enum HTMLDecoded {
    static func text(_ encoded: String) -> String {
        encoded.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#039;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
