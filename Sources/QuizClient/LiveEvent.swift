import Foundation
@_exported import QuizLiveProtocol

/// A message of the live protocol (`QuizLiveProtocol`, docs/live-protocol.md, version 1) from the
/// server to a player, as an app handles it. Messages only a host gets, and types newer than this
/// client, are `other`.
public enum LiveEvent: Sendable, Equatable {
    case joined(Joined)
    case question(Question)
    /// The answer to question `index` is stored; the first answer counts.
    case ack(question: Int)
    case reveal(Reveal)
    /// A word cloud after the host hid an entry: show these words in place of the reveal's.
    case cloud(Cloud)
    case result(Result)
    case leaderboard(Leaderboard)
    case ended(Ended)
    /// The host's screen went away (or came back); without it the game ends at `endsAt`.
    case host(connected: Bool, endsAt: Date?)
    /// The host removed this player; the server closes the socket.
    case kicked
    /// A refusal: `code` is stable (`not-open`, `already-answered`, `bad-answer`…), `message` is a sentence to show.
    case error(code: String, message: String, of: String?)
    case other(type: String)

    public typealias Player = LiveServerMessage.Player
    public typealias Game = LiveServerMessage.Game
    /// With the player's id, `secret` is what ``QuizboxClient/resumeLiveGame(pin:player:secret:)`` needs after a lost connection.
    public typealias Joined = LiveServerMessage.Joined
    public typealias Choice = LiveServerMessage.Choice
    public typealias Question = LiveServerMessage.Question
    public typealias Tally = LiveServerMessage.Tally
    public typealias Reveal = LiveServerMessage.Reveal
    public typealias Result = LiveServerMessage.Result
    public typealias Standing = LiveServerMessage.Standing
    public typealias TeamScore = LiveServerMessage.TeamScore
    public typealias Leaderboard = LiveServerMessage.Leaderboard
    public typealias Ended = LiveServerMessage.Ended
    /// An estimate's slider; a matching's right pair; an estimate's reveal and closest players.
    public typealias Range = LiveServerMessage.Range
    public typealias Pair = LiveServerMessage.Pair
    public typealias EstimateReveal = LiveServerMessage.EstimateReveal
    public typealias Closest = LiveServerMessage.Closest
    /// A word cloud's counted words.
    public typealias Cloud = LiveServerMessage.Cloud
    public typealias Word = LiveServerMessage.Word

    /// Reads one text frame; a frame that is not a message of this protocol is `nil`.
    public init?(text: String) {
        let message: LiveServerMessage
        do {
            message = try LiveServerMessage(text: text)
        } catch let unknown as LiveProtocol.UnknownType {
            self = .other(type: unknown.type)
            return
        } catch {
            return nil
        }
        self.init(message)
    }

    /// What a player makes of a message: `host`'s `endsAt` on this device's clock.
    public init(_ message: LiveServerMessage, now: Date = Date()) {
        switch message {
        case .joined(let joined): self = .joined(joined)
        case .question(let question): self = .question(question)
        case .ack(let ack): self = .ack(question: ack.question)
        case .reveal(let reveal): self = .reveal(reveal)
        case .cloud(let cloud): self = .cloud(cloud)
        case .result(let result): self = .result(result)
        case .leaderboard(let leaderboard): self = .leaderboard(leaderboard)
        case .ended(let ended): self = .ended(ended)
        case .host(let host):
            // `endsAt` counts on the server's clock: shift it by the difference to this one.
            let endsAt = host.endsAt.map { endsAt in now.addingTimeInterval(Double(endsAt - (host.now ?? endsAt)) / 1000) }
            self = .host(connected: host.connected, endsAt: endsAt)
        case .kicked: self = .kicked
        case .error(let failure): self = .error(code: failure.code, message: failure.message, of: failure.of)
        case .hosting, .players, .progress: self = .other(type: message.kind.rawValue)
        }
    }
}
