import Foundation
import Logging
import QuizCore
import QuizStore
import Synchronization

extension LiveGames {
    /// One running game: its rules' state behind a lock held only for in-memory work (never across
    /// a write), and what it takes to let players back in.
    final class Room: Sendable {
        let id: Int64
        let pin: String
        let hostUserId: Int64
        let questionIds: [Int64]
        /// Per question, the public ids its choices are shown under: worked out once per game, so
        /// no message to a player costs an HMAC.
        let choiceIds: [ChoiceIds]
        let createdAt: Date
        let stateWriter: LatestStateWriter
        private let state: Mutex<State>
        /// Whether this instance runs the game's clock and scoring: always on one instance; across
        /// instances, while it holds the game's lease (the others keep a copy read from the database).
        let owned: Atomic<Bool>
        /// Across instances: until when (`Cluster.uptime`, milliseconds) this instance may act as
        /// the owner on its last renewal of the lease. Past it, another instance may have taken the
        /// game, so this one stops running it until a renewal comes through.
        let leaseUntil: Atomic<Int64>
        /// Whether the host has a socket open on this instance.
        let hostHere = Atomic<Bool>(false)

        private struct State {
            var game: LiveGame
            /// By player id.
            var secretHashes: [Int: String] = [:]
            var codeHashes: [Int: String] = [:]
            var hostConnected = false
            var hostAwaySince: Date?
        }

        /// What one change did: the events to send, the state to store (when the phase, the
        /// question, the lock or the settings moved) and whether the game is over.
        struct Change: Sendable {
            var events: [(LiveEvent, LiveAudience)] = []
            var record: LiveGameRecord?
            var ended = false
        }

        /// `cluster`: across instances a state is written only while this instance holds the lease.
        init(game: LiveGame, createdAt: Date, store: any LiveGameStore, cluster: Cluster?, key: ChoiceKey, logger: Logger, owned: Bool = true) {
            self.owned = Atomic(owned)
            leaseUntil = Atomic(cluster == nil ? .max : 0)
            id = game.id
            pin = game.pin
            hostUserId = game.hostUserId
            questionIds = game.questions.compactMap(\.id)
            choiceIds = game.questions.map { key.ids(for: $0) }
            self.createdAt = createdAt
            let write: LatestStateWriter.Write
            if let cluster {
                write = { try await cluster.store.saveOwnedLiveGame($0, owner: cluster.instance) }
            } else {
                write = { record in
                    try await store.saveLiveGame(record)
                    return true
                }
            }
            stateWriter = LatestStateWriter(write: write) { record, error in
                logger.error("storing a live game's state failed", metadata: ["game": "\(record.id)", "phase": "\(record.phase.rawValue)",
                                                                              "error": "\(error)"])
            }
            var state = State(game: game)
            state.hostAwaySince = createdAt
            self.state = Mutex(state)
        }

        func snapshot() -> LiveGame { state.withLock { $0.game } }

        /// Applies a host's command; `roster` when it changes who is in the game or may join.
        func update(roster: Bool, _ body: (inout LiveGame) throws(LiveGameError) -> Void) throws(LiveGameError) -> Change {
            try state.withLock { state throws(LiveGameError) in
                let before = Marker(state.game)
                try body(&state.game)
                var change = change(from: before, to: state.game, now: nil)
                if roster { change.events.insert((.players(state.game.players, locked: state.game.locked), .host), at: 0) }
                return change
            }
        }

        /// What decides which events a change sends: small, so taking it never copies the players.
        private struct Marker: Equatable {
            var phase: LivePhase
            var index: Int
            var locked: Bool
            var settings: LiveSettings
            init(_ game: LiveGame) {
                (phase, index, locked, settings) = (game.phase, game.index, game.locked, game.settings)
            }
        }

        func join(nickname: String, userId: Int64?, team: Int?, limit: Int) throws(LiveGameError) -> (LivePlayer, Change) {
            try state.withLock { state throws(LiveGameError) in
                guard state.game.players.count < limit else { throw .full }
                let player = try state.game.join(nickname: nickname, userId: userId, team: team)
                return (player, Change(events: [(.players(state.game.players, locked: state.game.locked), .host)]))
            }
        }

        func unjoin(_ playerId: Int) {
            state.withLock { $0.game.unjoin(playerId) }
        }

        func keep(secretHash: String, codeHash: String?, for playerId: Int) {
            state.withLock { state in
                state.secretHashes[playerId] = secretHash
                if let codeHash { state.codeHashes[playerId] = codeHash }
            }
        }

        func resume(playerId: Int, secretHash: String) -> (LivePlayer, String?)? {
            state.withLock { state in
                guard let stored = state.secretHashes[playerId], stored == secretHash, let player = state.game.player(playerId) else { return nil }
                return (player, nil)
            }
        }

