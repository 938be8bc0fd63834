import Foundation
import Logging
import QuizCore
import QuizStore
import Synchronization

/// One running game on this instance: its rules' state (`LiveGame`) behind a lock held only for
/// in-memory work (never across a write), its clock, the answers it takes and gives back, and what
/// it takes to let players back in. How this instance holds it, as its owner or as a copy, is
/// `holding` (see `LiveRole`); what its changes show is in `LiveRoom+Events`.
final class LiveRoom: Sendable {
    let id: Int64
    let pin: String
    let hostUserId: Int64
    let questionIds: [Int64]
    /// Per question, the public ids its choices are shown under: worked out once per game, so
    /// no message to a player costs an HMAC.
    let choiceIds: [ChoiceIds]
    let createdAt: Date
    let stateWriter: LatestStateWriter
    /// Only through the room's methods (here and in its extensions).
    let state: Mutex<State>
    /// Whether this instance runs the game's clock and scoring: always on one instance; across
    /// instances, while it holds the game's lease (the others keep a copy read from the database).
    private let holdingNow: Atomic<LiveHolding>
    /// Across instances: until when (`Cluster.uptime`, milliseconds) this instance may act as
    /// the owner on its last renewal of the lease. Past it, another instance may have taken the
    /// game, so this one stops running it until a renewal comes through.
    private let leaseUntil: Atomic<Int64>
    /// Whether the host has a socket open on this instance.
    let hostHere = Atomic<Bool>(false)

    struct State {
        var game: LiveGame
        /// By player id.
        var secretHashes: [Int: String] = [:]
        var codeHashes: [Int: String] = [:]
        var hostConnected = false
        var hostAwaySince: Date?
        /// Players were told the host is away (and so are to be told when the host is back).
        var hostAwayTold = false
    }

    /// What one change did: the events to send, the state to store (when the phase, the
    /// question, the lock or the settings moved) and whether the game is over.
    struct Change: Sendable {
        var events: [(LiveEvent, LiveAudience)] = []
        var record: LiveGameRecord?
        var ended = false
    }

    /// An answer the game took: graded and counted in memory, not yet stored.
    struct Taken: Sendable {
        var answer: LiveAnswer
        var questionId: Int64
        /// What taking it showed (the host's progress), sent once it is stored.
        var change: Change
        var at: Date

        func record(gameId: Int64) -> LiveAnswerRecord {
            LiveAnswerRecord(gameId: gameId, questionId: questionId, answer: answer, answeredAt: at)
        }
    }

    /// `cluster`: across instances a state is written only while this instance holds the lease.
    init(game: LiveGame, createdAt: Date, store: any LiveGameStore, cluster: LiveGames.Cluster?, key: ChoiceKey, logger: Logger,
         holding: LiveHolding) {
        holdingNow = Atomic(holding)
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

    // MARK: Holding

    var holding: LiveHolding { holdingNow.load(ordering: .relaxed) }

    /// Becomes the owner or a copy; false when it already was.
    @discardableResult
    func become(_ holding: LiveHolding) -> Bool {
        holdingNow.exchange(holding, ordering: .relaxed) != holding
    }

    /// Whether this instance runs the game now: it owns it, on a lease it renewed lately enough.
    func runs(at uptime: Int64?) -> Bool {
        guard holding == .owner else { return false }
        guard let uptime else { return true }
        return uptime < leaseUntil.load(ordering: .relaxed)
    }

    /// A renewal (or the game's creation) sent at `sent` went through: trusted for `Cluster.trustedSeconds` after it.
    func renewed(sentAt sent: Int64) {
        let until = sent + Int64(LiveGames.Cluster.trustedSeconds * 1000)
        _ = leaseUntil.max(until, ordering: .relaxed)
    }

    // MARK: The host's commands

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

    // MARK: Players

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

    // MARK: Answers

    /// Takes an answer; the question stays open even when it was the last one (it closes once
    /// the answer is stored: `LiveOwner.closeWhenEveryoneAnswered`).
    func take(_ answer: Answer, question: Int, playerId: Int, now: Date) throws(LiveGameError) -> Taken {
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
                // A word cloud grows on the host's screen as answers come, as often as the progress.
                if state.game.question?.kind == .wordCloud { change.events.append((.cloud(LiveCloud(state.game)), .host)) }
            }
            return Taken(answer: taken, questionId: questionId, change: change, at: now)
        }
    }

    /// Hides a word cloud's entry: gone from the host's cloud, and from everyone's once shown.
    func hide(_ key: String, question: Int) throws(LiveGameError) -> Change {
        try state.withLock { state throws(LiveGameError) in
            try state.game.hide(key, question: question)
            return Change(events: [(.cloud(LiveCloud(state.game)), state.game.phase == .question ? .host : .everyone)])
        }
    }

    /// An answer that could not be stored no longer counts (while its question is open).
    func withdraw(_ taken: LiveAnswer) {
        state.withLock { _ = $0.game.withdraw(taken) }
    }

    var everyoneAnswered: Bool { state.withLock { $0.game.phase == .question && $0.game.everyoneAnswered } }

    /// The phase and question, for deciding what a change needs first.
    var position: (phase: LivePhase, index: Int) { state.withLock { ($0.game.phase, $0.game.index) } }

    // MARK: The host's presence

    func hostConnected(_ connected: Bool, now: Date) -> [(LiveEvent, LiveAudience)] {
        state.withLock { state in
            guard state.game.phase != .ended else { return [] }
            state.hostConnected = connected
            state.hostAwaySince = connected ? nil : now
            // "Back" only to players who heard "away": after a restart or a takeover the host is
            // counted away without a word, and a host's first screen is no return either.
            if connected {
                defer { state.hostAwayTold = false }
                return state.hostAwayTold ? [(.host(connected: true, endsAt: nil), .players)] : []
            }
            state.hostAwayTold = true
            return [(.host(connected: false, endsAt: now.addingTimeInterval(LiveGames.hostTimeout)), .players)]
        }
    }

    /// After a restart nobody is connected yet: the host has the usual time to come back.
    func hostAway(since date: Date) {
        state.withLock { state in
            state.hostConnected = false
            state.hostAwaySince = date
        }
    }

    // MARK: The clock

    func isDue(_ now: Date) -> Bool { nextTick().map { $0 <= now } ?? false }

    /// Nil on an instance that does not own the game: its owner moves it on.
    func nextTick() -> Date? {
        guard holding == .owner else { return nil }
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
}
