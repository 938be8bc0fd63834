import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import QuizCore
import QuizServer
import QuizStore
import QuizTestSupport
import Synchronization
import Testing

/// Two instances on one PostgreSQL database, each listening on its own port, as behind a load
/// balancer: a live game hosted on one is played from both.
@Suite(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
struct LiveAcrossInstancesTests {
    @Test func playersOnBothInstancesSeeTheSameQuestionsAndResultsAndAnswersFromEitherCountOnce() async throws {
        // Listening on ports of their own, as behind a load balancer.
        try await withTwoInstances(setup: .live) { a, b, env in
            let tools = env.store.database
            let (portA, portB) = (try #require(a.port), try #require(b.port))
            // Every notice between the instances, to check what they carry.
            let notices = Mutex<[String]>([])
            let (listened, listenedIn) = AsyncStream.makeStream(of: Void.self)
            let listening = Task {
                await LiveNotifications(database: tools, logger: Logger(label: "test"))?.listen(connected: { listenedIn.yield() }, received: { text in
                    notices.withLock { $0.append(text) }
                })
            }
            defer { listening.cancel() }
            var listenedFirst = listened.makeAsyncIterator()
            _ = await listenedFirst.next()

            let (gameId, cookie) = try await LiveGameSocketTests().hostGame(a)
            let host = LiveSocketClient(port: portA, cookie: cookie)
            defer { host.close() }
            try host.send(["type": "host", "game": gameId])
            let pin = try #require((try await host.next("hosting")?["game"] as? [String: Any])?["pin"] as? String)

            // Ann plays on A (the owner), Bob and Cy on B.
            let ann = LiveSocketClient(port: portA), bob = LiveSocketClient(port: portB), cy = LiveSocketClient(port: portB)
            let players = [ann, bob, cy]
            defer { for player in players { player.close() } }
            for (player, name) in zip(players, ["Ann", "Bob", "Cy"]) {
                try player.send(["type": "join", "pin": pin, "nickname": name])
                let joined = try #require(try await player.next("joined"))
                #expect((joined["player"] as? [String: Any])?["nickname"] as? String == name)
            }
            // Numbered by the database: no two players share an id.
            let stored = try await SQLStore(database: tools).livePlayers(gameId: gameId)
            #expect(stored.map(\.player.id) == [1, 2, 3] && stored.map(\.player.nickname) == ["Ann", "Bob", "Cy"])
            // The host on A hears of the players who joined on B.
            var roster: [[String: Any]] = []
            while roster.count < 3, let list = try await host.next("players") { roster = list["players"] as? [[String: Any]] ?? [] }
            #expect(roster.map { $0["nickname"] as? String } == ["Ann", "Bob", "Cy"])
            // A nickname taken on the other instance is taken here too.
            let copycat = LiveSocketClient(port: portA)
            defer { copycat.close() }
            try copycat.send(["type": "join", "pin": pin, "nickname": "bob"])
            #expect(try await copycat.next("error")?["code"] as? String == "nickname-taken")

            // The host may be on either instance: a second screen on B follows the game and moves it on.
            let hostOnB = LiveSocketClient(port: portB, cookie: cookie)
            defer { hostOnB.close() }
            try hostOnB.send(["type": "host", "game": gameId])
            #expect(try await hostOnB.next("hosting") != nil)

            try host.send(["type": "start"])
            var shown: [String: Int] = [:]  // choice ids by text, as the players' phones got them
            for player in players {
                let question = try #require(try await player.next("question"))
                #expect(question["index"] as? Int == 0 && question["text"] as? String == "Which planet is largest?")
                for choice in question["choices"] as? [[String: Any]] ?? [] {
                    let (text, id) = (choice["text"] as? String ?? "", choice["id"] as? Int ?? 0)
                    #expect(shown[text] == nil || shown[text] == id, "both instances show the same ids")
                    shown[text] = id
                }
                #expect(question["deadline"] as? Int64 == (question["openedAt"] as? Int64).map { $0 + 20_000 })
            }
            let (jupiter, mars) = (try #require(shown["Jupiter"]), try #require(shown["Mars"]))
            env.time.advance(by: 5)
            try ann.send(["type": "answer", "question": 0, "answer": ["choice": jupiter]])  // right after 5 s: 875
            #expect(try await ann.next("ack") != nil)
            try bob.send(["type": "answer", "question": 0, "answer": ["choice": mars]])  // wrong
            #expect(try await bob.next("ack") != nil)
            try bob.send(["type": "answer", "question": 0, "answer": ["choice": jupiter]])
            #expect(try await bob.next("error")?["code"] as? String == "already-answered")
            env.time.advance(by: 5)
            try cy.send(["type": "answer", "question": 0, "answer": ["choice": jupiter]])  // right after 10 s: 750
            #expect(try await cy.next("ack") != nil)

            // Everyone answered, on either instance: the owner ends the question, everyone sees it.
            let reveal = try #require(try await host.next("reveal"))
            #expect(reveal["correct"] as? String == "Jupiter")
            #expect((reveal["distribution"] as? [[String: Any]])?.map { $0["count"] as? Int } == [1, 2])
            let results = try await players.asyncMap { try #require(try await $0.next("result")) }
            #expect(results.map { $0["points"] as? Int } == [875, 0, 750])
            #expect(results.map { $0["rank"] as? Int } == [1, 3, 2])

            // Counted once each, in the database too.
            let answers = try await SQLStore(database: tools).liveAnswers(gameId: gameId)
            #expect(answers.map(\.answer.playerId).sorted() == [1, 2, 3])
            #expect(answers.sorted { $0.answer.playerId < $1.answer.playerId }.map(\.answer.points) == [875, 0, 750])

            // B's host screen counted the answers as they came, and saw the question end.
            var counted = 0
            while counted < 3, let progress = try await hostOnB.next("progress") { counted = progress["answered"] as? Int ?? 0 }
            #expect(counted == 3)
            #expect(try await hostOnB.next("reveal")?["correct"] as? String == "Jupiter")
            try hostOnB.send(["type": "next"])
            let board = try #require(try await ann.next("leaderboard"))
            #expect((board["top"] as? [[String: Any]])?.map { $0["nickname"] as? String } == ["Ann", "Cy", "Bob"])
            #expect(try await cy.next("leaderboard") != nil)

            try host.send(["type": "end"])
            let ended = try await players.asyncMap { try #require(try await $0.next("ended")) }
            #expect(ended.map { ($0["you"] as? [String: Any])?["rank"] as? Int } == [1, 3, 2])

            // Notices name a game and what changed: never an answer.
            let sent = notices.withLock { $0 }
            #expect(!sent.isEmpty)
            for text in sent {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                #expect(Set(object.keys).isSubset(of: ["g", "f", "k", "c", "p", "l", "s", "i", "a", "n"]), "\(text)")
                #expect(!text.contains("Jupiter") && !text.contains("choice"), "\(text)")
            }
        }
    }
}
