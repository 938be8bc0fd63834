import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import QuizTestSupport
import Synchronization
import Testing

@Suite(.serialized) struct LiveGameSocketTests {
    /// The real application listening on a port, a fresh database with the sample bank.
    func withLiveApp(configure: (inout ServerConfig) -> Void = { _ in },
                             _ body: @escaping @Sendable (Int, any TestClientProtocol, TestEnvironment, QuizDatabase) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-live-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var config = ServerConfig()
        config.database = path
        config.bcryptCost = 4
        config.loadStarterBank = false
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-data-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        config.dataDirectory = data
        configure(&config)
        var logger = Logger(label: "quizbox-test")
        logger.logLevel = .warning
        let time = ManualTimeSource()
        let database = try await QuizDatabase.open(path, poolSize: 2, logger: logger)
        try await prepare(database: database, config: config, time: time, logger: logger)
        let store = CachedStore(SQLStore(database: database))
        _ = try await store.importBank(sampleBank(), at: time.now())
        let app = try await buildApplication(config: config, database: database, time: time, logger: logger)
        let settings = config
        try await app.test(.live) { client in
            try await body(try #require(client.port), client, TestEnvironment(store: store, time: time, config: settings), database)
        }
    }

    /// Signs a host up through the pages and sets up a game of the sample quiz; returns its id and the host's cookie.
    func hostGame(_ client: any TestClientProtocol, _ fields: [(String, String)] = []) async throws -> (Int64, String) {
        let browser = TestBrowser(client)
        try await browser.register("hostess")
        let defaults = [("quiz", "1"), ("secondsPerQuestion", "20"), ("streakBonus", "on"), ("leaderboardAfterEach", "on"), ("teams", "0")]
        let created = try await browser.post("/live", defaults.filter { field in !fields.contains { $0.0 == field.0 } } + fields)
        #expect(created.status == .seeOther, "\(created.html)")
        let location = try #require(created.location)
        let id = try #require(Int64(location.split(separator: "/")[1]))
        #expect(location == "/live/\(id)/host")
        let screen = try await browser.get(location)
        #expect(screen.status == .ok, "\(screen.html)")
        #expect(screen.contains("<svg") && screen.contains("data-game=\"\(id)\""))
        return (id, "quizbox_session=\(try #require(browser.cookies["quizbox_session"]))")
    }

    /// The host's socket on the game, and the game's PIN.
    func hostSocket(port: Int, gameId: Int64, cookie: String) async throws -> (LiveSocketClient, String) {
        let host = LiveSocketClient(port: port, cookie: cookie)
        do {
            try host.send(["type": "host", "game": gameId])
            return (host, try #require((try await host.next("hosting")?["game"] as? [String: Any])?["pin"] as? String))
        } catch {
            host.close()
            throw error
        }
    }

    @Test func aHostAndThreePlayersPlayAQuestionScoredByTheServersClock() async throws {
        try await withLiveApp { port, client, env, database in
            let (gameId, cookie) = try await hostGame(client)
            let host = LiveSocketClient(port: port, cookie: cookie)
            defer { host.close() }
            try host.send(["type": "host", "game": gameId])
            let hosting = try #require(try await host.next("hosting"))
            let game = try #require(hosting["game"] as? [String: Any])
            let pin = try #require(game["pin"] as? String)
            #expect(pin.count == 6 && pin.allSatisfy(\.isNumber))
            #expect(game["questionCount"] as? Int == 5)

            var players: [LiveSocketClient] = []
            defer { for player in players { player.close() } }
            var secrets: [Int: String] = [:]
            for name in ["Ann", "Bob", "Cy"] {
                let player = LiveSocketClient(port: port)
                players.append(player)
                try player.send(["type": "join", "pin": pin, "nickname": name])
                let joined = try #require(try await player.next("joined"))
                let me = try #require(joined["player"] as? [String: Any])
                #expect(me["nickname"] as? String == name)
                secrets[me["id"] as! Int] = joined["secret"] as? String
                #expect((joined["code"] as? String)?.count == 6)
                // The host hears of each arrival (after the empty list it got on connecting).
                var arrived = false
                while !arrived, let list = try await host.next("players") {
                    arrived = (list["players"] as? [[String: Any]])?.last?["nickname"] as? String == name
                }
                #expect(arrived)
            }
            // A taken nickname, ignoring case, is refused with its own code.
            let copycat = LiveSocketClient(port: port)
            defer { copycat.close() }
            try copycat.send(["type": "join", "pin": pin, "nickname": "ann"])
            #expect(try await copycat.next("error")?["code"] as? String == "nickname-taken")

            try host.send(["type": "start"])
            for player in players {
                let question = try #require(try await player.next("question"))
                #expect(question["index"] as? Int == 0)
                #expect(question["text"] as? String == "Which planet is largest?")
                // Nothing in it says which choice is right.
                #expect(!String(describing: question).lowercased().contains("correct"))
                let deadline = try #require(question["deadline"] as? Int64)
                #expect(deadline - (question["openedAt"] as! Int64) == 20_000)
            }
            _ = try await host.next("question")
            let (jupiter, mars) = (try await client.choiceId("Jupiter", question: 1), try await client.choiceId("Mars", question: 1))
            env.time.advance(by: 5)
            try players[0].send(["type": "answer", "question": 0, "answer": ["choice": jupiter]])  // right after 5 s: 875
            #expect(try await players[0].next("ack")?["question"] as? Int == 0)
            try players[0].send(["type": "answer", "question": 0, "answer": ["choice": mars]])
            #expect(try await players[0].next("error")?["code"] as? String == "already-answered")
            try players[1].send(["type": "answer", "question": 0, "answer": ["choice": mars]])  // wrong
            #expect(try await players[1].next("ack") != nil)
            try players[2].send(["type": "answer", "question": 1, "answer": ["choice": jupiter]])
            #expect(try await players[2].next("error")?["code"] as? String == "not-open")
            // Not at the deadline itself: the server's clock service would close the question first.
            env.time.advance(by: 10)
            try players[2].send(["type": "answer", "question": 0, "answer": ["choice": jupiter]])  // right after 15 s: 625
            #expect(try await players[2].next("ack") != nil)

            // Everyone answered: the question ends at once.
            let reveal = try #require(try await host.next("reveal"))
            #expect(reveal["correct"] as? String == "Jupiter")
            #expect(reveal["correctChoices"] as? [Int] == [jupiter])
            let counts = (reveal["distribution"] as? [[String: Any]])?.map { $0["count"] as? Int }
            #expect(counts == [1, 2])
            // Each player sees the reveal, then their own result (written together).
            let results = try await players.asyncMap { player in
                #expect(try await player.next("reveal")?["correct"] as? String == "Jupiter")
                return try #require(try await player.next("result"))
            }
            #expect(results.map { $0["points"] as? Int } == [875, 0, 625])
            #expect(results.map { $0["rank"] as? Int } == [1, 3, 2])
            #expect(results.map { $0["correct"] as? Bool } == [true, false, true])

            // Every acknowledged answer is in the database once.
            let stored = try await SQLStore(database: database).liveAnswers(gameId: gameId).sorted { $0.answer.playerId < $1.answer.playerId }
            #expect(stored.map(\.answer.playerId) == [1, 2, 3])
            #expect(stored.map(\.answer.points) == [875, 0, 625])

            try host.send(["type": "next"])
            let board = try #require(try await players[1].next("leaderboard"))
            #expect((board["top"] as? [[String: Any]])?.map { $0["nickname"] as? String } == ["Ann", "Cy", "Bob"])

            // A player whose phone reloads comes back with the same score.
            players[1].close()
            let back = LiveSocketClient(port: port)
            players[1] = back
            try back.send(["type": "resume", "pin": pin, "player": 2, "secret": try #require(secrets[2])])
            let resumed = try #require(try await back.next("joined"))
            #expect((resumed["player"] as? [String: Any])?["nickname"] as? String == "Bob")
            #expect(try await back.next("leaderboard") != nil)
            try back.send(["type": "resume", "pin": pin, "player": 3, "secret": "guessed"])
            #expect(try await back.next("error")?["code"] as? String == "bad-message")  // this socket already joined

            try host.send(["type": "end"])
            let ended = try #require(try await players[0].next("ended"))
            #expect((ended["you"] as? [String: Any])?["rank"] as? Int == 1)
            #expect((ended["podium"] as? [[String: Any]])?.count == 3)
            let standings = try #require(try await host.next("ended"))
            #expect((standings["standings"] as? [[String: Any]])?.count == 3)
        }
    }

    @Test func badMessagesGetTypedErrorsAndStrangersCannotHost() async throws {
        try await withLiveApp { port, client, _, _ in
            let (gameId, _) = try await hostGame(client)
            let stranger = LiveSocketClient(port: port)
            defer { stranger.close() }
            stranger.sendRaw("not json")
            #expect(try await stranger.next("error")?["code"] as? String == "bad-message")
            try stranger.send(["type": "answer", "question": 0, "answer": ["choice": 1]])
            #expect(try await stranger.next("error")?["code"] as? String == "not-joined")
            try stranger.send(["type": "host", "game": gameId])
            #expect(try await stranger.next("error")?["code"] as? String == "not-host")
            try stranger.send(["type": "join", "pin": "000000", "nickname": "Ann"])
            #expect(try await stranger.next("error")?["code"] as? String == "unknown-game")
            try stranger.send(["v": 2, "type": "join", "pin": "000000", "nickname": "Ann"])
            #expect(try await stranger.next("error")?["code"] as? String == "bad-message")
            stranger.sendRaw(#"{"v":1,"type":"join","pin":"1","nickname":"\#(String(repeating: "x", count: 5_000))"}"#)
            // Over the frame limit: the server says why and closes the socket.
            let last = try await stranger.next("error")
            #expect(last == nil || last?["code"] as? String == "bad-message")
        }
    }

    @Test func thePagesAroundAGameRenderAndTheResultsExport() async throws {
        try await withLiveApp { port, client, _, _ in
            let (gameId, cookie) = try await hostGame(client)
            let browser = TestBrowser(client)
            #expect(try await browser.get("/join/123456").contains("123456"))
            #expect(try await browser.get("/join").status == .ok)
            let host = LiveSocketClient(port: port, cookie: cookie)
            defer { host.close() }
            try host.send(["type": "host", "game": gameId])
            let pin = try #require((try await host.next("hosting")?["game"] as? [String: Any])?["pin"] as? String)
            let player = LiveSocketClient(port: port)
            defer { player.close() }
            try player.send(["type": "join", "pin": pin, "nickname": "=cmd|' /C calc'!A0"])
            _ = try await player.next("joined")
            // A signed-in player plays under their username and finds the game on their profile.
            let member = TestBrowser(client)
            try await member.register("member")
            let signedIn = LiveSocketClient(port: port, cookie: "quizbox_session=\(try #require(member.cookies["quizbox_session"]))")
            defer { signedIn.close() }
            try signedIn.send(["type": "join", "pin": pin, "nickname": "whatever"])
            #expect((try await signedIn.next("joined")?["player"] as? [String: Any])?["nickname"] as? String == "member")
            try host.send(["type": "start"])
            _ = try await player.next("question")
            try player.send(["type": "answer", "question": 0, "answer": ["choice": try await client.choiceId("Jupiter", question: 1)]])
            _ = try await player.next("ack")
            try host.send(["type": "end"])
            _ = try await host.next("ended")
            let profile = try await member.get("/profile")
            #expect(profile.contains("Live games played") && profile.contains("rank 2 of 2"), "\(profile.html)")
            let owner = TestBrowser(client)
            owner.setCookie("quizbox_session", String(cookie.dropFirst("quizbox_session=".count)))
            let results = try await owner.get("/live/\(gameId)/results")
            #expect(results.status == .ok, "\(results.html)")
            #expect(results.contains("Jupiter"))
            // Numbers as the podium writes them.
            #expect(results.contains("<strong>1,000</strong>"), "\(results.html)")
            // Ended during its first question of five: one question listed; the player who did
            // not answer it has a dash and no points.
            #expect(results.html.components(separatedBy: #"class="qnum""#).count - 1 == 1, "\(results.html)")
            #expect(results.html.components(separatedBy: "—</span></td>").count - 1 == 1, "\(results.html)")
            #expect(results.html.components(separatedBy: " pts").count - 1 == 1, "\(results.html)")
            let csv = try await owner.get("/live/\(gameId)/results.csv")
            #expect(csv.html.split(separator: "\r\n").count == 3, "\(csv.html)")
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            // A nickname that looks like a formula is written as text.
            #expect(csv.html.contains("'=cmd|' /C calc'!A0"))
            #expect(csv.html.contains("Jupiter,yes,"))
            let json = try await client.call(.get, "/api/v1/live-games/\(gameId)/results", cookie: cookie)
            #expect(json.status == .ok, "\(json.raw)")
            let players = try #require(json["players"] as? [[String: Any]])
            #expect(players.first?["score"] as? Int == 1_000)
            #expect(((players.first?["answers"] as? [[String: Any]])?.first)?["answer"] as? String == "Jupiter")
            let listed = try await client.call(.get, "/api/v1/live-games", cookie: cookie)
            #expect((listed["games"] as? [[String: Any]])?.first?["running"] as? Bool == false)
            #expect(try await client.call(.get, "/api/v1/live-games/\(gameId)", token: "nobody").status == .unauthorized)
            // Someone else's results are not theirs to see.
            let other = TestBrowser(client)
            try await other.register("nosy")
            #expect(try await other.get("/live/\(gameId)/results").status == .notFound)
            #expect(try await owner.get("/live").contains("/live/\(gameId)/results"))
        }
    }

    @Test func theAPISetsUpAGameThatTheSocketRuns() async throws {
        try await withLiveApp { port, client, _, _ in
            let token = try await client.signUp("apihost")
            let refused = try await client.call(.post, "/api/v1/live-games", token: token, json: ["quizId": 1, "secondsPerQuestion": 2])
            #expect(refused.status == .unprocessableContent && refused.errorCode == "bad_settings", "\(refused.raw)")
            #expect(try await client.call(.post, "/api/v1/live-games", token: token, json: ["quizId": 99]).status == .notFound)
            let created = try await client.call(.post, "/api/v1/live-games", token: token,
                                                json: ["quizId": 1, "points": ["0": "double"], "teams": 2])
            #expect(created.status == .created, "\(created.raw)")
            let id = try #require(created["id"] as? Int)
            let pin = try #require(created["pin"] as? String)
            #expect(created["joinPath"] as? String == "/join/\(pin)" && created["phase"] as? String == "lobby")
            let host = LiveSocketClient(port: port, cookie: "quizbox_session=\(token)")
            defer { host.close() }
            try host.send(["type": "host", "game": id])
            let settings = try #require((try await host.next("hosting")?["game"] as? [String: Any])?["settings"] as? [String: Any])
            #expect(settings["teams"] as? Int == 2 && (settings["points"] as? [String: String])?["0"] == "double")
            let read = try await client.call(.get, "/api/v1/live-games/\(id)", token: token)
            #expect(read["running"] as? Bool == true)
            let stranger = try await client.signUp("stranger")
            #expect(try await client.call(.get, "/api/v1/live-games/\(id)", token: stranger).status == .notFound)
            #expect(try await client.call(.get, "/api/v1/live-games/\(id)/results", token: stranger).status == .notFound)
            for _ in 1..<LiveGamesLimit.perHost {
                #expect(try await client.call(.post, "/api/v1/live-games", token: token, json: ["quizId": 1]).status == .created)
            }
            let tooMany = try await client.call(.post, "/api/v1/live-games", token: token, json: ["quizId": 1])
            #expect(tooMany.status == .conflict && tooMany.errorCode == "too_many_games")
        }
    }

    /// Issue 28, finding 4: the right answer is first in the file (stored choice 1), yet a player
    /// sending `choice: 1` scores nothing; the ids shown and revealed are the server's own.
    @Test func shuffledChoicesAreShownUnderIdsThatSayNothingOfTheFilesOrder() async throws {
        try await withLiveApp { port, client, env, _ in
            let questions = (1...4).map { n in
                Question(text: "Question \(n)?", body: .singleChoice((1...4).map { Choice(id: $0, text: $0 == 1 ? "Right \(n)" : "Wrong \(n)\($0)", isCorrect: $0 == 1) }))
            }
            _ = try await env.store.importBank(Bank(subjects: [BankSubject(name: "Tricks", topics: [
                BankTopic(name: "First", quizzes: [BankQuiz(title: "Right first", questions: questions)]),
            ])]), at: env.time.now())
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let (gameId, cookie) = try await hostGame(client, [("quiz", "2"), ("shuffleAnswers", "on")])
            let (host, pin) = try await hostSocket(port: port, gameId: gameId, cookie: cookie)
            defer { host.close() }
            var players: [LiveSocketClient] = []
            defer { for player in players { player.close() } }
            for name in ["Ann", "Bob"] {
                let player = LiveSocketClient(port: port)
                players.append(player)
                try player.send(["type": "join", "pin": pin, "nickname": name])
                _ = try await player.next("joined")
            }
            try host.send(["type": "start"])
            var (rightId, wrongId) = (0, 0)
            for player in players {
                let question = try #require(try await player.next("question"))
                let choices = try #require(question["choices"] as? [[String: Any]])
                let ids = choices.compactMap { $0["id"] as? Int }
                #expect(ids.count == 4 && Set(ids).isDisjoint(with: 1...4), "ids are not places in the file: \(ids)")
                #expect(ids.allSatisfy { publicChoiceIds.contains($0) })
                rightId = try #require(choices.first { $0["text"] as? String == "Right 1" }?["id"] as? Int)
                wrongId = try #require(choices.first { $0["text"] as? String == "Wrong 12" }?["id"] as? Int)
            }
            // The place in the file is refused; the id shown scores.
            try players[0].send(["type": "answer", "question": 0, "answer": ["choice": 1]])
            #expect(try await players[0].next("error")?["code"] as? String == "bad-answer")
            try players[0].send(["type": "answer", "question": 0, "answer": ["choice": 2]])
            #expect(try await players[0].next("error")?["code"] as? String == "bad-answer")
            try players[1].send(["type": "answer", "question": 0, "answer": ["choice": rightId]])
            #expect(try await players[1].next("ack") != nil)
            try players[0].send(["type": "answer", "question": 0, "answer": ["choice": wrongId]])
            #expect(try await players[0].next("ack") != nil)
            let reveal = try #require(try await host.next("reveal"))
            #expect(reveal["correctChoices"] as? [Int] == [rightId])
            let tallies = try #require(reveal["distribution"] as? [[String: Any]])
            #expect(tallies.first { $0["choice"] as? Int == rightId }?["count"] as? Int == 1)
            #expect(tallies.first { $0["choice"] as? Int == wrongId }?["count"] as? Int == 1)
            #expect(try await players[1].next("result")?["correct"] as? Bool == true)
        }
    }

    @Test func teamsAndShuffledAnswersPlayOverTheSocket() async throws {
        try await withLiveApp { port, client, _, _ in
            let (gameId, cookie) = try await hostGame(client, [("teams", "2"), ("shuffleAnswers", "on")])
            let (host, pin) = try await hostSocket(port: port, gameId: gameId, cookie: cookie)
            defer { host.close() }
            var players: [LiveSocketClient] = []
            defer { for player in players { player.close() } }
            var teams: [Int] = []
            for name in ["Ann", "Bob", "Cy", "Dee"] {
                let player = LiveSocketClient(port: port)
                players.append(player)
                try player.send(["type": "join", "pin": pin, "nickname": name])
                teams.append(try #require((try await player.next("joined")?["player"] as? [String: Any])?["team"] as? Int))
            }
            #expect(teams == [1, 2, 1, 2])
            let (jupiter, mars) = (try await client.choiceId("Jupiter", question: 1), try await client.choiceId("Mars", question: 1))
            try host.send(["type": "start"])
            for player in players {
                // In the player's own order, with every choice there.
                let question = try #require(try await player.next("question"))
                let ids = try #require((question["choices"] as? [[String: Any]])?.compactMap { $0["id"] as? Int })
                #expect(Set(ids) == [jupiter, mars] && ids.count == 2)
            }
            // Ann and Cy (team 1) right, Bob right, Dee wrong: team 1 averages more.
            for (index, player) in players.enumerated() {
                try player.send(["type": "answer", "question": 0, "answer": ["choice": index == 3 ? mars : jupiter]])
                #expect(try await player.next("ack") != nil)
            }
            _ = try await host.next("reveal")
            try host.send(["type": "end"])
            let ended = try #require(try await host.next("ended"))
            let teamScores = try #require(ended["teams"] as? [[String: Any]])
            #expect(teamScores.map { $0["team"] as? Int } == [1, 2])
            #expect(teamScores.map { $0["members"] as? Int } == [2, 2])
            #expect((teamScores[0]["score"] as! Int) > (teamScores[1]["score"] as! Int))
        }
    }

    @Test func anAddressHoldsAtMostItsShareOfSocketsAndTheNextIsToldWhy() async throws {
        try await withLiveApp(configure: { $0.liveSocketsPerAddress = 2 }) { port, _, _, _ in
            func answersAJoin(_ socket: LiveSocketClient) async throws -> String? {
                try socket.send(["type": "join", "pin": "000000", "nickname": "Ann"])
                return try await socket.next("error")?["code"] as? String
            }
            let first = LiveSocketClient(port: port)
            let second = LiveSocketClient(port: port)
            defer { second.close() }
            #expect(try await answersAJoin(first) == "unknown-game")
            #expect(try await answersAJoin(second) == "unknown-game")
            let third = LiveSocketClient(port: port)
            defer { third.close() }
            let refused = try await third.next("error")
            #expect(refused?["code"] as? String == "too-many-sockets")
            #expect(try await third.next("error") == nil)  // and closed
            // A socket closed gives its place back (as soon as the server has seen it go).
            first.close()
            var admitted = false
            for _ in 0..<100 where !admitted {
                let next = LiveSocketClient(port: port)
                defer { next.close() }
                admitted = try await answersAJoin(next) == "unknown-game"
            }
            #expect(admitted)
        }
    }

    @Test func anUpgradeFromAnotherSiteIsRefused() async throws {
        try await withLiveApp { port, _, _, _ in
            let socket = LiveSocketClient(port: port, origin: "https://evil.example")
            defer { socket.close() }
            try socket.send(["type": "join", "pin": "123456", "nickname": "Ann"])
            #expect(try await socket.next("error") == nil)  // never upgraded: no message ever comes
        }
    }
}

/// As `LiveGames.gamesPerHost` (the use cases are not visible from here).
enum LiveGamesLimit {
    static let perHost = 5
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
