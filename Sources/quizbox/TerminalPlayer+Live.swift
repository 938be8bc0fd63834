import Foundation
import QuizClient

/// A live game from the terminal: the host's screen runs it, this terminal is a player's phone.
extension TerminalPlayer {
    func joinLive(pin: String, nickname: String) async throws(QuizboxClient.Error) {
        let connection = try await client.joinLiveGame(pin: pin.trimmingCharacters(in: .whitespaces), nickname: nickname)
        defer { connection.close() }
        let joined = connection.joined
        terminal.line()
        terminal.line(Style.bold(joined.game.title) + " — joined as \(joined.player.nickname) (rejoin code \(joined.code ?? "none")).")
        terminal.line(Style.dim("Waiting for the host…"))
        // Keys are read while the game goes on: a question that closes ends the wait for its answer.
        let interruption = Interruption()
        terminal.interruption = interruption
        defer { terminal.interruption = nil }
        let (events, relay) = AsyncStream.makeStream(of: LiveEvent.self)
        let forward = Task {
            for await event in connection.events {
                relay.yield(event)
                switch event {
                case .reveal(let reveal): interruption.closeQuestion(reveal.index)
                case .ended, .kicked: interruption.closeQuestion(.max)
                default: break
                }
            }
            relay.finish()
            interruption.closeQuestion(.max)
        }
        defer { forward.cancel() }
        for await event in events {
            switch event {
            case .question(let question):
                interruption.clear()
                if interruption.isClosed(question.index) { continue }  // over before it could be shown
                terminal.line()
                terminal.line(Style.dim("Question \(question.index + 1) of \(question.count) · \(Int(question.secondsLeft.rounded())) s"
                                        + (question.points == "double" ? " · double points" : "")))
                let kind = Components.Schemas.QuestionKind(rawValue: question.kind) ?? .singleChoice
                guard let answer = readAnswer(text: question.text, kind: kind, choices: question.choices.map { ($0.id, $0.text) },
                                              unit: question.unit) else {
                    if interruption.isClosed(question.index) { continue }
                    return  // the player left
                }
                if let answer { connection.answer(question: question.index, with: answer) }
            case .ack: terminal.line(Style.dim("Answer in. Waiting for the others…"))
            case .reveal(let reveal):
                terminal.line("The answer: \(Style.bold(reveal.correct))  (\(reveal.answered) of \(reveal.players) answered)")
                if let explanation = reveal.explanation, !explanation.isEmpty { terminal.line(Style.dim(explanation)) }
            case .result(let result):
                if !result.answered {
                    terminal.line(Style.red("✗ No answer in time."))
                } else if result.correct {
                    terminal.line(Style.green("✓ Right! +\(result.points)" + (result.bonus > 0 ? " (streak bonus \(result.bonus))" : "")))
                } else {
                    terminal.line(Style.red("✗ Wrong."))
                }
                terminal.line("Score \(result.score) · #\(result.rank)")
            case .leaderboard(let board):
                terminal.line(Style.bold(board.final ? "Final standings" : "Leaderboard"))
                for standing in board.top { terminal.line("  #\(standing.rank)  \(standing.nickname)  \(standing.score)") }
            case .ended(let ended):
                terminal.line()
                terminal.line(Style.bold("Game over."))
                for standing in ended.podium { terminal.line("  #\(standing.rank)  \(standing.nickname)  \(standing.score)") }
                if let you = ended.you { terminal.line("You: #\(you.rank) with \(you.score) points, \(you.correct) right.") }
                return
            case .host(let connected, _):
                terminal.line(Style.dim(connected ? "The host is back." : "The host's screen went away; the game waits for it."))
            case .kicked:
                terminal.line(Style.red("The host removed you from the game."))
                return
            case .error(_, let message, _): terminal.line(Style.red(message))
            case .joined, .other: continue
            }
        }
        terminal.line("The connection to the game closed.")
    }
}
