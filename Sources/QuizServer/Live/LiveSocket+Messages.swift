import Foundation
import Logging
import NIOWebSocket
import QuizCore
import QuizLiveProtocol
import QuizText
import QuizUseCases

/// Per message: the use case it calls, and the refusal each failure is told as.
extension LiveSocket {
    func handle(_ text: String, session: Session) async {
        let connection = session.connection
        let message: LiveClientMessage
        do {
            message = try LiveMessages.read(text)
        } catch {
            connection.send(LiveMessages.error("bad-message", session.t(error.message), of: error.type))
            return
        }
        let type = message.kind.rawValue
        do {
            switch (message, session.role) {
            case (.host(let gameId), .none):
                try await host(gameId: gameId, session: session)
            case (.join(let pin, let nickname, let team), .none):
                let user = try await signedInUser(session.token)
                enter(try await games.join(pin: pin, nickname: nickname, user: user, team: team, address: session.address), session: session)
            case (.resume(let pin, let playerId, let secret), .none):
                enter(try await games.resume(pin: pin, playerId: playerId, secret: secret, address: session.address), session: session)
            case (.rejoin(let pin, let nickname, let code), .none):
                enter(try await games.rejoin(pin: pin, nickname: nickname, code: code, address: session.address), session: session)
            case (.answer(let question, let answer), .player(let gameId, let playerId)):
                _ = try await games.answer(LiveMessages.input(answer), question: question, playerId: playerId, gameId: gameId) { _ in
                    connection.send(LiveMessages.ack(question: question))
                }
            case (.host, _), (.join, _), (.resume, _), (.rejoin, _):
                throw Refusal("bad-message", "This socket already joined; open another to join again.", nil)
            case (.answer, .host):
                throw Refusal("not-now", "Hosts run the game and players answer.", nil)
            case (.answer, .none):
                throw Refusal("not-joined", "Join a game (or host one) first.", nil)
            // What is left are the host's commands.
            case (_, .host(let gameId, let userId)):
                guard let command = LiveMessages.command(message) else { return }
                try await games.command(command, gameId: gameId, userId: userId)
            case (_, .player):
                throw Refusal("not-now", "Hosts run the game and players answer.", nil)
            case (_, .none):
                throw Refusal("not-joined", "Join a game (or host one) first.", nil)
            }
        } catch let refusal as Refusal {
            connection.send(LiveMessages.error(refusal.code, session.t(refusal.message), of: refusal.type ?? type))
        } catch let failure as LiveGames.Failure {
            let (code, message) = Self.describe(failure)
            connection.send(LiveMessages.error(code, session.t(message), of: type))
            if failure == .game(.kicked) {
                connection.close()
            } else if failure.isGuess, session.greetingFailed() {
                // One socket may not go on trying PINs and secrets; a person retyping a PIN gets a new one.
                connection.close(.policyViolation)
            }
        } catch {
            logger.error("live message failed", metadata: ["error": "\(error)"])
            connection.send(LiveMessages.error("not-now", session.t("That did not work; try again."), of: type))
        }
    }

    /// A refusal of the socket's own (not the use case's): a code, a sentence, the type it answers.
    struct Refusal: Error {
        var code: String
        var message: String
        var type: String?
        init(_ code: String, _ message: String, _ type: String?) {
            self.code = code
            self.message = message
            self.type = type
        }
    }

    static func describe(_ failure: LiveGames.Failure) -> (String, String) {
        switch failure {
        case .unknownGame: ("unknown-game", "No game is running with that PIN. Check it with your host.")
        case .notHost: ("not-host", "Only the game's host can run it.")
        case .badRejoin: ("bad-rejoin", "That nickname and code do not match a player of this game.")
        case .notResumable: ("bad-rejoin", "This device is no longer a player of that game: it has ended, or the game goes on on the device that used your rejoin code. Join again to play.")
        case .rateLimited: ("rate-limited", "Too many tries from your network. Wait a minute and try again.")
        case .quizNotFound, .noPlayableQuestions, .badSettings(_), .tooManyGames: ("not-now", "That game cannot be set up.")
        case .game(let error):
            switch error {
            case .locked: ("locked", "The host has locked this game: no new players.")
            case .full: ("full", "This game is full: it has as many players as it can take.")
            case .nicknameTaken: ("nickname-taken", "Someone in this game already has that nickname. Pick another.")
            case .nicknameInvalid: ("nickname-invalid", "A nickname is 1 to 20 characters, with letters or signs that show (no invisible ones, no stacked accents).")
            case .kicked: ("kicked", "The host removed you from this game.")
            case .notOpen: ("not-open", "That question is not open.")
            case .alreadyAnswered: ("already-answered", "You already answered: your first answer counts.")
            case .badAnswer: ("bad-answer", "That answer does not fit this question.")
            case .notNow: ("not-now", "Not now: the game is not at that step.")
            case .ended: ("unknown-game", "This game has ended.")
            case .unknownPlayer: ("bad-rejoin", "You are not a player of this game.")
            case .badHide: ("bad-hide", "That word is not in the cloud, or too many are hidden already.")
            }
        }
    }
}