        /// The player a signed-in user already is in this game.
        func player(userId: Int64) -> LivePlayer? {
            state.withLock { state in state.game.players.first { $0.userId == userId } }
        }

        func player(nickname: String, codeHash: String) -> LivePlayer? {
            state.withLock { state in
                guard let player = state.game.player(nickname: nickname), state.codeHashes[player.id] == codeHash else { return nil }
                return player
            }
        }

        /// Takes an answer; the question stays open even when it was the last one (it closes once
        /// the answer is stored: `LiveGames.closeWhenEveryoneAnswered`).
        func answer(_ answer: Answer, question: Int, playerId: Int, now: Date) throws(LiveGameError)
            -> (taken: LiveAnswer, questionId: Int64, change: Change) {
            try state.withLock { state throws(LiveGameError) in
                let before = Marker(state.game)
                // From the ids the player was shown to the stored ones; another question's answer,
                // or one to a question no longer open, is refused by the game as not open first.
                var given = answer
                if question == state.game.index, state.game.phase == .question, choiceIds.indices.contains(question) {
                    do { given = try choiceIds[question].stored(answer) } catch { throw .badAnswer }
                }
                let taken = try state.game.answer(given, player: playerId, question: question, now: now)
                let questionId = state.game.question?.id ?? 0
                var change = change(from: before, to: state.game, now: now)
                // At most about a hundred progress messages a question, however many play.
                let answered = state.game.answers.count
                let players = state.game.activeCount
                if state.game.phase == .question, answered % max(1, players / 100) == 0 || answered == players {
                    change.events.append((.progress(index: state.game.index, answered: answered, players: players), .host))
                }
                return (taken, questionId, change)
            }
        }

        /// An answer that could not be stored no longer counts (while its question is open).
        func withdraw(_ taken: LiveAnswer) {
            state.withLock { _ = $0.game.withdraw(taken) }
        }

        func hostConnected(_ connected: Bool, now: Date) -> [(LiveEvent, LiveAudience)] {
            state.withLock { state in
                guard state.game.phase != .ended else { return [] }
                state.hostConnected = connected
                state.hostAwaySince = connected ? nil : now
                let endsAt = connected ? nil : now.addingTimeInterval(LiveGames.hostTimeout)
                return [(.host(connected: connected, endsAt: endsAt), .players)]
            }
        }

        /// After a restart nobody is connected yet: the host has the usual time to come back.
        func hostAway(since date: Date) {
            state.withLock { state in
                state.hostConnected = false
                state.hostAwaySince = date
            }
        }

        /// Whether this instance runs the game now: it owns it, on a lease it renewed lately enough.
        func runs(at uptime: Int64?) -> Bool {
            guard owned.load(ordering: .relaxed) else { return false }
            guard let uptime else { return true }
            return uptime < leaseUntil.load(ordering: .relaxed)
        }

        /// A renewal (or the game's creation) sent at `sent` went through: trusted for `Cluster.trustedSeconds` after it.
        func renewed(sentAt sent: Int64) {
            let until = sent + Int64(Cluster.trustedSeconds * 1000)
            _ = leaseUntil.max(until, ordering: .relaxed)
        }

        func isDue(_ now: Date) -> Bool { nextTick().map { $0 <= now } ?? false }

        /// Nil on an instance that does not own the game: its owner moves it on.
        func nextTick() -> Date? {
            guard owned.load(ordering: .relaxed) else { return nil }
            return state.withLock { state in
                let away = state.hostAwaySince.map { $0.addingTimeInterval(LiveGames.hostTimeout) }
                return [state.game.nextTick, away].compactMap { $0 }.min()
            }
        }

        func tick(now: Date) -> Change {
            state.withLock { state in
                let before = Marker(state.game)
                if let away = state.hostAwaySince, now >= away.addingTimeInterval(LiveGames.hostTimeout) {
                    state.game.end(now: now)
                } else {
                    while state.game.tick(now: now) {}
                }
                return change(from: before, to: state.game, now: now)
            }
        }

        // MARK: Across instances

        /// The phase and question, for deciding what a change needs first.
        var position: (phase: LivePhase, index: Int) { state.withLock { ($0.game.phase, $0.game.index) } }

        var everyoneAnswered: Bool { state.withLock { $0.game.phase == .question && $0.game.everyoneAnswered } }

