import Foundation
import HTTPTypes
import QuizCore
import QuizStore
import QuizTestSupport
import Testing

/// Issue 31's kinds over the socket: what each question message holds (never its answer), bad
/// input refused with a typed error and nothing stored, the reveal and each player's credit.
@Suite(.serialized) struct LiveKindsSocketTests {
    private let sockets = LiveGameSocketTests()

    private struct Table {
        let host: LiveSocketClient
        let players: [LiveSocketClient]
        let gameId: Int64
        let database: QuizDatabase
        func close() { for socket in [host] + players { socket.close() } }
    }

    /// A quiz of `questions` hosted over the pages (with `settings`' fields), Ann and Bob joined, the
    /// game started; `body` gets the host, the players and the first question as each player got it.
    private func playing(_ questions: [Question], settings: [(String, String)] = [],
                         _ body: @escaping @Sendable (Table, [[String: Any]]) async throws -> Void) async throws {
        try await sockets.withLiveApp { port, client, env, database in
            _ = try await env.store.importBank(Bank(subjects: [BankSubject(name: "Live", topics: [BankTopic(name: "Kinds", quizzes: [
                BankQuiz(title: "Kinds live", questions: questions)])])]), at: env.time.now())
            let quiz = try #require(try await env.store.allQuizzes().first { $0.quiz.title == "Kinds live" }?.quiz)
            let (gameId, cookie) = try await sockets.hostGame(client, [("quiz", "\(quiz.id)")] + settings)
            let (host, pin) = try await sockets.hostSocket(port: port, gameId: gameId, cookie: cookie)
            var players: [LiveSocketClient] = []
            for name in ["Ann", "Bob"] {
                let player = LiveSocketClient(port: port)
                players.append(player)
                try player.send(["type": "join", "pin": pin, "nickname": name])
                _ = try #require(try await player.next("joined"))
            }
            let table = Table(host: host, players: players, gameId: gameId, database: database)
            defer { table.close() }
            try host.send(["type": "start"])
            var asked: [[String: Any]] = []
            for player in players { asked.append(try #require(try await player.next("question"))) }
            try await body(table, asked)
        }
    }

    private func ids(_ message: [String: Any], _ key: String) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: ((message[key] as? [[String: Any]]) ?? []).map { ($0["text"] as! String, $0["id"] as! Int) })
    }

    /// The refusal a player's answer gets, and that the game stored nothing for it.
    private func refused(_ answer: [String: Any], by player: LiveSocketClient, question: Int = 0) async throws -> String? {
        try player.send(["type": "answer", "question": question, "answer": answer])
        let error = try await player.next("error")
        #expect(error?["of"] as? String == "answer")
        return error?["code"] as? String
    }

    private func answered(_ answer: [String: Any], by player: LiveSocketClient, question: Int = 0) async throws {
        try player.send(["type": "answer", "question": question, "answer": answer])
        #expect(try await player.next("ack")?["question"] as? Int == question)
    }

    @Test func anOrderingScoresOnlyTheWholeOrderAndRefusesWhatIsNoOrder() async throws {
        let items = ["Rome", "Paris", "Helsinki"]
        try await playing([Question(text: "Oldest first", body: .ordering(Ordering(items: items)))]) { table, asked in
            let question = asked[0]
            #expect(question["kind"] as? String == "ordering")
            #expect(question["order"] == nil && question["pairs"] == nil)
            let id = ids(question, "items")
            #expect(Set(id.keys) == Set(items) && id.values.allSatisfy { (100_000_000..<1_000_000_000).contains($0) })
            let right = items.map { id[$0]! }
            let (ann, bob) = (table.players[0], table.players[1])
            #expect(try await refused(["order": [right[0], right[1]]], by: ann) == "bad-answer")
            #expect(try await refused(["order": [right[0], right[0], right[1]]], by: ann) == "bad-answer")
            #expect(try await refused(["order": [1, 2, 3]], by: ann) == "bad-answer")
            #expect(try await refused(["choice": right[0]], by: ann) == "bad-answer")
            #expect(try await SQLStore(database: table.database).liveAnswers(gameId: table.gameId).isEmpty, "nothing stored")
            try await answered(["order": right], by: ann)
            try await answered(["order": [right[1], right[0], right[2]]], by: bob)
            let reveal = try #require(try await ann.next("reveal"))
            #expect((reveal["order"] as? [[String: Any]])?.map { $0["text"] as? String } == items)
            #expect((reveal["order"] as? [[String: Any]])?.map { $0["id"] as? Int } == right)
            let mine = try #require(try await ann.next("result"))
            #expect(mine["correct"] as? Bool == true && (mine["points"] as? Int ?? 0) > 0 && mine["credit"] == nil)
            let bobs = try #require(try await bob.next("result"))
            #expect(bobs["correct"] as? Bool == false && bobs["points"] as? Int == 0, "two of three in place scores nothing live")
        }
    }

