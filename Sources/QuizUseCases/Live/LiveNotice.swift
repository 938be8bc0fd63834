import Foundation
import QuizCore
import QuizStore

/// What one instance tells the others about a game (PostgreSQL NOTIFY on
/// `LiveNotifications.channel`). Small by design: nothing in it that a player must not see.
///
/// On the wire a notice is a JSON object `{"g": game id, "f": sender, "k": kind, …}` with the
/// fields below. Instances of an older and a newer version run side by side during an upgrade,
/// so this shape does not change: a new kind is one an older instance ignores.
enum LiveNotice: Equatable, Sendable {
    /// The owner stored a new state: read the game again.
    case state
    /// A player joined on some instance.
    case players
    /// A copy stored an answer to the open question.
    case answers
    /// A host's command taken by a copy, for the owner to run (`c`: its name; `p`, `l`, `s`: its value).
    case command(LiveGames.HostCommand)
    /// The host's socket opened or closed on a copy (`c`).
    case hostSocket(Bool)
    /// The owner's word on its host, for the players of copies (`c`).
    case host(Bool)
    /// How many answered the open question, for a host screen on a copy (`i`, `a`, `n`).
    case progress(index: Int, answered: Int, players: Int)
    /// A player the host kicked (`p`).
    case kicked(Int)
    /// The owner hid a word cloud's entry (`i`: the question, `w`: the entry's key).
    case hidden(index: Int, key: String)

    /// The notice as sent; nil when it would not fit in a notice (`LiveNotifications.maxPayloadBytes`).
    func payload(gameId: Int64, sender: String) -> String? {
        var object: [String: Any] = ["g": gameId, "f": sender]
        switch self {
        case .state: object["k"] = "state"
        case .players: object["k"] = "players"
        case .answers: object["k"] = "answers"
        case .hostSocket(let connected): (object["k"], object["c"]) = ("hostSocket", connected)
        case .host(let connected): (object["k"], object["c"]) = ("host", connected)
        case .kicked(let id): (object["k"], object["p"]) = ("kicked", id)
        case .hidden(let index, let key): (object["k"], object["i"], object["w"]) = ("hidden", index, key)
        case .progress(let index, let answered, let players): (object["k"], object["i"], object["a"], object["n"]) = ("progress", index, answered, players)
        case .command(let command):
            object["k"] = "command"
            switch command {
            case .start: object["c"] = "start"
            case .close: object["c"] = "close"
            case .next: object["c"] = "next"
            case .end: object["c"] = "end"
            case .kick(let id): (object["c"], object["p"]) = ("kick", id)
            case .lock(let locked): (object["c"], object["l"]) = ("lock", locked)
            case .hide(let question, let key): (object["c"], object["i"], object["w"]) = ("hide", question, key)
            case .settings(let settings):
                object["c"] = "settings"
                object["s"] = (try? JSONEncoder().encode(settings)).map { String(decoding: $0, as: UTF8.self) }
            }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object), data.count <= LiveNotifications.maxPayloadBytes else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// A notice as received: its game, its sender and what it says; nil for one that is not a
    /// notice this version knows (a kind it does not know, a field missing).
    static func read(_ text: String) -> (gameId: Int64, sender: String?, notice: LiveNotice)? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              let gameId = (object["g"] as? NSNumber)?.int64Value, let kind = object["k"] as? String else { return nil }
        let notice: LiveNotice
        switch kind {
        case "state": notice = .state
        case "players": notice = .players
        case "answers": notice = .answers
        case "command":
            guard let command = command(object) else { return nil }
            notice = .command(command)
        case "hostSocket":
            guard let connected = object["c"] as? Bool else { return nil }
            notice = .hostSocket(connected)
        case "host":
            guard let connected = object["c"] as? Bool else { return nil }
            notice = .host(connected)
        case "progress":
            guard let index = (object["i"] as? NSNumber)?.intValue, let answered = (object["a"] as? NSNumber)?.intValue,
                  let players = (object["n"] as? NSNumber)?.intValue else { return nil }
            notice = .progress(index: index, answered: answered, players: players)
        case "kicked":
            guard let id = (object["p"] as? NSNumber)?.intValue else { return nil }
            notice = .kicked(id)
        case "hidden":
            guard let index = (object["i"] as? NSNumber)?.intValue, let key = object["w"] as? String else { return nil }
            notice = .hidden(index: index, key: key)
        default:
            return nil
        }
        return (gameId, object["f"] as? String, notice)
    }

    private static func command(_ object: [String: Any]) -> LiveGames.HostCommand? {
        switch object["c"] as? String {
        case "start": .start
        case "close": .close
        case "next": .next
        case "end": .end
        case "kick": (object["p"] as? NSNumber).map { .kick($0.intValue) }
        case "lock": (object["l"] as? Bool).map { .lock($0) }
        case "hide":
            if let index = (object["i"] as? NSNumber)?.intValue, let key = object["w"] as? String { .hide(question: index, key: key) } else { nil }
        case "settings":
            (object["s"] as? String).flatMap { try? JSONDecoder().decode(LiveSettings.self, from: Data($0.utf8)) }.map { .settings($0) }
        default: nil
        }
    }
}
