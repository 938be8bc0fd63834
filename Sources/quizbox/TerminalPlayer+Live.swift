import Foundation
import QuizClient
import QuizLiveProtocol
import QuizMath
import QuizText

/// A live game from the terminal: the host's screen runs it, this terminal is a player's phone.
extension TerminalPlayer {
    func joinLive(pin: String, nickname: String) async throws(QuizboxClient.Error) {
        let connection = try await client.joinLiveGame(pin: pin.trimmingCharacters(in: .whitespaces), nickname: nickname)
        defer { connection.close() }
        let joined = connection.joined
        terminal.line()
        terminal.line(t("{title} — joined as {nickname} (rejoin code {code}).",
                        ["title": Style.bold(joined.game.title), "nickname": joined.player.nickname, "code": joined.code ?? t("none")]))
        terminal.line(Style.dim(t("Waiting for the host…")))
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
                terminal.line(Style.dim(t("Question {number} of {total} · {seconds} s", [
                    "number": String(question.index + 1), "total": String(question.count), "seconds": String(Int(question.secondsLeft.rounded())),
                ]) + (question.points == .double ? t(" · double points") : "")))
                let kind = Components.Schemas.QuestionKind(rawValue: question.kind.rawValue) ?? .singleChoice
                let read = readLiveParts(question)
                    ?? readAnswer(text: MathText.plainText(question.text), kind: kind,
                                  choices: question.choices.map { ($0.id, MathText.plainText($0.text)) }, unit: question.unit)
                guard let answer = read else {
                    if interruption.isClosed(question.index) { continue }
                    return  // the player left
                }
                if let answer { connection.answer(question: question.index, with: answer) }
            case .ack: terminal.line(Style.dim(t("Answer in. Waiting for the others…")))
            case .reveal(let reveal):
                terminal.line(t("The answer: {answer}  ({answered} of {players} answered)", [
                    "answer": Style.bold(answerText(reveal.correct)), "answered": String(reveal.answered), "players": String(reveal.players),
                ]))
                if let explanation = reveal.explanation, !explanation.isEmpty { terminal.line(Style.dim(MathText.plainText(explanation))) }
            case .result(let result):
                if !result.answered {
                    terminal.line(Style.red(t("✗ No answer in time.")))
                } else if let credit = result.credit, !result.late {
                    terminal.line(t("Partly right ({percent} %). +{points}", ["percent": String(credit), "points": String(result.points)]))
                } else if result.correct {
                    terminal.line(Style.green(t("✓ Right! +{points}", ["points": String(result.points)])
                                               + (result.bonus > 0 ? t(" (streak bonus {bonus})", ["bonus": String(result.bonus)]) : "")))
                } else {
                    terminal.line(Style.red(t("✗ Wrong.")))
                }
                terminal.line(t("Score {score} · #{rank}", ["score": String(result.score), "rank": String(result.rank)]))
            case .leaderboard(let board):
                terminal.line(Style.bold(board.final ? t("Final standings") : t("Leaderboard")))
                for standing in board.top { terminal.line("  #\(standing.rank)  \(standing.nickname)  \(standing.score)") }
            case .ended(let ended):
                terminal.line()
                terminal.line(Style.bold(t("Game over.")))
                for standing in ended.podium { terminal.line("  #\(standing.rank)  \(standing.nickname)  \(standing.score)") }
                if let you = ended.you, let rank = you.rank, let score = you.score, let correct = you.correct {
                    terminal.line(t("You: #{rank} with {score} points, {correct} right.",
                                    ["rank": String(rank), "score": String(score), "correct": String(correct)]))
                }
                return
            case .host(let connected, _):
                terminal.line(Style.dim(connected ? t("The host is back.") : t("The host's screen went away; the game waits for it.")))
            case .kicked:
                terminal.line(Style.red(t("The host removed you from the game.")))
                return
            case .error(_, let message, _): terminal.line(Style.red(t(message)))
            case .joined, .cloud, .other: continue
            }
        }
        terminal.line(t("The connection to the game closed."))
    }
}
