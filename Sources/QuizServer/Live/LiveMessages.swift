import Foundation
import QuizCore
import QuizUseCases

/// The JSON of the live protocol (docs/live-protocol.md), version 1: what clients send, read into
/// typed values, and what the server sends, written from the use case's events.
enum LiveMessages {
    static let version = 1
    /// The largest message a client may send.
    static let maxBytes = 4_096
    /// Players listed in a host's roster (`count` says how many there are).
    static let rosterSize = 500

    enum Incoming: Equatable {
        case host(gameId: Int64)
        case join(pin: String, nickname: String, team: Int?)
        case resume(pin: String, playerId: Int, secret: String)
        case rejoin(pin: String, nickname: String, code: String)
        case answer(question: Int, answer: Answer)
        case command(LiveGames.HostCommand)
    }

    struct BadMessage: Error {
        var type: String?
        var message: String
    }

    /// Every field any message may carry; which are needed depends on `type`.
    private struct Raw: Decodable {
        var v: Int?
        var type: String?
        var game: Int64?
        var pin: String?
        var nickname: String?
        var team: Int?
        var player: Int?
        var secret: String?
        var code: String?
        var question: Int?
        var answer: RawAnswer?
        var settings: LiveSettings?
        var locked: Bool?
    }

    private struct RawAnswer: Decodable {
        var choice: Int?
        var choices: [Int]?
        var value: Bool?
        var text: String?
        var number: String?

        enum CodingKeys: String, CodingKey { case choice, choices, value, text, number }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            choice = try container.decodeIfPresent(Int.self, forKey: .choice)
            choices = try container.decodeIfPresent([Int].self, forKey: .choices)
            value = try container.decodeIfPresent(Bool.self, forKey: .value)
            text = try container.decodeIfPresent(String.self, forKey: .text)
            // A number may come typed or as the digits a field held.
            if let digits = try? container.decodeIfPresent(String.self, forKey: .number) {
                number = digits
            } else if let value = try container.decodeIfPresent(Double.self, forKey: .number) {
                number = NumberFormatting.plain(value)
            }
        }

