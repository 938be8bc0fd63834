import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

extension APIHandler {
    func listGameQuestions(_ input: Operations.ListGameQuestions.Input) async throws -> Operations.ListGameQuestions.Output {
        let questions = try await useCases.nameAllGames.choices().map {
            Components.Schemas.GameQuestion(id: $0.id, text: $0.text, topic: $0.topicName, itemCount: $0.itemCount, timeLimitSeconds: $0.timeLimitSeconds)
        }
        return .ok(.init(body: .json(.init(questions: questions))))
    }

    func startGame(_ input: Operations.StartGame.Input) async throws -> Operations.StartGame.Output {
        let user = try await requireUser()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        do {
            return .created(.init(body: .json(.init(try await useCases.nameAllGames.start(questionId: body.questionId, userId: user.id)))))
        } catch NameAllGames.Failure.questionNotFound {
            throw APIError(.notFound, "not_found", "There is no name-them-all question \(body.questionId).", field: "questionId")
        } catch let failure as NameAllGames.Failure {
            throw APIError(failure)
        }
    }

    func getGame(_ input: Operations.GetGame.Input) async throws -> Operations.GetGame.Output {
        let user = try await requireUser()
        do {
            return .ok(.init(body: .json(.init(try await useCases.nameAllGames.game(id: input.path.gameId, userId: user.id)))))
        } catch let failure as NameAllGames.Failure {
            throw APIError(failure)
        }
    }

    /// Never routed: `GuessRoute` serves this operation and the generated route is left out of the
    /// router (`GeneratedRoutes`). `APIProtocol` requires the method; there is no second copy here.
    func guess(_ input: Operations.Guess.Input) async throws -> Operations.Guess.Output {
        throw APIError(.internalServerError, "not_routed", "Guesses are served by their own route.")
    }

    func giveUp(_ input: Operations.GiveUp.Input) async throws -> Operations.GiveUp.Output {
        let user = try await requireUser()
        do {
            return .ok(.init(body: .json(.init(try await useCases.nameAllGames.giveUp(gameId: input.path.gameId, userId: user.id)))))
        } catch let failure as NameAllGames.Failure {
            throw APIError(failure)
        }
    }
}

extension Components.Schemas.Game {
    init(_ played: NameAllGames.Played) {
        let game = played.game
        let result = played.result
        var endReason: EndReasonPayload?
        if case .finished(let reason) = played.state { endReason = .init(rawValue: reason.rawValue) }
        self.init(
            id: played.id, questionId: game.question.id ?? 0, text: game.question.text, itemCount: game.items.count,
            startedAt: game.startedAt, deadline: game.deadline, state: endReason == nil ? .playing : .finished,
            endReason: endReason, found: result.found.map { .init(index: $0.index, answer: $0.answer) },
            // Missed items are answers: only once the game is over.
            missed: endReason == nil ? nil : result.missed.map { .init(index: $0.index, answer: $0.answer) },
            secondsUsed: result.secondsUsed, points: result.points
        )
    }
}
