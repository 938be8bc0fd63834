import Foundation

/// "Name them all": name every item of a list before the clock runs out.
extension QuizboxClient {
    public typealias GameQuestion = Components.Schemas.GameQuestion
    public typealias Game = Components.Schemas.Game
    public typealias GuessResult = Components.Schemas.GuessResult

    public func gameQuestions() async throws(Error) -> [GameQuestion] {
        try await perform {
            switch try await client.listGameQuestions() {
            case .ok(let ok): return try ok.body.json.questions
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Starts a game; its clock starts now, on the server.
    public func startGame(questionId: Int64) async throws(Error) -> Game {
        try await perform {
            switch try await client.startGame(body: .json(.init(questionId: questionId))) {
            case .created(let created): return try created.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// The game; once it has ended, with the items that were missed.
    public func game(id: Int64) async throws(Error) -> Game {
        try await perform {
            switch try await client.getGame(path: .init(gameId: id)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func guess(gameId: Int64, text: String) async throws(Error) -> GuessResult {
        try await perform {
            switch try await client.guess(path: .init(gameId: gameId), body: .json(.init(text: text))) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Ends the game now; the result lists what was missed.
    public func giveUp(gameId: Int64) async throws(Error) -> Game {
        try await perform {
            switch try await client.giveUp(path: .init(gameId: gameId)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }
}
