import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

/// Name-them-all games (`NameAllGames`): anyone lists the questions; a signed-in caller plays.
struct GamesAPI: Sendable {
    let games: NameAllGames

    func listGameQuestions(_ input: Operations.ListGameQuestions.Input) async throws -> Operations.ListGameQuestions.Output {
        let questions = try await games.choices().map {
            Components.Schemas.GameQuestion(id: $0.id, text: $0.text, topic: $0.topicName, itemCount: $0.itemCount, timeLimitSeconds: $0.timeLimitSeconds)
        }
        return .ok(.init(body: .json(.init(questions: questions))))
    }

    func startGame(_ input: Operations.StartGame.Input, by caller: SignedInCaller) async throws -> Operations.StartGame.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        do {
            return .created(.init(body: .json(.init(try await games.start(questionId: body.questionId, userId: caller.user.id)))))
        } catch NameAllGames.Failure.questionNotFound {
            throw APIError(.notFound, "not_found", "There is no name-them-all question \(body.questionId).", field: "questionId")
        } catch let failure as NameAllGames.Failure {
            throw APIError(failure)
        }
    }

    func getGame(_ input: Operations.GetGame.Input, by caller: SignedInCaller) async throws -> Operations.GetGame.Output {
        do {
            return .ok(.init(body: .json(.init(try await games.game(id: input.path.gameId, userId: caller.user.id)))))
        } catch let failure as NameAllGames.Failure {
            throw APIError(failure)
        }
    }

    /// Served by `GuessRoute`, which writes its answer by hand, so the router holds the generated
    /// route of this operation out (`GeneratedRoutes.servedElsewhere`). This is the same guess,
    /// through the same use case call and conversion, answered in the generated types.
    func guess(_ input: Operations.Guess.Input, by caller: SignedInCaller) async throws -> Operations.Guess.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let guessed = try await GuessRoute.guess(body.text, gameId: input.path.gameId, by: caller, in: games)
        return .ok(.init(body: .json(.init(GuessOutcome(guessed)))))
    }

    func giveUp(_ input: Operations.GiveUp.Input, by caller: SignedInCaller) async throws -> Operations.GiveUp.Output {
        do {
            return .ok(.init(body: .json(.init(try await games.giveUp(gameId: input.path.gameId, userId: caller.user.id)))))
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
