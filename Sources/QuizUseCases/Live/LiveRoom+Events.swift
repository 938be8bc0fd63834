import Foundation
import QuizCore
import QuizStore
import Synchronization

/// What a room's changes show: the events a move of its game sends, the state to store, and the
/// events that bring a (re)connected socket up to date.
extension LiveRoom {
    /// What decides which events a change sends: small, so taking it never copies the players.
    struct Marker: Equatable {
        var phase: LivePhase
        var index: Int
        var locked: Bool
        var settings: LiveSettings
        init(_ game: LiveGame) {
            (phase, index, locked, settings) = (game.phase, game.index, game.locked, game.settings)
        }
    }

    func catchUp(_ audience: LiveAudience) -> [LiveEvent] {
        state.withLock { state in
            let game = state.game
            var events: [LiveEvent] = []
            if audience == .host { events.append(.players(game.players, locked: game.locked)) }
            if !state.hostConnected, audience != .host, game.phase != .ended {
                state.hostAwayTold = true
                events.append(.host(connected: false, endsAt: state.hostAwaySince.map { $0.addingTimeInterval(LiveGames.hostTimeout) }))
            }
            switch game.phase {
            case .lobby: break
            case .question:
                if let question = game.question {
                    events.append(.question(view(game, question), shuffle: game.settings.shuffleAnswers))
                }
                if audience == .host {
                    events.append(.progress(index: game.index, answered: game.answers.count, players: game.activeCount))
                    if game.question?.kind == .wordCloud { events.append(.cloud(LiveCloud(game))) }
                }
            case .reveal:
                // The host's screen titles the reveal with the question, which the reveal does not
                // carry: a host who reloads gets the question (no rightness in it) first.
                if audience == .host, let question = game.question {
                    events.append(.question(view(game, question), shuffle: false))
                }
                events.append(.reveal(reveal(game)))
                if case .player(let id) = audience, let result = result(game, playerId: id) { events.append(.result(result)) }
            case .leaderboard:
                events.append(leaderboard(game, final: false))
                if case .player(let id) = audience, let result = result(game, playerId: id) { events.append(.result(result)) }
            case .ended:
                events.append(ended(game))
            }
            return events
        }
    }

    // MARK: Events

    /// What a move from `before` to `after` shows, and the state to store.
    func change(from before: Marker, to after: LiveGame, now: Date?) -> Change {
        var change = Change()
        if before.phase != after.phase || before.index != after.index {
            switch after.phase {
            case .lobby: break
            case .question:
                if let question = after.question {
                    change.events.append((.question(view(after, question), shuffle: after.settings.shuffleAnswers),
                                          .everyone))
                }
            case .reveal:
                change.events.append((.reveal(reveal(after)), .everyone))
                let graded = after.question?.kind.hasRightAnswer ?? true
                let places = Self.places(after.standings())
                for player in after.activePlayers {
                    let place = places[player.id]
                    change.events.append((.result(LivePlayerResult(index: after.index, answer: after.answers[player.id], score: player.score,
                                                                   rank: place?.rank ?? 0, streak: player.streak, behind: place?.behind,
                                                                   graded: graded)),
                                          .player(player.id)))
                }
            case .leaderboard:
                change.events.append((leaderboard(after, final: false), .everyone))
            case .ended:
                change.events.append((ended(after), .everyone))
                change.ended = true
            }
        }
        if before != Marker(after) || change.ended {
            change.record = record(after, endedAt: change.ended ? (now ?? Date()) : nil)
        }
        return change
    }

    /// The game's state as stored.
    func record() -> LiveGameRecord { state.withLock { record($0.game, endedAt: nil) } }

    private func record(_ game: LiveGame, endedAt: Date?) -> LiveGameRecord {
        var record = LiveGameRecord(id: game.id, pin: game.pin, quizId: game.quizId, hostUserId: game.hostUserId, title: game.title,
                                    questionIds: questionIds, settings: game.settings, phase: game.phase, index: game.index,
                                    openedAt: game.openedAt, deadline: game.deadline, advanceAt: game.advanceAt, locked: game.locked,
                                    createdAt: createdAt, endedAt: endedAt)
        record.hiddenWords = game.cloud.hidden.sorted()
        return record
    }

    private func shownIds(_ game: LiveGame) -> ChoiceIds? {
        choiceIds.indices.contains(game.index) ? choiceIds[game.index] : nil
    }

    private func view(_ game: LiveGame, _ question: Question) -> LiveQuestionView {
        LiveQuestionView(game: game, question: question, ids: shownIds(game) ?? ChoiceIds(publicIds: [], seed: 0))
    }

    /// In the public ids the question was shown under.
    private func reveal(_ game: LiveGame) -> LiveReveal {
        let question = game.question
        let ids = shownIds(game)
        func shown(_ id: Int) -> Int { ids?.publicId(id) ?? id }
        var reveal = LiveReveal(index: game.index, correct: question?.correctAnswer.display ?? "",
                                correctChoices: question?.body.choices.filter(\.isCorrect).map { shown($0.id) } ?? [],
                                explanation: question?.explanation,
                                distribution: game.distribution().map { tally in
                                    var shownTally = tally
                                    shownTally.choice = tally.choice.map(shown)
                                    return shownTally
                                },
                                answered: game.answers.count, players: game.activeCount)
        switch question?.body {
        case .ordering(let ordering)?:
            // Stored ids are the right places: 1…n under the ids the items were shown with.
            reveal.order = ordering.items.enumerated().map { LiveQuestionView.Choice(id: shown($0.offset + 1), text: $0.element) }
        case .matching(let matching)?:
            reveal.pairs = matching.rightAnswerIds.enumerated().map { (prompt: $0.offset + 1, answer: shown($0.element)) }
        case .estimate(let estimate)?:
            reveal.estimate = (estimate.value, game.closest())
        case .wordCloud?:
            reveal.cloud = LiveCloud(game)
        default: break
        }
        return reveal
    }

    private func result(_ game: LiveGame, playerId: Int) -> LivePlayerResult? {
        guard let player = game.player(playerId), !player.kicked else { return nil }
        let place = Self.places(game.standings())[playerId]
        return LivePlayerResult(index: game.index, answer: game.answers[playerId], score: player.score, rank: place?.rank ?? 0,
                                streak: player.streak, behind: place?.behind, graded: game.question?.kind.hasRightAnswer ?? true)
    }

    /// Each player's rank and whom they are behind: the last-listed player of the next higher
    /// score (standings are best first), in one pass over thousands of players.
    static func places(_ standings: [LiveGame.Standing]) -> [Int: (rank: Int, behind: LivePlayerResult.Behind?)] {
        var places: [Int: (rank: Int, behind: LivePlayerResult.Behind?)] = [:]
        places.reserveCapacity(standings.count)
        var ahead: LiveGame.Standing?
        for (position, standing) in standings.enumerated() {
            if position > 0, standings[position - 1].player.score != standing.player.score { ahead = standings[position - 1] }
            let behind = ahead.map { LivePlayerResult.Behind(nickname: $0.player.nickname, points: $0.player.score - standing.player.score) }
            places[standing.player.id] = (standing.rank, behind)
        }
        return places
    }

    private func leaderboard(_ game: LiveGame, final: Bool) -> LiveEvent {
        .leaderboard(top: Array(game.standings().prefix(5)), teams: game.teamScores(), final: final)
    }

    private func ended(_ game: LiveGame) -> LiveEvent {
        let standings = game.standings()
        return .ended(podium: Array(standings.prefix(3)), standings: standings, teams: game.teamScores())
    }
}
