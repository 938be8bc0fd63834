import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

/// A host's live games over the API (`LiveGames`; the games themselves are played on the socket):
/// signed-in callers only, each seeing the games they host.
struct LiveAPI: Sendable {
    let liveGames: LiveGames

    func listLiveGames(_ input: Operations.ListLiveGames.Input, by caller: SignedInCaller) async throws -> Operations.ListLiveGames.Output {
        let games = try await liveGames.hostedGames(userId: caller.user.id).map { summary in
            Components.Schemas.LiveGame(
                id: summary.id, pin: summary.pin, title: summary.title, phase: .init(summary.phase),
                running: summary.endedAt == nil && liveGames.isRunning(gameId: summary.id), playerCount: summary.playerCount,
                createdAt: summary.createdAt, endedAt: summary.endedAt, joinPath: "/join/\(summary.pin)")
        }
        return .ok(.init(body: .json(.init(games: games))))
    }

    func createLiveGame(_ input: Operations.CreateLiveGame.Input, by caller: SignedInCaller) async throws -> Operations.CreateLiveGame.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        var settings = LiveSettings()
        if let seconds = body.secondsPerQuestion { settings.secondsPerQuestion = seconds }
        for (key, points) in body.points?.additionalProperties ?? [:] {
            guard let index = Int(key), let value = LiveSettings.Points(rawValue: points.rawValue) else {
                throw APIError(.unprocessableContent, "bad_settings", "points are keyed by question index: 0, 1, 2…", field: "points")
            }
            settings.points[index] = value
        }
        if let bonus = body.streakBonus { settings.streakBonus = bonus }
        if let shuffle = body.shuffleAnswers { settings.shuffleAnswers = shuffle }
        if let board = body.leaderboardAfterEach { settings.leaderboardAfterEach = board }
        if let auto = body.autoAdvance { settings.autoAdvance = auto }
        if let teams = body.teams { settings.teams = teams }
        if let soundOnPhones = body.soundOnPhones { settings.soundOnPhones = soundOnPhones }
        do {
            let record = try await liveGames.host(quizId: body.quizId, user: caller.user, settings: settings)
            return .created(.init(body: .json(.init(record, players: 0, running: true))))
        } catch {
            throw APIError(error, quizId: body.quizId, gamesPerHost: liveGames.limits.gamesPerHost)
        }
    }

    func getLiveGame(_ input: Operations.GetLiveGame.Input, by caller: SignedInCaller) async throws -> Operations.GetLiveGame.Output {
        do {
            let (record, players) = try await liveGames.hosted(gameId: input.path.liveGameId, userId: caller.user.id)
            let running = record.endedAt == nil && liveGames.isRunning(gameId: record.id)
            // A running game's phase is the one in memory, a step ahead of the stored one at most.
            var current = record
            if running, let game = try? liveGames.hostView(gameId: record.id, userId: caller.user.id) { current.phase = game.phase }
            return .ok(.init(body: .json(.init(current, players: players, running: running))))
        } catch {
            throw APIError(error, quizId: nil)
        }
    }

    func getLiveGameResults(_ input: Operations.GetLiveGameResults.Input, by caller: SignedInCaller) async throws -> Operations.GetLiveGameResults.Output {
        let results: LiveGames.Results
        do {
            results = try await liveGames.results(gameId: input.path.liveGameId, userId: caller.user.id)
        } catch {
            throw APIError(error, quizId: nil)
        }
        let players = results.grid.map { standing, records in
            Components.Schemas.LivePlayerResults(
                rank: standing.rank, nickname: standing.player.nickname, team: standing.player.team, score: standing.player.score,
                correct: standing.player.correct,
                answers: records.enumerated().map { index, record in
                    guard let record else { return .init(question: index + 1, answered: false) }
                    let answer = record.answer
                    return .init(question: index + 1, answered: true, answer: results.words(record),
                                 correct: answer.isCorrect, late: answer.late, points: answer.points, bonus: answer.bonus,
                                 milliseconds: answer.milliseconds)
                })
        }
        return .ok(.init(body: .json(.init(
            id: results.game.id, title: results.game.title, createdAt: results.game.createdAt,
            questions: results.questions.enumerated().map { .init(position: $0.offset + 1, text: $0.element.text) },
            players: players))))
    }
}

extension Components.Schemas.LiveGame {
    init(_ record: LiveGameRecord, players: Int, running: Bool) {
        self.init(id: record.id, pin: record.pin, title: record.title, phase: .init(record.phase), running: running, playerCount: players,
                  createdAt: record.createdAt, endedAt: record.endedAt, joinPath: "/join/\(record.pin)")
    }
}

extension Components.Schemas.LivePhase {
    init(_ phase: LivePhase) {
        self = Self(rawValue: phase.rawValue) ?? .ended
    }
}

extension APIError {
    init(_ failure: LiveGames.Failure, quizId: Int64?, gamesPerHost: Int = 0) {
        switch failure {
        case .quizNotFound:
            self.init(.notFound, "not_found", "No quiz \(quizId.map(String.init) ?? "") that you may host.", field: "quizId")
        case .noPlayableQuestions:
            self.init(.unprocessableContent, "no_questions", "This quiz has no question a live game can play.", field: "quizId")
        case .badSettings(let problems):
            let broken: [(field: String, rule: String)] = problems.map {
                switch $0 {
                case .seconds: ("secondsPerQuestion", "secondsPerQuestion is 5 to 240")
                case .teams: ("teams", "teams is 0 or 2 to 6")
                case .pointsIndex: ("points", "points name questions of the quiz")
                }
            }
            self.init(.unprocessableContent, "bad_settings", broken.map(\.rule).joined(separator: "; ") + ".",
                      field: broken.count == 1 ? broken[0].field : nil)
        case .tooManyGames:
            self.init(.conflict, "too_many_games", "You run \(gamesPerHost) live games already, as many as one host may: end one first.")
        case .unknownGame, .notHost:
            self = .notFound("live game of yours")
        case .rateLimited:
            self.init(.tooManyRequests, "rate_limited", "Too many tries: wait a minute.")
        case .badRejoin, .notResumable, .game:
            self.init(.serviceUnavailable, "unavailable", "That could not be done just now; try again.")
        }
    }
}
