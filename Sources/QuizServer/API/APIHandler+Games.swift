import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

extension APIHandler {
    func listGameQuestions(_ input: Operations.ListGameQuestions.Input) async throws -> Operations.ListGameQuestions.Output {
        let questions = try await store.nameAllQuestions().compactMap { entry -> Components.Schemas.GameQuestion? in
            guard case .nameAll(let items, let limit, _) = entry.question.body, let id = entry.question.id else { return nil }
            return .init(id: id, text: entry.question.text, topic: entry.topicName, itemCount: items.count,
                         timeLimitSeconds: limit > 0 ? limit : NameAllGame.defaultTimeLimitSeconds)
        }
        return .ok(.init(body: .json(.init(questions: questions))))
    }

    func startGame(_ input: Operations.StartGame.Input) async throws -> Operations.StartGame.Output {
        let user = try await requireUser()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        do {
            let (id, game) = try await playing.startGame(userId: user.id, questionId: body.questionId)
            return .created(.init(body: .json(.init(id: id, game: game, at: time.now()))))
        } catch Playing.PlayError.notFound {
            throw APIError(.notFound, "not_found", "There is no name-them-all question \(body.questionId).", field: "questionId")
        }
    }

    func getGame(_ input: Operations.GetGame.Input) async throws -> Operations.GetGame.Output {
        let user = try await requireUser()
        let game = try await gameCall { try await playing.game(id: input.path.gameId, userId: user.id) }
        return .ok(.init(body: .json(.init(id: input.path.gameId, game: game, at: time.now()))))
    }

    func guess(_ input: Operations.Guess.Input) async throws -> Operations.Guess.Output {
        let user = try await requireUser()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let outcome = try await GuessOutcome.outcome(playing, gameId: input.path.gameId, userId: user.id, text: body.text)
        return .ok(.init(body: .json(.init(
            verdict: .init(rawValue: outcome.verdict) ?? .notAnItem, item: outcome.item.map { .init(index: $0.index, answer: $0.answer) },
            state: outcome.finished ? .finished : .playing, foundCount: outcome.foundCount, itemCount: outcome.itemCount
        ))))
    }

    func giveUp(_ input: Operations.GiveUp.Input) async throws -> Operations.GiveUp.Output {
        let user = try await requireUser()
        let game = try await gameCall { try await playing.giveUp(id: input.path.gameId, userId: user.id) }
        return .ok(.init(body: .json(.init(id: input.path.gameId, game: game, at: time.now()))))
    }

    private func gameCall<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch Playing.PlayError.notFound {
            throw APIError.notFound("game")
        } catch Playing.PlayError.tooManyGuesses {
            throw APIError(.tooManyRequests, "too_many_guesses", Playing.tooManyGuesses)
        }
    }
}

extension Components.Schemas.Game {
    init(id: Int64, game: NameAllGame, at now: Date) {
        let result = game.result(at: now)
        var endReason: EndReasonPayload?
        if case .finished(let reason) = game.state(at: now) { endReason = .init(rawValue: reason.rawValue) }
        self.init(
            id: id, questionId: game.question.id ?? 0, text: game.question.text, itemCount: game.items.count,
            startedAt: game.startedAt, deadline: game.deadline, state: endReason == nil ? .playing : .finished,
            endReason: endReason, found: result.found.map { .init(index: $0.index, answer: $0.answer) },
            // Missed items are answers: only once the game is over.
            missed: endReason == nil ? nil : result.missed.map { .init(index: $0.index, answer: $0.answer) },
            secondsUsed: result.secondsUsed, points: result.points
        )
    }
}
