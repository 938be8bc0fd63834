import Foundation
import Logging
import QuizCore
import QuizStore
import Synchronization

/// What the parts of live games share on this instance: the stores, the games held here
/// (`LiveRooms`), the answer log, where events go and, across instances, the cluster. Built once
/// by `LiveGames`; the roles (`LiveOwner`, `LiveCopy`), `LiveLeases` and `LiveSync` work on it.
final class LiveContext: Sendable {
    let store: any LiveGameStore
    let catalog: any LiveGames.Catalog
    let time: any TimeSource
    let logger: Logger
    let metrics: ActivityMetrics
    /// Choices are shown under public ids, in orders of this key's (see `ChoiceKey`).
    let key: ChoiceKey
    /// Set on PostgreSQL, where other instances may run the same games; nil on SQLite.
    let cluster: LiveGames.Cluster?
    let rooms: LiveRooms
    let answerLog: LiveAnswerLog
    /// Reads from the database that notices ask for, one at a time per game and kind; notices out, in order.
    let coalescer = Coalescer()
    private let outbox = Mutex<(any LiveOutbox)?>(nil)

    init(store: any LiveGameStore, catalog: any LiveGames.Catalog, time: any TimeSource, key: ChoiceKey, limits: LiveGames.Limits,
         logger: Logger, metrics: ActivityMetrics, cluster: LiveGames.Cluster?) {
        self.store = store
        self.catalog = catalog
        self.time = time
        self.key = key
        self.logger = logger
        self.metrics = metrics
        self.cluster = cluster
        rooms = LiveRooms(limits: limits)
        answerLog = LiveAnswerLog(store: store, owner: cluster.map { ($0.store, $0.instance) })
    }

    /// A room for `game`, held as `holding`.
    func makeRoom(_ game: LiveGame, createdAt: Date, holding: LiveHolding) -> LiveRoom {
        LiveRoom(game: game, createdAt: createdAt, store: store, cluster: cluster, key: key, logger: logger, holding: holding)
    }

    /// Whether this instance runs `room` now (always on one instance).
    func runs(_ room: LiveRoom) -> Bool { room.runs(at: cluster?.uptime()) }

    // MARK: Events out

    func deliver(to outbox: any LiveOutbox) {
        self.outbox.withLock { $0 = outbox }
    }

    func send(_ events: [(LiveEvent, LiveAudience)], gameId: Int64) {
        guard !events.isEmpty, let outbox = outbox.withLock({ $0 }) else { return }
        // Players' own results come in a run: sent as one batch, with the event before them.
        var index = 0
        while index < events.count {
            let (event, audience) = events[index]
            index += 1
            var results: [(playerId: Int, result: LivePlayerResult)] = []
            if case .result(let result) = event, case .player(let id) = audience { results.append((id, result)) }
            while index < events.count, case .result(let result) = events[index].0, case .player(let id) = events[index].1 {
                results.append((id, result))
                index += 1
            }
            if case .result = event {
                outbox.sendResults(results, gameId: gameId)
                continue
            }
            if results.isEmpty {
                outbox.send(event, gameId: gameId, to: audience)
            } else {
                outbox.send(event, gameId: gameId, to: audience, then: results)
            }
            // Across instances a host screen may be on another one: the owner passes the counts on.
            if cluster != nil, case .progress(let index, let answered, let players) = event, rooms.room(id: gameId)?.holding == .owner {
                publish(.progress(index: index, answered: answered, players: players), gameId: gameId)
            }
        }
    }

    // MARK: Notices out

    /// A notice as sent from this instance; nil on one instance, or when it is too long to send.
    func payload(_ notice: LiveNotice, gameId: Int64) -> String? {
        guard let cluster else { return nil }
        return notice.payload(gameId: gameId, sender: cluster.instance)
    }

    /// Sends a notice, after those made before it (one at a time: the others see a game's changes
    /// in order). One that cannot be sent is logged; the others catch up at the next one, or when
    /// their listening connection comes back.
    func publish(_ notice: LiveNotice, gameId: Int64) {
        guard let cluster, let text = payload(notice, gameId: gameId) else { return }
        coalescer.inOrder { [logger] in
            do {
                try await cluster.store.notifyLive(text)
            } catch {
                logger.warning("sending a live notice failed", metadata: ["game": "\(gameId)", "error": "\(error)"])
            }
        }
    }

    // MARK: Games from the database

    /// A stored game as it stands, with its players; nil when a question it plays was deleted
    /// (the game cannot carry on as played: it is ended).
    func load(_ record: LiveGameRecord) async throws -> (LiveGame, [LivePlayerRecord])? {
        var questions: [Question] = []
        for id in record.questionIds {
            if let question = try await catalog.question(id: id) { questions.append(question) }
        }
        guard questions.count == record.questionIds.count else {
            var ended = record
            ended.phase = .ended
            ended.endedAt = time.now()
            try await store.saveLiveGame(ended)
            return nil
        }
        let players = try await store.livePlayers(gameId: record.id)
        let answers = try await store.liveAnswers(gameId: record.id)
        var game = LiveGame(id: record.id, pin: record.pin, quizId: record.quizId, hostUserId: record.hostUserId, title: record.title,
                            questions: questions, settings: record.settings)
        game.restore(phase: record.phase, index: record.index, openedAt: record.openedAt, deadline: record.deadline,
                     advanceAt: record.advanceAt, locked: record.locked, players: players.map(\.player), answers: answers.map(\.answer))
        game.restoreHidden(record.hiddenWords)
        return (game, players)
    }
}
