import Foundation
import QuizTestSupport
import Testing

extension LiveGameSocketTests {
    /// The host's lobby marks who has a socket open: the newest player is not shown away.
    @Test func theHostsListMarksTheNewestPlayerConnected() async throws {
        try await withLiveApp { port, client, _, _ in
            let (gameId, cookie) = try await hostGame(client)
            let host = LiveSocketClient(port: port, cookie: cookie)
            defer { host.close() }
            try host.send(["type": "host", "game": gameId])
            let hosting = try #require(try await host.next("hosting"))
            let pin = try #require((hosting["game"] as? [String: Any])?["pin"] as? String)
            var players: [LiveSocketClient] = []
            defer { for player in players { player.close() } }
            for name in ["Ann", "Bob"] {
                let player = LiveSocketClient(port: port)
                players.append(player)
                try player.send(["type": "join", "pin": pin, "nickname": name])
                _ = try #require(try await player.next("joined"))
                // The host's list settles on this player connected (a list sent while the
                // player's socket was being added may say otherwise, but never last).
                var marked = false
                while !marked, let list = try await host.next("players") {
                    let entry = (list["players"] as? [[String: Any]])?.first { $0["nickname"] as? String == name }
                    marked = entry?["connected"] as? Bool == true
                }
                #expect(marked, "\(name) is shown away")
            }
        }
    }

    /// The reveal does not carry its question's text: a host screen reloaded during it gets the
    /// question first, so its heading is not empty.
    @Test func aHostWhoReloadsDuringARevealGetsTheQuestionFirst() async throws {
        try await withLiveApp { port, client, _, _ in
            let (gameId, cookie) = try await hostGame(client)
            let host = LiveSocketClient(port: port, cookie: cookie)
            try host.send(["type": "host", "game": gameId])
            let pin = try #require((try await host.next("hosting")?["game"] as? [String: Any])?["pin"] as? String)
            let player = LiveSocketClient(port: port)
            defer { player.close() }
            try player.send(["type": "join", "pin": pin, "nickname": "Ann"])
            _ = try #require(try await player.next("joined"))
            try host.send(["type": "start"])
            _ = try #require(try await host.next("question"))
            try host.send(["type": "close"])
            _ = try #require(try await host.next("reveal"))
            host.close()

            let reloaded = LiveSocketClient(port: port, cookie: cookie)
            defer { reloaded.close() }
            try reloaded.send(["type": "host", "game": gameId])
            let caughtUp = try await reloaded.messages(through: "reveal")
            let question = caughtUp.first { $0["type"] as? String == "question" }
            #expect(question?["text"] as? String == "Which planet is largest?")
            #expect(caughtUp.last?["type"] as? String == "reveal")
        }
    }

    /// A host screen back before its players (as after a failover) lists them away; each player
    /// who resumes is then marked connected.
    @Test func playersWhoResumeAfterTheHostAreMarkedConnected() async throws {
        try await withLiveApp { port, client, _, _ in
            let (gameId, cookie) = try await hostGame(client)
            let host = LiveSocketClient(port: port, cookie: cookie)
            try host.send(["type": "host", "game": gameId])
            let pin = try #require((try await host.next("hosting")?["game"] as? [String: Any])?["pin"] as? String)
            let player = LiveSocketClient(port: port)
            try player.send(["type": "join", "pin": pin, "nickname": "Ann"])
            let joined = try #require(try await player.next("joined"))
            let id = try #require((joined["player"] as? [String: Any])?["id"] as? Int)
            let secret = try #require(joined["secret"] as? String)
            // Both gone, as their instance died: read until the server has closed each.
            player.close()
            while try await player.next(nil) != nil {}
            host.close()
            while try await host.next(nil) != nil {}

            let screen = LiveSocketClient(port: port, cookie: cookie)
            defer { screen.close() }
            try screen.send(["type": "host", "game": gameId])
            func ann(_ list: [String: Any]?) -> Bool? {
                (list?["players"] as? [[String: Any]])?.first { $0["id"] as? Int == id }?["connected"] as? Bool
            }
            #expect(ann(try await screen.next("players")) == false)
            let phone = LiveSocketClient(port: port)
            defer { phone.close() }
            try phone.send(["type": "resume", "pin": pin, "player": id, "secret": secret])
            _ = try #require(try await phone.next("joined"))
            var marked = false
            while !marked, let list = try await screen.next("players") { marked = ann(list) == true }
            #expect(marked)
        }
    }
}

