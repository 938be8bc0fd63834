import AsyncHTTPClient
import Foundation
import HummingbirdTesting
import OpenAPIAsyncHTTPClient
import QuizAPI
import QuizClient
import QuizCore
import QuizServer
import QuizStore
import QuizTestSupport
import Testing

/// The Swift client against the real application listening on a port, over HTTP and the live
/// WebSocket, as an app would use it.
@Suite struct QuizboxClientPlayTests {
    private func withServer(_ body: @escaping @Sendable (QuizboxClient, Int, TestEnvironment) async throws -> Void) async throws {
        try await withApp(.live) { client, env in
            let port = try #require(client.port)
            let api = QuizboxClient(serverURL: URL(string: "http://127.0.0.1:\(port)/api/v1")!, transport: AsyncHTTPClientTransport())
            try await body(api, port, env)
        }
    }

    private func signedUp(_ api: QuizboxClient, _ username: String) async throws {
        _ = try await api.register(username: username, firstName: "Terminal", lastName: "Player", password: "typed in the dark")
        try await api.logIn(username: username, password: "typed in the dark")
    }

    @Test func everyKindOfQuestionInAQuizIsAnsweredThroughTheClient() async throws {
        try await withServer { api, _, _ in
            try await signedUp(api, "ada")
            let subject = try #require(try await api.subjects().first)
            let topic = try #require(try await api.topics(subjectId: subject.id).first)
            let listed = try #require(try await api.quizzes(topicId: topic.id).first)
            let quiz = try await api.quiz(id: listed.id)
            #expect(quiz.title == "Planets" && quiz.questionCount == 5)
            let questions = try await api.questions(quizId: quiz.id)
            #expect(questions.map(\.kind) == [.singleChoice, .multipleChoice, .trueFalse, .typedAnswer, .numeric])

            let attempt = try await api.startAttempt(quizId: quiz.id)
            // Choice ids as the server sent them, found by their text.
            func id(_ text: String, of index: Int) -> Int { questions[index].choices?.first { $0.text == text }?.id ?? 0 }
            let answers: [Answer] = [.choice(id("Jupiter", of: 0)), .choices([id("Jupiter", of: 1), id("Saturn", of: 1)]), .bool(true),
                                     .text("  paris "), .number(8)]
            for (question, answer) in zip(questions, answers) {
                let result = try await api.answer(attemptId: attempt.id, questionId: question.id, with: answer)
                #expect(result.verdict == .correct, "\(question.text)")
                #expect(result.pointsAwarded == question.points)
            }
            let wrong = try await api.answer(attemptId: attempt.id, questionId: questions[0].id, with: .choice(id("Mars", of: 0)))
            #expect(wrong.verdict == .alreadyAnswered)
            #expect(wrong.correctAnswer.display == "Jupiter")
            #expect(wrong.explanation == "Jupiter is the largest planet.")
            #expect(try await api.attempt(id: attempt.id).answers.count == 5)

            let score = try await api.finish(attemptId: attempt.id)
            #expect(score.correctCount == 5 && score.points == 8 && score.userPoints == 8)
            let board = try await api.leaderboard()
            #expect(board.me.username == "ada" && board.me.rank == 1 && board.me.points == 8)
        }
    }

    @Test func theNewKindsAreAnsweredThroughTheClient() async throws {
        try await withApp(.live) { client, env in
            let (quizId, _) = try await QuestionKindsAPITests().publishedQuiz(client, env)
            let api = QuizboxClient(serverURL: URL(string: "http://127.0.0.1:\(try #require(client.port))/api/v1")!,
                                    transport: AsyncHTTPClientTransport())
            try await signedUp(api, "ada")
            let questions = try await api.questions(quizId: Int64(quizId))
            let byKind = Dictionary(uniqueKeysWithValues: questions.map { ($0.kind, $0) })
            let attempt = try await api.startAttempt(quizId: Int64(quizId))
            func id(_ text: String, in options: [Components.Schemas.ChoiceOption]?) -> Int { options?.first { $0.text == text }?.id ?? 0 }

            let ordering = try #require(byKind[.ordering])
            let order = try await api.answer(attemptId: attempt.id, questionId: ordering.id,
                                             with: .order(["Rome", "Paris", "Helsinki", "Brasília"].map { id($0, in: ordering.items) }))
            #expect(order.verdict == .correct && order.pointsAwarded == 4)
            let matching = try #require(byKind[.matching])
            let matched = try await api.answer(attemptId: attempt.id, questionId: matching.id,
                                               with: .matches([1: id("Helsinki", in: matching.options), 2: id("Oslo", in: matching.options)]))
            #expect(matched.verdict == .partlyCorrect && matched.credit == 0.5)
            let gapFill = try #require(byKind[.gapFill])
            let seine = id("Seine", in: gapFill.passage?.first { $0.gapKind == .choice }?.choices)
            let gaps = try await api.answer(attemptId: attempt.id, questionId: gapFill.id, with: .gaps([1: .choice(seine), 2: .text("Paris")]))
            #expect(gaps.verdict == .correct)
            let poll = try #require(byKind[.poll])
            #expect(try await api.answer(attemptId: attempt.id, questionId: poll.id, with: .choice(id("Tea", in: poll.choices))).verdict == .counted)
            let estimate = try #require(byKind[.estimate])
            #expect(estimate.minimum == 1900 && estimate.maximum == 2000)
            #expect(try await api.answer(attemptId: attempt.id, questionId: estimate.id, with: .number(1969)).verdict == .correct)
        }
    }

