import Foundation
import HummingbirdTesting
@testable import QuizServer
import QuizTestSupport
import Testing

/// The second hardening round's live findings (issue 28), over real sockets: nothing sent during
/// an open question depends on whether an answer was right, resuming cannot probe PINs, and only
/// the site's own pages (scheme, host and port) open a socket.
extension LiveGameSocketTests {
    /// Hosts a game of the sample quiz, joins `names`, and opens its first question.
    private func openQuestion(port: Int, client: any TestClientProtocol, names: [String])
        async throws -> (gameId: Int64, host: LiveSocketClient, cookie: String, pin: String, players: [LiveSocketClient], joined: [[String: Any]],
                         question: [String: Any]) {
        let (gameId, cookie) = try await hostGame(client)
        let host = LiveSocketClient(port: port, cookie: cookie)
        try host.send(["type": "host", "game": gameId])
        let pin = try #require((try await host.next("hosting")?["game"] as? [String: Any])?["pin"] as? String)
        var players: [LiveSocketClient] = []
        var joined: [[String: Any]] = []
        for name in names {
            let player = LiveSocketClient(port: port)
            players.append(player)
            try player.send(["type": "join", "pin": pin, "nickname": name])
            joined.append(try #require(try await player.next("joined")))
        }
        try host.send(["type": "start"])
        var question: [String: Any] = [:]
        for player in players { question = try #require(try await player.next("question")) }
        _ = try await host.next("question")
        return (gameId, host, cookie, pin, players, joined, question)
    }

    private func choiceId(_ question: [String: Any], _ text: String) throws -> Int {
        try #require((question["choices"] as? [[String: Any]])?.first { $0["text"] as? String == text }?["id"] as? Int)
    }

    /// Every score, `correct` (a count, or a verdict read as 0 or 1) and streak anywhere in `value`.
    private func totals(in value: Any) -> [Int] {
        var numbers: [Int] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, item) in object {
                    if ["score", "correct", "streak"].contains(key) { numbers.append((item as? NSNumber)?.intValue ?? -1) }
                    walk(item)
                }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(value)
        return numbers
    }

    @Test func whileAQuestionIsOpenNothingAPlayerOrHostReceivesSaysWhetherAnAnswerWasRight() async throws {
        try await withLiveApp { port, client, _, _ in
            // Cy does not answer, so the question stays open.
            let game = try await openQuestion(port: port, client: client, names: ["Ann", "Bob", "Cy"])
            defer { game.host.close(); game.players.forEach { $0.close() } }
            var seen: [[String: Any]] = []
            try game.players[0].send(["type": "answer", "question": 0, "answer": ["choice": try choiceId(game.question, "Jupiter")]])
            seen += try await game.players[0].messages(through: "ack")
            try game.players[1].send(["type": "answer", "question": 0, "answer": ["choice": try choiceId(game.question, "Mars")]])
            seen += try await game.players[1].messages(through: "ack")
            // The host's screen as it runs, and as a reloaded one catches up.
            seen += try await game.host.messages(through: "progress")
            seen += try await game.host.messages(through: "progress")
            let reloaded = LiveSocketClient(port: port, cookie: game.cookie)
            defer { reloaded.close() }
            try reloaded.send(["type": "host", "game": game.gameId])
            seen += try await reloaded.messages(through: "progress")
            // Each player coming back: on a reloaded page (resume), and on another phone (rejoin).
            var secrets: [String] = []
            for (index, name) in ["Ann", "Bob"].enumerated() {
                let me = try #require(game.joined[index]["player"] as? [String: Any])
                let resumed = LiveSocketClient(port: port)
                defer { resumed.close() }
                try resumed.send(["type": "resume", "pin": game.pin, "player": try #require(me["id"] as? Int),
                                  "secret": try #require(game.joined[index]["secret"] as? String)])
                seen += try await resumed.messages(through: "question")
                let rejoined = LiveSocketClient(port: port)
                defer { rejoined.close() }
                try rejoined.send(["type": "rejoin", "pin": game.pin, "nickname": name, "code": try #require(game.joined[index]["code"] as? String)])
                let back = try await rejoined.messages(through: "question")
                seen += back
                secrets.append(try #require(back.first { $0["type"] as? String == "joined" }?["secret"] as? String))
            }
            let types = Set(seen.compactMap { $0["type"] as? String })
            #expect(types.isSuperset(of: ["ack", "progress", "hosting", "players", "joined", "question"]), "\(types)")
            let found = totals(in: seen)
            #expect(found.count >= 12, "too few players' totals were seen to prove anything: \(found.count)")
            #expect(found.allSatisfy { $0 == 0 }, "totals moved while the question was open: \(found)")

            // Once it closes, Ann's right answer counts: the check above could have seen it.
            try game.host.send(["type": "close"])
            _ = try await game.host.next("reveal")
            let after = LiveSocketClient(port: port)
            defer { after.close() }
            let ann = try #require(game.joined[0]["player"] as? [String: Any])
            try after.send(["type": "resume", "pin": game.pin, "player": try #require(ann["id"] as? Int), "secret": secrets[0]])
            let back = try #require(try await after.next("joined")?["player"] as? [String: Any])
            #expect(back["correct"] as? Int == 1 && (back["score"] as? Int ?? 0) > 0)
        }
    }

    @Test func resumingGivesOneAnswerForNoSuchGameAndAWrongSecretAndASocketStopsAfterThreeGuesses() async throws {
        try await withLiveApp { port, client, _, _ in
            let game = try await openQuestion(port: port, client: client, names: ["Ann"])
            defer { game.host.close(); game.players.forEach { $0.close() } }
            let ann = try #require(game.joined[0]["player"] as? [String: Any])
            let id = try #require(ann["id"] as? Int)
            let probe = LiveSocketClient(port: port)
            defer { probe.close() }
            let other = game.pin == "000000" ? "000001" : "000000"
            try probe.send(["type": "resume", "pin": other, "player": id, "secret": "guess"])
            let noGame = try #require(try await probe.next("error"))
            try probe.send(["type": "resume", "pin": game.pin, "player": id, "secret": "guess"])
            let badSecret = try #require(try await probe.next("error"))
            #expect(noGame["code"] as? String == badSecret["code"] as? String)
            #expect(noGame["message"] as? String == badSecret["message"] as? String)
            try probe.send(["type": "resume", "pin": game.pin, "player": id, "secret": "guess again"])
            #expect(try await probe.next("error") != nil)
            // The third refused greeting closes the socket: no fourth try on it.
            try probe.send(["type": "resume", "pin": game.pin, "player": id, "secret": "and again"])
            #expect(try await probe.next("error") == nil)
        }
    }

    @Test func everyGreetingCountsAgainstTheAddressResumesToo() async throws {
        try await withLiveApp(configure: { $0.liveJoinsPerAddressPerMinute = 4 }) { port, client, _, _ in
            // The host's greeting and Ann's join are two.
            let game = try await openQuestion(port: port, client: client, names: ["Ann"])
            defer { game.host.close(); game.players.forEach { $0.close() } }
            let ann = try #require(game.joined[0]["player"] as? [String: Any])
            var codes: [String] = []
            for _ in 0..<3 {
                let again = LiveSocketClient(port: port)
                defer { again.close() }
                try again.send(["type": "resume", "pin": game.pin, "player": try #require(ann["id"] as? Int),
                                "secret": try #require(game.joined[0]["secret"] as? String)])
                let reply = try #require(try await again.next(nil))
                codes.append(reply["type"] as? String == "joined" ? "joined" : reply["code"] as? String ?? "?")
            }
            #expect(codes == ["joined", "joined", "rate-limited"])
        }
    }

    @Test func onlyPagesOfTheSitesOwnSchemeHostAndPortOpenASocket() async throws {
        @Sendable func opens(_ port: Int, origin: String?, headers: [String: String] = [:]) async throws -> Bool {
            let socket = LiveSocketClient(port: port, origin: origin, headers: headers)
            defer { socket.close() }
            try socket.send(["type": "join", "pin": "000000", "nickname": "Ann"])
            return try await socket.next("error") != nil  // refused upgrades never get a message
        }
        try await withLiveApp(configure: { _ in }) { port, _, _, _ in
            var opened: [String: Bool] = [:]
            opened["none"] = try await opens(port, origin: nil)  // no browser's: nothing a page could lend it
            for origin in ["http://127.0.0.1:\(port)", "https://127.0.0.1:\(port)", "http://127.0.0.1:\(port + 1)", "http://127.0.0.1",
                           "ftp://127.0.0.1:\(port)", "null", "ws://127.0.0.1", "ws://evil.example"] {
                opened[origin] = try await opens(port, origin: origin)
            }
            // The same host and port over HTTPS is a TLS proxy in front; another port is another site.
            // (The test client also sends its library's own "ws://127.0.0.1": no browser page sends ws://, and no
            // client that does holds a visitor's cookies, so those are not checked.)
            #expect(opened == ["none": true, "http://127.0.0.1:\(port)": true, "https://127.0.0.1:\(port)": true,
                               "http://127.0.0.1:\(port + 1)": false, "http://127.0.0.1": false, "ftp://127.0.0.1:\(port)": false,
                               "null": false, "ws://127.0.0.1": true, "ws://evil.example": true])
        }
        try await withLiveApp(configure: { $0.publicURL = "https://quiz.example.org" }) { port, _, _, _ in
            var opened: [String: Bool] = [:]
            for origin in ["https://quiz.example.org", "https://QUIZ.example.org:443", "http://quiz.example.org",
                           "https://quiz.example.org:8443", "http://127.0.0.1:\(port)"] {
                opened[origin] = try await opens(port, origin: origin)
            }
            #expect(opened == ["https://quiz.example.org": true, "https://QUIZ.example.org:443": true, "http://quiz.example.org": false,
                               "https://quiz.example.org:8443": false, "http://127.0.0.1:\(port)": false])
        }
    }

    @Test func behindATrustedProxyEachForwardedClientHasItsOwnShareOfSockets() async throws {
        @Sendable func admitted(_ socket: LiveSocketClient) async throws -> Bool {
            try socket.send(["type": "join", "pin": "000000", "nickname": "Ann"])
            return try await socket.next("error")?["code"] as? String == "unknown-game"
        }
        /// Opens a socket per forwarded header, each once the one before was answered (a socket
        /// connects as it is made: made together, their order would be a race).
        @Sendable func admissions(_ port: Int, _ forwarded: [String]) async throws -> [Bool] {
            var sockets: [LiveSocketClient] = []
            defer { sockets.forEach { $0.close() } }
            var answers: [Bool] = []
            for header in forwarded {
                let socket = LiveSocketClient(port: port, headers: ["X-Forwarded-For": header])
                sockets.append(socket)
                answers.append(try await admitted(socket))
            }
            return answers
        }
        try await withLiveApp(configure: { $0.liveSocketsPerAddress = 1; $0.trustedProxies = "127.0.0.1" }) { port, _, _, _ in
            // The third is the first one's client again.
            let admitted = try await admissions(port, ["198.51.100.7", "203.0.113.9, 198.51.100.8", "198.51.100.7"])
            #expect(admitted == [true, true, false])
        }
        // Not trusted (the default): the header is anyone's to write, and counts for nothing.
        try await withLiveApp(configure: { $0.liveSocketsPerAddress = 1 }) { port, _, _, _ in
            let admitted = try await admissions(port, ["198.51.100.7", "198.51.100.8"])
            #expect(admitted == [true, false])
        }
    }
}
