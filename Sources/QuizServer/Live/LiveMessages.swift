import Foundation
import QuizCore
import QuizLiveProtocol
import QuizUseCases

/// The live protocol (`QuizLiveProtocol`, docs/live-protocol.md) at the server's edge: a client's
/// message read with the server's limits and turned into a use case's input here, the use case's
/// events written as messages in `LiveMessages+Events.swift`.
enum LiveMessages {
    /// The largest message a client may send.
    static let maxBytes = LiveProtocol.maxMessageBytes
    /// Players listed in a host's roster (`count` says how many there are).
    static let rosterSize = 500
    struct BadMessage: Error {
        var type: String?
        var message: String
    }

    /// A client's message, with the server's limits on an answer.
    static func read(_ text: String) throws(BadMessage) -> LiveClientMessage {
        do {
            return try LiveClientMessage.read(text, accepting: fits)
        } catch {
            throw BadMessage(type: error.type, message: describe(error))
        }
    }

    /// A host's command as the use case takes it; nil for greetings and answers.
    static func command(_ message: LiveClientMessage) -> LiveGames.HostCommand? {
        switch message {
        case .settings(let settings): .settings(Self.settings(settings))
        case .start: .start
        case .close: .close
        case .next: .next
        case .end: .end
        case .kick(let player): .kick(player)
        case .lock(let locked): .lock(locked)
        case .hide(let question, let key): .hide(question: question, key: key)
        case .host, .join, .resume, .rejoin, .answer: nil
        }
    }

    /// The sentence a client is told (translated at the socket).
    static func describe(_ error: LiveClientMessage.ReadError) -> String {
        switch error {
        case .tooLarge: "Messages are at most 4 KiB."
        case .malformed: "A message is one JSON object with the fields of its type, each of its type."
        case .version: "This server speaks version 1 (\"v\": 1)."
        case .missing(let field, _): "\"\(field)\" is missing."
        case .badAnswer: "\"answer\" is one of {choice}, {choices}, {value}, {text}, {number}, {order}, {matches} or {gaps}."
        case .unknownType: "Unknown message type."
        }
    }

    /// An answer the use cases take (`AnswerInput` holds every limit): a message whose answer it
    /// refuses is a bad message, as it was never one of the answers the protocol describes.
    static func fits(_ answer: LiveClientMessage.Answer) -> Bool {
        (try? input(answer).answer()) != nil
    }

    /// A number is taken as the text a quiz keeps: the digits given, or a typed number written
    /// plainly, which the question reads with its unit.
    static func input(_ answer: LiveClientMessage.Answer) -> AnswerInput {
        switch answer {
        case .choice(let id): .choice(id)
        case .choices(let ids): .choices(ids)
        case .value(let value): .bool(value)
        case .text(let text): .text(text)
        case .number(.digits(let digits)): AnswerInput(number: .typed(digits))
        case .number(.value(let value)): AnswerInput(number: .typed(NumberFormatting.plain(value)))
        case .order(let ids): AnswerInput(order: ids)
        case .matches(let matches): AnswerInput(matches: matches)
        case .gaps(let gaps):
            AnswerInput(gaps: gaps.mapValues { gap in
                switch gap {
                case .choice(let id): .choice(id)
                case .text(let text): .text(text)
                }
            })
        }
    }

    /// A host's settings: a field left out keeps its default.
    static func settings(_ given: LiveProtocol.Settings) -> LiveSettings {
        var settings = LiveSettings()
        if let seconds = given.secondsPerQuestion { settings.secondsPerQuestion = seconds }
        if let points = given.points { settings.points = points.mapValues { LiveSettings.Points(rawValue: $0.rawValue) ?? .standard } }
        if let streakBonus = given.streakBonus { settings.streakBonus = streakBonus }
        if let shuffleAnswers = given.shuffleAnswers { settings.shuffleAnswers = shuffleAnswers }
        if let leaderboardAfterEach = given.leaderboardAfterEach { settings.leaderboardAfterEach = leaderboardAfterEach }
        if let autoAdvance = given.autoAdvance { settings.autoAdvance = autoAdvance }
        if let teams = given.teams { settings.teams = teams }
        if let soundOnPhones = given.soundOnPhones { settings.soundOnPhones = soundOnPhones }
        return settings
    }
}