    @Test func practiceAndQuestionsOnTheirOwn() async throws {
        try await withServer { api, _, _ in
            try await signedUp(api, "bob")
            var settings = try await api.practiceSettings()
            settings.count = 3
            let outcome = try await api.startPractice(settings)
            #expect(outcome.status == .started)
            let attempt = try #require(outcome.attempt)
            let ids = try #require(outcome.questionIds)
            #expect(ids.count == 3)
            let shown = try await api.question(attemptId: attempt.id, questionId: ids[0])
            #expect(shown.question.id == ids[0])

            // 2 unseen are left of 5: a second round of 3 needs the slate wiped.
            #expect(try await api.startPractice(settings).status == .fewerThanAsked)
            try await api.forgetSeenQuestions()
            let again = try await api.startPractice(settings)
            #expect(again.status == .started)

            let random = try await api.randomQuestion(subjectId: try #require(try await api.subjects().first).id)
            #expect(try await api.question(id: random.id).text == random.text)
            let trueFalse = try #require(try await api.questions(quizId: 1).first { $0.kind == .trueFalse })
            let first = try await api.answer(questionId: trueFalse.id, with: .bool(true))
            #expect(first.verdict == .correct && first.counted)
            let second = try await api.answer(questionId: trueFalse.id, with: .bool(true))
            #expect(!second.counted)
        }
    }

    @Test func aNameThemAllGameIsPlayedToTheEnd() async throws {
        try await withServer { api, _, env in
            _ = try await env.store.importBank(planetsBank(), at: env.time.now())
            try await signedUp(api, "cyd")
            let question = try #require(try await api.gameQuestions().first)
            #expect(question.itemCount == 8)
            let game = try await api.startGame(questionId: question.id)
            #expect(try await api.guess(gameId: game.id, text: "mars").verdict == .found)
            #expect(try await api.guess(gameId: game.id, text: "Mars").verdict == .alreadyFound)
            #expect(try await api.guess(gameId: game.id, text: "Pluto").verdict == .notAnItem)
            #expect(try await api.game(id: game.id).found.map(\.answer) == ["Mars"])
            let ended = try await api.giveUp(gameId: game.id)
            #expect(ended.state == .finished && ended.missed?.count == 7)
        }
    }

    @Test func aPlayerJoinsALiveGameAndIsScored() async throws {
        try await withServer { host, port, _ in
            try await signedUp(host, "hostess")
            let game = try await host.createLiveGame(.init(quizId: 1))
            let screen = LiveSocketClient(port: port, cookie: "quizbox_session=\(try #require(host.token))")
            defer { screen.close() }
            try screen.send(["type": "host", "game": game.id])
            _ = try #require(try await screen.next("hosting"))

            let api = QuizboxClient(serverURL: host.serverURL, transport: AsyncHTTPClientTransport())
            #expect(api.liveSocketURL == "ws://127.0.0.1:\(port)/live/socket")
            let player = try await api.joinLiveGame(pin: game.pin, nickname: "Terminal")
            defer { player.close() }
            #expect(player.joined.player.nickname == "Terminal")
            #expect(player.joined.game.questionCount == 5)
            _ = try await screen.next("players")

            try screen.send(["type": "start"])
            var events = player.events.makeAsyncIterator()
            let opened = await events.next()
            guard case .question(let question) = opened else { Issue.record("got \(String(describing: opened))"); return }
            #expect(question.index == 0 && question.text == "Which planet is largest?")
            #expect(question.secondsLeft == 20)
            let jupiter = try #require(question.choices.first { $0.text == "Jupiter" }?.id)  // as the server sent it
            player.answer(question: 0, with: .choice(jupiter))
            let ack = await events.next()
            #expect(ack == .ack(question: 0))
            // The only player answered: the question closes at once, with the reveal and this player's result.
            var reveal: LiveEvent.Reveal?
            var result: LiveEvent.Result?
            while result == nil || reveal == nil, let event = await events.next() {
                if case .reveal(let value) = event { reveal = value }
                if case .result(let value) = event { result = value }
            }
            #expect(reveal?.correct == "Jupiter" && reveal?.correctChoices == [jupiter])
            #expect(result?.correct == true && result?.points == 1_000 && result?.rank == 1)

            // The same player from another device, by the short code, and after a lost connection by the secret.
            let code = try #require(player.joined.code)
            let phone = try await api.rejoinLiveGame(pin: game.pin, nickname: "Terminal", code: code)
            #expect(phone.joined.player.id == player.joined.player.id && phone.joined.player.score == 1_000)
            phone.close()
            let resumed = try await api.resumeLiveGame(pin: game.pin, player: phone.joined.player.id, secret: phone.joined.secret)
            #expect(resumed.joined.player.score == 1_000)
            resumed.close()

            try screen.send(["type": "end"])
            var ended: LiveEvent.Ended?
            while ended == nil, let event = await events.next() { if case .ended(let value) = event { ended = value } }
            #expect(ended?.you?.rank == 1 && ended?.you?.score == 1_000)
        }
    }

    @Test func theNewKindsArePlayedLiveThroughTheClient() async throws {
        try await withApp(.live) { client, env in
            let (quizId, _) = try await QuestionKindsAPITests().publishedQuiz(client, env)
            let port = try #require(client.port)
            let host = QuizboxClient(serverURL: URL(string: "http://127.0.0.1:\(port)/api/v1")!, transport: AsyncHTTPClientTransport())
            try await signedUp(host, "hostess")
            let game = try await host.createLiveGame(.init(quizId: Int64(quizId)))
            let screen = LiveSocketClient(port: port, cookie: "quizbox_session=\(try #require(host.token))")
            defer { screen.close() }
            try screen.send(["type": "host", "game": game.id])
            _ = try #require(try await screen.next("hosting"))
            let guest = QuizboxClient(serverURL: host.serverURL, transport: AsyncHTTPClientTransport())
            let player = try await guest.joinLiveGame(pin: game.pin, nickname: "Terminal")
            defer { player.close() }
            _ = try await screen.next("players")
            try screen.send(["type": "start"])
            var kinds: [Int: LiveProtocol.QuestionKind] = [:]
            var reveals: [LiveProtocol.QuestionKind: LiveEvent.Reveal] = [:]
            var results: [LiveProtocol.QuestionKind: LiveEvent.Result] = [:]
            func id(_ text: String, in parts: [LiveEvent.Choice]?) -> Int { parts?.first { $0.text == text }?.id ?? 0 }
            for await event in player.events {
                switch event {
                case .question(let question):
                    kinds[question.index] = question.kind
                    switch question.kind {
                    case .ordering:
                        player.answer(question: question.index, with: .order(["Rome", "Paris", "Helsinki", "Brasília"].map { id($0, in: question.items) }))
                    case .matching:
                        #expect(question.prompts?.map(\.id) == [1, 2])
                        player.answer(question: question.index, with: .matches([1: id("Helsinki", in: question.answers), 2: id("Oslo", in: question.answers)]))
                    case .poll: player.answer(question: question.index, with: .choice(id("Tea", in: question.choices)))
                    case .wordCloud: player.answer(question: question.index, with: .text("Coffee!"))
                    case .estimate:
                        #expect(question.estimate == .init(minimum: 1900, maximum: 2000, step: 1) && question.unit == "AD")
                        player.answer(question: question.index, with: .number(1968))
                    default: player.answer(question: question.index, with: .choice(id("Sydney", in: question.choices)))
                    }
                case .reveal(let reveal): reveals[kinds[reveal.index] ?? .slide] = reveal
                case .result(let result):
                    results[kinds[result.index] ?? .slide] = result
                    try screen.send(["type": "next"])
                case .leaderboard: try screen.send(["type": "next"])
                default: break
                }
                if case .ended = event { break }
            }
            #expect(kinds.count == 6, "every kind but the gap fill")
            #expect(reveals[.ordering]?.order?.map(\.text) == ["Rome", "Paris", "Helsinki", "Brasília"])
            #expect(results[.ordering]?.correct == true && results[.ordering]?.credit == nil)
            #expect(reveals[.matching]?.pairs?.map(\.prompt) == [1, 2])
            #expect(results[.matching]?.credit == 50 && results[.matching]?.correct == false)
            #expect(reveals[.wordCloud]?.cloud?.words.map(\.text) == ["Coffee"])
            #expect(reveals[.estimate]?.estimate?.value == 1969 && reveals[.estimate]?.estimate?.closest.map(\.nickname) == ["Terminal"])
            #expect(results[.estimate]?.credit == 90)
            #expect(results[.singleChoice]?.credit == 50, "an author's fraction is live partial credit")
            #expect(results[.poll]?.points == 0 && results[.poll]?.credit == nil)
        }
    }

    @Test func refusalsOfLiveGamesAndADownServerAreTypedErrors() async throws {
        try await withServer { api, _, _ in
            await #expect(throws: QuizboxClient.Error.live(code: "unknown-game", message: "No game is running with that PIN. Check it with your host.")) {
                _ = try await api.joinLiveGame(pin: "000000", nickname: "Nobody")
            }
        }
        // Port 1: nothing listens there, so the connection is refused. Without retrying it, as
        // `quizbox play` does, that is known at once rather than at the request's deadline.
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        let http = HTTPClient(configuration: configuration)
        defer { _ = http.shutdown() }
        let down = QuizboxClient(serverURL: URL(string: "http://127.0.0.1:1/api/v1")!,
                                 transport: AsyncHTTPClientTransport(configuration: .init(client: http)))
        await #expect(throws: QuizboxClient.Error.unreachable("connection refused")) { _ = try await down.subjects() }
        await #expect(throws: QuizboxClient.Error.self) { _ = try await down.joinLiveGame(pin: "123456", nickname: "x") }
    }
    @Test func anAssignmentIsSetJoinedPlayedAndReportedThroughTheClient() async throws {
        try await withServer { api, port, env in
            try await signedUp(api, "teacher")
            let quiz = try #require(try await api.quizzes(topicId: 1).first)
            let set = try await api.createAssignment(.init(quizId: quiz.id, closesAt: env.time.now() + 3600,
                                                           settings: .init(answersShown: .afterEachQuestion)))
            #expect(set.code.count == 6 && set.playerPath == "/a/\(set.code)" && set.window == .open)

            // A player without an account: a client of their own, no session.
            let phone = QuizboxClient(serverURL: URL(string: "http://127.0.0.1:\(port)/api/v1")!, transport: AsyncHTTPClientTransport())
            let joined = try await phone.joinAssignment(code: set.code, nickname: "Ada")
            let player = QuizboxClient.AssignmentPlayer(joined)
            _ = try await phone.startAttempt(player)
            let right: [String: Answer] = ["The Sun is a star.": .bool(true),
                                           "Capital of France?": .text("Paris"), "How many planets?": .number(8)]
            while true {
                let next = try await phone.nextQuestion(player)
                guard let question = next.question, let position = next.position else { break }
                func id(_ text: String) -> Int { question.choices?.first { $0.text == text }?.id ?? 0 }
                let answer: Answer = switch question.kind {
                case .singleChoice: .choice(id("Jupiter"))
                case .multipleChoice: .choices([id("Jupiter"), id("Saturn")])
                default: right[question.text] ?? .read
                }
                let answered = try await phone.answer(player, position: position, with: answer)
                #expect(answered.feedback?.verdict == .correct, "\(question.text)")
            }
            let result = try await phone.finish(player)
            #expect(result.grade == 1 && result.answersShown)
            await #expect(throws: QuizboxClient.Error.self) { _ = try await phone.startAttempt(player) }

            let report = try await api.assignmentReport(id: set.id)
            #expect(report.players.map(\.nickname) == ["Ada"] && report.players.first?.grade == 1)
            #expect(try await api.assignments().map(\.id) == [set.id])
            let closed = try await api.closeAssignment(id: set.id)
            #expect(closed.window == .closed)
        }
    }
}