        var answer: Answer? {
            let given = [choice != nil, choices != nil, value != nil, text != nil, number != nil].filter { $0 }.count
            guard given == 1 else { return nil }
            if let choice { return .choice(choice) }
            if let choices { return choices.isEmpty || choices.count > Answer.maxChoices ? nil : .choices(Set(choices)) }
            if let value { return .bool(value) }
            if let text { return text.isEmpty || text.utf8.count > Answer.maxTextBytes ? nil : .text(text) }
            if let number { return number.isEmpty || number.count > 40 ? nil : .text(number) }
            return nil
        }
    }

    static func read(_ text: String) throws(BadMessage) -> Incoming {
        guard text.utf8.count <= maxBytes else { throw BadMessage(message: "Messages are at most 4 KiB.") }
        let raw: Raw
        do {
            raw = try JSONDecoder().decode(Raw.self, from: Data(text.utf8))
        } catch {
            throw BadMessage(message: "A message is one JSON object with the fields of its type, each of its type.")
        }
        let type = raw.type
        guard raw.v == version else { throw BadMessage(type: type, message: "This server speaks version 1 (\"v\": 1).") }
        func need<T>(_ value: T?, _ key: String) throws(BadMessage) -> T {
            guard let value else { throw BadMessage(type: type, message: "\"\(key)\" is missing.") }
            return value
        }
        switch type {
        case "host": return .host(gameId: try need(raw.game, "game"))
        case "join": return .join(pin: try need(raw.pin, "pin"), nickname: try need(raw.nickname, "nickname"), team: raw.team)
        case "resume": return .resume(pin: try need(raw.pin, "pin"), playerId: try need(raw.player, "player"), secret: try need(raw.secret, "secret"))
        case "rejoin": return .rejoin(pin: try need(raw.pin, "pin"), nickname: try need(raw.nickname, "nickname"), code: try need(raw.code, "code"))
        case "answer":
            guard let answer = raw.answer?.answer else {
                throw BadMessage(type: type, message: "\"answer\" is one of {choice}, {choices}, {value}, {text} or {number}.")
            }
            return .answer(question: try need(raw.question, "question"), answer: answer)
        case "settings": return .command(.settings(try need(raw.settings, "settings")))
        case "start": return .command(.start)
        case "close": return .command(.close)
        case "next": return .command(.next)
        case "end": return .command(.end)
        case "kick": return .command(.kick(try need(raw.player, "player")))
        case "lock": return .command(.lock(try need(raw.locked, "locked")))
        default: throw BadMessage(type: type, message: "Unknown message type.")
        }
    }

    // MARK: Out

    static func text(_ object: [String: Any]) -> String {
        var object = object
        object["v"] = version
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func error(_ code: String, _ message: String, of type: String?) -> String {
        var object: [String: Any] = ["type": "error", "code": code, "message": message]
        if let type { object["of"] = type }
        return text(object)
    }

    static func player(_ player: LivePlayer) -> [String: Any] {
        var object: [String: Any] = ["id": player.id, "nickname": player.nickname, "score": player.score, "streak": player.streak,
                                     "correct": player.correct]
        if let team = player.team { object["team"] = team }
        return object
    }

    static func game(_ game: LiveGame) -> [String: Any] {
        ["pin": game.pin, "title": game.title, "phase": game.phase.rawValue, "questionCount": game.questions.count,
         "teams": game.settings.teams, "index": game.index]
    }

    static func settings(_ settings: LiveSettings) -> [String: Any] {
        ["secondsPerQuestion": settings.secondsPerQuestion, "streakBonus": settings.streakBonus, "shuffleAnswers": settings.shuffleAnswers,
         "leaderboardAfterEach": settings.leaderboardAfterEach, "autoAdvance": settings.autoAdvance, "teams": settings.teams,
         "points": Dictionary(uniqueKeysWithValues: settings.points.map { (String($0.key), $0.value.rawValue) })]
    }

    static func joined(_ joined: LiveGames.Joined) -> String {
        var object: [String: Any] = ["type": "joined", "player": player(joined.player), "secret": joined.secret, "game": game(joined.game)]
        if let code = joined.code { object["code"] = code }
        return text(object)
    }

    static func hosting(_ game: LiveGame, joinURL: String) -> String {
        var info = Self.game(game)
        info["id"] = game.id
        info["joinURL"] = joinURL
        info["locked"] = game.locked
        info["settings"] = settings(game.settings)
        return text(["type": "hosting", "game": info])
    }

    static func question(_ view: LiveQuestionView, now: Date) -> String {
        var object: [String: Any] = [
            "type": "question", "index": view.index, "count": view.count, "text": view.text, "kind": view.kind.rawValue,
            "choices": view.choices.map { ["id": $0.id, "text": $0.text] }, "points": view.points.rawValue, "seconds": view.seconds,
            "openedAt": millis(view.openedAt), "deadline": millis(view.deadline), "now": millis(now),
        ]
        if let unit = view.unit { object["unit"] = unit }
        if let picture = view.picture {
            object["image"] = ["url": picture.url, "alt": picture.alt, "width": picture.width, "height": picture.height] as [String: Any]
        }
        return text(object)
    }

    static func standing(_ standing: LiveGame.Standing) -> [String: Any] {
        var object: [String: Any] = ["id": standing.player.id, "nickname": standing.player.nickname, "score": standing.player.score,
                                     "rank": standing.rank, "movement": standing.movement, "correct": standing.player.correct]
        if let team = standing.player.team { object["team"] = team }
        return object
    }

    static func teams(_ teams: [LiveGame.TeamScore]) -> [[String: Any]] {
        teams.map { ["team": $0.team, "score": $0.score, "members": $0.members] }
    }

    /// The text of an event for everyone in `audience` alike; nil for events written per player.
    /// `connected`: the players with a socket open on this server, for the host's list.
    static func shared(_ event: LiveEvent, host: Bool, now: Date, connected: Set<Int> = []) -> String? {
        switch event {
        case .players(let players, let locked):
            let shown = players.lazy.filter { !$0.kicked }
            let listed: [[String: Any]] = shown.prefix(rosterSize).map { shownPlayer in
                var object = player(shownPlayer)
                object["connected"] = connected.contains(shownPlayer.id)
                return object
            }
            return text(["type": "players", "count": shown.count, "locked": locked, "players": listed])
        case .question(let view, _):
            return question(view, now: now)
        case .progress(let index, let answered, let players):
            return text(["type": "progress", "index": index, "answered": answered, "players": players])
        case .reveal(let reveal):
            var object: [String: Any] = [
                "type": "reveal", "index": reveal.index, "correct": reveal.correct, "correctChoices": reveal.correctChoices,
                "answered": reveal.answered, "players": reveal.players,
                "distribution": reveal.distribution.map { tally -> [String: Any] in
                    var item: [String: Any] = ["label": tally.label, "count": tally.count, "correct": tally.isCorrect]
                    if let choice = tally.choice { item["choice"] = choice }
                    return item
                },
            ]
            if let explanation = reveal.explanation { object["explanation"] = explanation }
            return text(object)
        case .leaderboard(let top, let teams, let final):
            return text(["type": "leaderboard", "top": top.map(standing), "teams": Self.teams(teams), "final": final])
        case .ended(let podium, let standings, let teams):
            var object: [String: Any] = ["type": "ended", "podium": podium.map(standing), "teams": Self.teams(teams)]
            if host { object["standings"] = standings.map(standing) }
            return text(object)
        case .host(let connected, let endsAt):
            var object: [String: Any] = ["type": "host", "connected": connected]
            if let endsAt { object["endsAt"] = millis(endsAt); object["now"] = millis(now) }
            return text(object)
        case .result, .kicked:
            return nil
        }
    }

    /// Written by hand, numbers and booleans only: one per player when a question ends, 10,000 at
    /// once in a full game, where JSONSerialization was a tenth of the server's time.
    static func result(_ result: LivePlayerResult) -> String {
        let answer = result.answer
        return #"{"answered":\#(answer != nil),"bonus":\#(answer?.bonus ?? 0),"correct":\#(answer?.isCorrect ?? false),"#
            + #""index":\#(result.index),"late":\#(answer?.late ?? false),"points":\#(answer?.points ?? 0),"rank":\#(result.rank),"#
            + #""score":\#(result.score),"streak":\#(result.streak),"type":"result","v":1}"#
    }

    static func you(_ standing: LiveGame.Standing?) -> [String: Any] {
        guard let standing else { return [:] }
        return ["rank": standing.rank, "score": standing.player.score, "correct": standing.player.correct]
    }

    /// Written by hand: one per answer, thousands a second in a full room.
    static func ack(question: Int) -> String { #"{"question":\#(question),"type":"ack","v":1}"# }
    static var kicked: String { text(["type": "kicked"]) }
}