    @Test func aMatchingIsAnsweredWithSelectsAndEarnsItsShareOfPairs() async throws {
        try await playing([Question(text: "Capitals", body: .matching(Matching(pairs: [.init(prompt: "France", answer: "Paris"),
                                                                                      .init(prompt: "Italy", answer: "Rome")],
                                                                              extras: ["Lyon"])))]) { table, asked in
            let question = asked[0]
            #expect(question["kind"] as? String == "matching")
            #expect((question["prompts"] as? [[String: Any]])?.map { $0["id"] as? Int } == [1, 2])
            let answer = ids(question, "answers")
            #expect(Set(answer.keys) == ["Paris", "Rome", "Lyon"])
            let (ann, bob) = (table.players[0], table.players[1])
            #expect(try await refused(["matches": ["3": answer["Paris"]!]], by: ann) == "bad-answer")
            #expect(try await refused(["matches": ["1": 42]], by: ann) == "bad-answer")
            try ann.send(["type": "answer", "question": 0, "answer": ["matches": ["one": answer["Paris"]!]]])
            #expect(try await ann.next("error")?["code"] as? String == "bad-message")
            try await answered(["matches": ["1": answer["Paris"]!, "2": answer["Lyon"]!]], by: ann)
            try await answered(["matches": ["1": answer["Paris"]!, "2": answer["Rome"]!]], by: bob)
            let reveal = try #require(try await ann.next("reveal"))
            #expect((reveal["pairs"] as? [[String: Any]])?.map { [$0["prompt"] as? Int, $0["answer"] as? Int] }
                    == [[1, answer["Paris"]], [2, answer["Rome"]]])
            let mine = try #require(try await ann.next("result"))
            #expect(mine["credit"] as? Int == 50 && mine["correct"] as? Bool == false && mine["points"] as? Int == 500)
            #expect(try await bob.next("result")?["points"] as? Int == 1_000)
        }
    }

    @Test func anEstimateSendsItsSliderNotItsValueAndTheRevealNamesTheClosest() async throws {
        let estimate = Estimate(minimum: 0, maximum: 1_000, step: 5, value: 330, margin: 100, unit: "m")
        try await playing([Question(text: "Eiffel tower", body: .estimate(estimate))]) { table, asked in
            let question = asked[0]
            let range = try #require(question["estimate"] as? [String: Any])
            #expect(range["minimum"] as? Double == 0 && range["maximum"] as? Double == 1_000 && range["step"] as? Double == 5)
            #expect(!String(describing: question).contains("330"), "no value, no margin")
            let (ann, bob) = (table.players[0], table.players[1])
            #expect(try await refused(["number": 1_005], by: ann) == "bad-answer")
            #expect(try await refused(["number": "-1"], by: ann) == "bad-answer")
            try await answered(["number": 305], by: ann)
            try await answered(["number": 330], by: bob)
            let reveal = try #require(try await ann.next("reveal"))
            let shown = try #require(reveal["estimate"] as? [String: Any])
            #expect(shown["value"] as? Double == 330)
            #expect((shown["closest"] as? [[String: Any]])?.map { $0["nickname"] as? String } == ["Bob", "Ann"])
            let mine = try #require(try await ann.next("result"))
            #expect(mine["credit"] as? Int == 75 && mine["points"] as? Int == 750)
        }
    }

    @Test func aWordCloudGrowsOnTheHostsScreenAndAHiddenWordLeavesEveryScreen() async throws {
        try await playing([Question(text: "One word for Monday", body: .wordCloud)]) { table, asked in
            #expect(asked[0]["maxLength"] as? Int == 40)
            let (host, ann, bob) = (table.host, table.players[0], table.players[1])
            #expect(try await refused(["text": String(repeating: "x", count: 41)], by: ann) == "bad-answer")
            #expect(try await refused(["text": "?!"], by: ann) == "bad-answer")
            try await answered(["text": "<b>Rude</b>"], by: ann)
            let grown = try #require(try await host.next("cloud"))
            let word = try #require((grown["words"] as? [[String: Any]])?.first)
            #expect(word["count"] as? Int == 1)
            let key = try #require(word["key"] as? String)
            try host.send(["type": "hide", "question": 0, "key": "nothing"])
            let badHide = try await host.next("error")
            #expect(badHide?["code"] as? String == "bad-hide" && badHide?["of"] as? String == "hide")
            try host.send(["type": "hide", "question": 0, "key": String(repeating: "k", count: 3_000)])
            #expect(try await host.next("error")?["code"] as? String == "bad-hide")
            try await answered(["text": "coffee"], by: bob)
            let reveal = try #require(try await bob.next("reveal"))
            #expect(((reveal["cloud"] as? [String: Any])?["words"] as? [[String: Any]])?.count == 2)
            #expect(try await bob.next("result")?["points"] as? Int == 0)
            try host.send(["type": "hide", "question": 0, "key": key])
            let after = try #require(try await bob.next("cloud"))
            #expect((after["words"] as? [[String: Any]])?.map { $0["text"] as? String } == ["coffee"])
        }
    }

    @Test func aSlideIsShownOnEveryScreenTakesNoAnswerAndTheHostMovesOn() async throws {
        try await playing([Question(text: "Now for geography", body: .slide),
                           Question(text: "The sky is blue", body: .trueFalse(true))]) { table, asked in
            #expect(asked[0]["kind"] as? String == "slide" && asked[0]["seconds"] as? Int == 0)
            let (host, ann) = (table.host, table.players[0])
            #expect(try await refused(["value": true], by: ann) == "bad-answer")
            try host.send(["type": "close"])
            #expect(try await host.next("error")?["code"] as? String == "not-now")
            try host.send(["type": "next"])
            let next = try #require(try await ann.messages(through: "question").last)
            #expect(next["index"] as? Int == 1 && next["kind"] as? String == "trueFalse")
        }
    }

    /// TeX goes out as MathML beside the text, to the host and every player (each choice's beside
    /// it in every player's own shuffle), and a plain question has no `html` at all (its bytes as
    /// before); the right answer still only in the reveal.
    @Test func texGoesOutAsMathMLBesideItsTextAndAPlainQuestionAsBefore() async throws {
        let fraction = Question(text: "What is $$\\frac{1}{2} + \\frac{1}{4}$$?", explanation: "Quarters: \\(\\frac{2}{4} + \\frac{1}{4}\\)",
                                body: .singleChoice([Choice(id: 1, text: "$$\\frac{3}{4}$$", isCorrect: true),
                                                     Choice(id: 2, text: "$$\\frac{2}{6}$$", isCorrect: false),
                                                     Choice(id: 3, text: "None, $5", isCorrect: false)]))
        try await playing([fraction, Question(text: "The sky is blue", body: .trueFalse(true))], settings: [("shuffleAnswers", "on")]) { table, asked in
            let hosted = try #require(try await table.host.next("question"))
            for question in asked + [hosted] {
                #expect((question["html"] as? String)?.hasPrefix("What is <math display=\"block\"><semantics><mrow><mfrac>") == true)
                let choices = try #require(question["choices"] as? [[String: Any]])
                let html = Dictionary(uniqueKeysWithValues: choices.map { ($0["text"] as! String, $0["html"] as? String) })
                #expect(html["$$\\frac{3}{4}$$"]??.contains("<mfrac><mn>3</mn><mn>4</mn></mfrac>") == true)
                #expect(html["None, $5"] == .some(nil), "a dollar is not maths")
                #expect(Set(choices.flatMap(\.keys)) == ["id", "text", "html"], "nothing more than another rendering of the text")
            }
            let ann = table.players[0]
            try await answered(["choice": ids(asked[0], "choices")["$$\\frac{3}{4}$$"]!], by: ann)
            try await answered(["choice": ids(asked[1], "choices")["None, $5"]!], by: table.players[1])
            let reveal = try #require(try await ann.next("reveal"))
            #expect((reveal["correctHTML"] as? String)?.contains("<mfrac><mn>3</mn><mn>4</mn></mfrac>") == true)
            #expect((reveal["explanationHTML"] as? String)?.hasPrefix("Quarters: <math><semantics>") == true)
            let labels = try #require(reveal["distribution"] as? [[String: Any]])
            #expect(labels.allSatisfy { ($0["labelHTML"] != nil) == ($0["label"] as? String)?.hasPrefix("$$") } && labels.count == 3)
            try table.host.send(["type": "next"])
            _ = try #require(try await ann.next("leaderboard"))
            try table.host.send(["type": "next"])
            let plain = try #require(try await ann.messages(through: "question").last)
            #expect(plain["index"] as? Int == 1 && plain["html"] == nil)
        }
    }

    @Test func theSetupPageNamesEachQuestionLeftOutAndWhy() async throws {
        try await sockets.withLiveApp { _, client, env, _ in
            let gap = GapFill(text: "The Seine flows through [[1]].", gaps: [.init(.typed([Alternative("Paris")]))])
            _ = try await env.store.importBank(Bank(subjects: [BankSubject(name: "Live", topics: [BankTopic(name: "Kinds", quizzes: [
                BankQuiz(title: "Left out", questions: [Question(text: "Fill the gap <here>", body: .gapFill(gap)),
                                                        Question(text: "The sky is blue", body: .trueFalse(true))])])])]), at: env.time.now())
            let quiz = try #require(try await env.store.allQuizzes().first { $0.quiz.title == "Left out" }?.quiz)
            let browser = TestBrowser(client)
            try await browser.register("hostess")
            let page = try await browser.get("/live/new?quiz=\(quiz.id)")
            #expect(page.status == .ok)
            #expect(page.contains("id=\"live-left-out\""))
            #expect(page.contains("“Fill the gap &lt;here&gt;”: a gap fill is too much to read and fill in on a phone against the clock"))
        }
    }
}