        /// Takes what another instance stored for the open question: answers this copy lacks are
        /// counted. Returns the host's progress when anything was added.
        func merge(_ answers: [LiveAnswer]) -> [(LiveEvent, LiveAudience)] {
            state.withLock { state in
                var added = 0
                for answer in answers where state.game.phase == .question && answer.questionIndex == state.game.index
                    && state.game.answers[answer.playerId] == nil && state.game.player(answer.playerId)?.kicked == false {
                    state.game.record(answer)
                    added += 1
                }
                guard added > 0 else { return [] }
                return [(.progress(index: state.game.index, answered: state.game.answers.count, players: state.game.activeCount), .host)]
            }
        }

        /// Adds a player the database numbered; false when this copy is behind (it is read again).
        func add(_ player: LivePlayer) -> Bool {
            state.withLock { state in
                guard state.game.players.count + 1 == player.id,
                      let added = try? state.game.join(nickname: player.nickname, userId: player.userId, team: player.team) else { return false }
                return added.id == player.id && added.team == player.team
            }
        }

        /// Replaces this copy with the game as read from the database; the change says what the
        /// sockets on this instance are to be shown (nothing is stored: the owner stored it).
        func adopt(_ game: LiveGame, secretHashes: [Int: String], codeHashes: [Int: String]) -> Change {
            state.withLock { state in
                let before = Marker(state.game)
                let roster = state.game.players.count != game.players.count
                    || zip(state.game.players, game.players).contains { $0.kicked != $1.kicked || $0.team != $1.team }
                state.game = game
                state.secretHashes.merge(secretHashes) { $1 }
                state.codeHashes.merge(codeHashes) { $1 }
                var change = change(from: before, to: game, now: nil)
                change.record = nil
                if roster || before.locked != game.locked { change.events.insert((.players(game.players, locked: game.locked), .host), at: 0) }
                return change
            }
        }

        func catchUp(_ audience: LiveAudience) -> [LiveEvent] {
            state.withLock { state in
                let game = state.game
                var events: [LiveEvent] = []
                if audience == .host { events.append(.players(game.players, locked: game.locked)) }
                if !state.hostConnected, audience != .host, game.phase != .ended {
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
                    }
                case .reveal:
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
        private func change(from before: Marker, to after: LiveGame, now: Date?) -> Change {
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
                    let ranks = Dictionary(after.standings().map { ($0.player.id, $0.rank) }, uniquingKeysWith: { first, _ in first })
                    for player in after.activePlayers {
                        change.events.append((.result(LivePlayerResult(index: after.index, answer: after.answers[player.id], score: player.score,
                                                                       rank: ranks[player.id] ?? 0, streak: player.streak)),
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
            LiveGameRecord(id: game.id, pin: game.pin, quizId: game.quizId, hostUserId: game.hostUserId, title: game.title,
                           questionIds: questionIds, settings: game.settings, phase: game.phase, index: game.index,
                           openedAt: game.openedAt, deadline: game.deadline, advanceAt: game.advanceAt, locked: game.locked,
                           createdAt: createdAt, endedAt: endedAt)
        }

        private func shownIds(_ game: LiveGame) -> ChoiceIds? {
            choiceIds.indices.contains(game.index) ? choiceIds[game.index] : nil
        }

        private func view(_ game: LiveGame, _ question: Question) -> LiveQuestionView {
            LiveQuestionView(game: game, question: question, ids: shownIds(game) ?? ChoiceIds(publicIds: [:], seed: 0))
        }

        /// In the public ids the question was shown under.
        private func reveal(_ game: LiveGame) -> LiveReveal {
            let question = game.question
            let ids = shownIds(game)
            func shown(_ id: Int) -> Int { ids?.publicId(id) ?? id }
            return LiveReveal(index: game.index, correct: question?.correctAnswer.display ?? "",
                              correctChoices: question?.body.choices.filter(\.isCorrect).map { shown($0.id) } ?? [],
                              explanation: question?.explanation,
                              distribution: game.distribution().map { tally in
                                  var shownTally = tally
                                  shownTally.choice = tally.choice.map(shown)
                                  return shownTally
                              },
                              answered: game.answers.count, players: game.activeCount)
        }

        private func result(_ game: LiveGame, playerId: Int) -> LivePlayerResult? {
            guard let player = game.player(playerId), !player.kicked else { return nil }
            let rank = game.standings().first { $0.player.id == playerId }?.rank ?? 0
            return LivePlayerResult(index: game.index, answer: game.answers[playerId], score: player.score, rank: rank, streak: player.streak)
        }

        private func leaderboard(_ game: LiveGame, final: Bool) -> LiveEvent {
            .leaderboard(top: Array(game.standings().prefix(5)), teams: game.teamScores(), final: final)
        }

        private func ended(_ game: LiveGame) -> LiveEvent {
            let standings = game.standings()
            return .ended(podium: Array(standings.prefix(3)), standings: standings, teams: game.teamScores())
        }
    }
}
