import CoreMetrics
import Foundation
import Logging
import QuizCore
import QuizStore
import Synchronization

/// Live games: a host runs a quiz for a room, players join with a PIN and answer against one
/// clock. Each running game lives in memory on this server (its `LiveGame` behind a lock) and in
/// the database (its phase at every change, its players and answers in group commits), so a
/// restarted server carries on where it stopped. Events go to the `LiveOutbox` (the WebSocket
/// adapter); the clock is the injected `TimeSource`, moved on by `tick`.
package final class LiveGames: Sendable {
    package enum Failure: Error, Equatable, Sendable {
        /// No such quiz, or not one this user may host.
        case quizNotFound
        /// The quiz has no question a live game can play.
        case noPlayableQuestions
        /// Every setting the game cannot play with.
        case badSettings([LiveSettings.Problem])
        /// No running game with that PIN or id.
        case unknownGame
        case notHost
        case game(LiveGameError)
        case badRejoin
        /// A resume that names no game running here or a player with another secret: the same
        /// answer for both, so resuming cannot tell which PINs are in play.
        case notResumable
        /// Too many joins from one address.
        case rateLimited
        /// The host already runs `limits.gamesPerHost` games.
        case tooManyGames
    }

    /// What one host and one game may take; the server's configuration sets them.
    package struct Limits: Sendable, Equatable {
        /// Games a host may run at once.
        package var gamesPerHost = 5
        /// Players one game takes; the next one is told the game is full and the game goes on.
        package var playersPerGame = 10_000

        package init(gamesPerHost: Int = 5, playersPerGame: Int = 10_000) {
            self.gamesPerHost = gamesPerHost
            self.playersPerGame = playersPerGame
        }
    }

    package typealias Catalog = CatalogStore & PracticeStore
    let store: any LiveGameStore
    let catalog: any Catalog
    let time: any TimeSource
    let logger: Logger
    let outbox: Mutex<(any LiveOutbox)?>
    let writer: LiveWriter
    let joins: RateLimiter
    package let limits: Limits
    let metrics: ActivityMetrics
    /// Set on PostgreSQL, where other instances may run the same games; nil on SQLite.
    let cluster: Cluster?
    /// Choices are shown under public ids, in orders of this key's (see `ChoiceKey`).
    let key: ChoiceKey
    /// Reads from the database that notices ask for, one at a time per game and kind.
    let coalescer = Coalescer()
    private let rooms = Mutex(Rooms())

    /// How long a game waits for a host who left before it ends.
    package static let hostTimeout: TimeInterval = 300

    private struct Rooms {
        var byId: [Int64: Room] = [:]
        var byPin: [String: Int64] = [:]
    }

    package init(store: any LiveGameStore, catalog: any Catalog, time: any TimeSource, joins: RateLimiter, key: ChoiceKey,
                 limits: Limits = Limits(), logger: Logger = Logger(label: "quizbox.live"), metrics: ActivityMetrics = .off,
                 cluster: Cluster? = nil) {
        self.key = key
        self.cluster = cluster
        self.metrics = metrics
        self.store = store
        self.limits = limits
        self.catalog = catalog
        self.time = time
        self.logger = logger
        self.joins = joins
        outbox = Mutex(nil)
        writer = LiveWriter(store: store, owner: cluster.map { ($0.store, $0.instance) })
    }

    /// Where events go; set once the adapter is built.
    package func deliver(to outbox: any LiveOutbox) {
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
            if cluster != nil, case .progress(let index, let answered, let players) = event, room(id: gameId)?.owned.load(ordering: .relaxed) == true {
                publish(.progress(index: index, answered: answered, players: players), gameId: gameId)
            }
        }
    }

    // MARK: Hosting

    /// What hosting a quiz would play: its questions a live game can play, and how many it leaves out.
    package struct Setup: Sendable {
        package var quiz: QuizSummary
        package var questions: [Question]
        package var skipped: Int
    }

    /// Published quizzes anyone signed in may host; authors also their drafts.
    package func setup(quizId: Int64, user: User) async throws(Failure) -> Setup {
        do {
            guard let quiz = try await catalog.quiz(id: quizId), quiz.isListed || (user.role.canAuthor && !quiz.isPractice) else {
                throw Failure.quizNotFound
            }
            let all = try await catalog.questions(quizId: quizId)
            let playable = LiveGame.playable(all)
            guard !playable.isEmpty else { throw Failure.noPlayableQuestions }
            return Setup(quiz: quiz, questions: playable, skipped: all.count - playable.count)
        } catch let failure as Failure {
            throw failure
        } catch {
            logger.error("reading a quiz to host failed", metadata: ["error": "\(error)"])
            throw .game(.notNow)
        }
    }

    /// A new game of `quizId` in its lobby. Name-them-all questions are left out.
    package func host(quizId: Int64, user: User, settings: LiveSettings) async throws(Failure) -> LiveGameRecord {
        let setup = try await setup(quizId: quizId, user: user)
        let (quiz, questions) = (setup.quiz, setup.questions)
        let problems = settings.problems(questionCount: questions.count)
        guard problems.isEmpty else { throw .badSettings(problems) }
        let running = rooms.withLock { rooms in rooms.byId.values.filter { $0.hostUserId == user.id }.count }
        guard running < limits.gamesPerHost else { throw .tooManyGames }
        let now = time.now()
        for _ in 0..<20 {
            let pin = String(Int.random(in: 100_000...999_999))
            var record = LiveGameRecord(id: 0, pin: pin, quizId: quiz.id, hostUserId: user.id, title: quiz.title,
                                        questionIds: questions.compactMap(\.id), settings: settings, createdAt: now)
            let claimed = cluster?.uptime() ?? 0
            let id: Int64?
            do {
                if let cluster {
                    // With this instance's lease from the start: no other instance (nor this one's
                    // own renewals) ever finds the new game without an owner and takes it meanwhile.
                    id = try await cluster.store.createOwnedLiveGame(record, owner: cluster.instance, seconds: Cluster.leaseSeconds)
                } else {
                    id = try await store.createLiveGame(record)
                }
            } catch {
                logger.error("creating a live game failed", metadata: ["error": "\(error)"])
                throw .game(.notNow)
            }
            guard let id else { continue }  // a running game has this PIN: draw another
            record.id = id
            let game = LiveGame(id: id, pin: pin, quizId: quiz.id, hostUserId: user.id, title: quiz.title, questions: questions, settings: settings)
            let room = addIfAbsent(Room(game: game, createdAt: now, store: store, cluster: cluster, key: key, logger: logger))
            room.renewed(sentAt: claimed)
            return record
        }
        throw .game(.notNow)
    }

    func add(_ room: Room) {
        rooms.withLock { rooms in
            rooms.byId[room.id] = room
            rooms.byPin[room.pin] = room.id
        }
    }

    /// Adds `room` unless a room of its game is held already; returns the one held.
    func addIfAbsent(_ room: Room) -> Room {
        rooms.withLock { rooms in
            if let held = rooms.byId[room.id] { return held }
            rooms.byId[room.id] = room
            rooms.byPin[room.pin] = room.id
            return room
        }
    }

    func remove(_ room: Room) {
        rooms.withLock { rooms in
            rooms.byId[room.id] = nil
            if rooms.byPin[room.pin] == room.id { rooms.byPin[room.pin] = nil }
        }
    }

    /// Games running in this process, for the live-games gauge.
    package var runningCount: Int { rooms.withLock { $0.byId.count } }

    func room(id: Int64) -> Room? { rooms.withLock { $0.byId[id] } }

    /// Every game running here (owned or copied).
    var allRooms: [Room] { rooms.withLock { Array($0.byId.values) } }

    func room(pin: String) -> Room? {
        rooms.withLock { rooms in rooms.byPin[pin].flatMap { rooms.byId[$0] } }
    }

    /// The running game `gameId` as its host sees it; someone else's is `notHost`.
    package func hostView(gameId: Int64, userId: Int64) throws(Failure) -> LiveGame {
        guard let room = room(id: gameId) else { throw .unknownGame }
        guard room.hostUserId == userId else { throw .notHost }
        return room.snapshot()
    }

    /// The running game with this PIN, as a joining player sees it.
    package func game(pin: String) throws(Failure) -> LiveGame {
        guard let room = room(pin: pin) else { throw .unknownGame }
        return room.snapshot()
    }

    /// The host's socket came or went: a game whose host stays away ends after `hostTimeout`.
    package func hostConnected(_ connected: Bool, gameId: Int64) {
        guard let room = room(id: gameId) else { return }
        room.hostHere.store(connected, ordering: .relaxed)
        if cluster != nil, !room.owned.load(ordering: .relaxed) {
            publish(.hostSocket(connected), gameId: gameId)
            return
        }
        let events = room.hostConnected(connected, now: time.now())
        send(events, gameId: gameId)
        if cluster != nil { publish(.host(connected), gameId: gameId) }
    }

    package enum HostCommand: Sendable, Equatable {
        case settings(LiveSettings)
        case start, close, next, end
        case kick(Int)
        case lock(Bool)
    }

    package func command(_ command: HostCommand, gameId: Int64, userId: Int64) async throws(Failure) {
        guard let room = room(id: gameId) else { throw .unknownGame }
        guard room.hostUserId == userId else { throw .notHost }
        if cluster != nil {
            // The owner runs it; here it only passes on. Ending a question first ends it in the database.
            guard room.owned.load(ordering: .relaxed) else { return try forward(command, gameId: gameId) }
            // Its lease not renewed lately: another instance may run the game by now. Try again.
            guard runs(room) else { throw .game(.notNow) }
            switch command {
            case .close, .end: guard await closeInDatabase(room) else { throw .game(.notNow) }
            default: break
            }
        }
        let now = time.now()
        let change: Room.Change
        do {
            let roster: Bool
            switch command {
            case .settings, .kick, .lock: roster = true
            default: roster = false
            }
            change = try room.update(roster: roster) { game throws(LiveGameError) in
                switch command {
                case .settings(let settings): try game.change(settings)
                case .start:
                    guard game.activeCount > 0 else { throw .notNow }
                    try game.start(now: now)
                case .close: try game.close(now: now)
                case .next: try game.next(now: now)
                case .end: game.end(now: now)
                case .kick(let id): try game.kick(id)
                case .lock(let locked): game.lock(locked)
                }
            }
        } catch {
            throw .game(error)
        }
        if case .kick(let id) = command {
            do {
                try await store.kickLivePlayer(gameId: gameId, playerId: id)
            } catch {
                logger.error("storing a kick failed", metadata: ["game": "\(gameId)", "error": "\(error)"])
            }
            send([(.kicked(playerId: id), .player(id))], gameId: gameId)
            if cluster != nil { publish(.kicked(id), gameId: gameId) }
        }
        // Refused: this instance found it no longer runs the game; pressed again, it goes to the one that does.
        guard await finish(change, room: room) else { throw .game(.notNow) }
    }

    /// Stores the new state and tells everyone what changed: first what changed, so play is not
    /// held up by the write, except at the end, which is stored first (the host who opens the
    /// results at once finds the game ended). False when the state was refused because another
    /// instance runs the game now.
    @discardableResult
    func finish(_ change: Room.Change, room: Room) async -> Bool {
        if !change.ended { send(change.events, gameId: room.id) }
        if let record = change.record {
            // Across instances the others read the game from the database when told: the answers
            // this instance took go in first, then the state, then the notice.
            if cluster != nil {
                do {
                    try await writer.save()
                } catch {
                    // Those answers are refused to their players (never acknowledged); the state goes out all the same.
                    logger.error("storing answers before the state failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
                }
            }
            guard await room.stateWriter.save(record) else {
                // Another instance runs the game: not told (an end least of all, which closes the
                // sockets); the copy read again shows what stands.
                lost(room)
                return false
            }
            if cluster != nil { publish(.state, gameId: room.id) }
        }
        if change.ended {
            send(change.events, gameId: room.id)
            remove(room)
        }
        return true
    }

    // MARK: Players

    package struct Joined: Sendable {
        package var player: LivePlayer
        /// Kept by the player's browser to come back automatically; only its hash is stored.
        package var secret: String
        /// Short, shown to the player, for coming back from another device with the nickname; nil
        /// on an automatic resume (only its hash is kept: the browser still has it).
        package var code: String?
        package var game: LiveGame
    }

    /// Joins the game with this PIN. A signed-in player plays under their username.
    package func join(pin: String, nickname: String, user: User?, team: Int?, address: String) async throws(Failure) -> Joined {
        try await countGreeting(from: address)
        guard let room = await loadRoom(pin: pin) else { throw .unknownGame }
        // A signed-in player joining again (another tab, another device) is the same player.
        if let user, let existing = room.player(userId: user.id) {
            guard !existing.kicked else { throw .game(.kicked) }
            return try await reissue(existing, in: room, code: nil)
        }
        let secret = SessionTokens.make()
        let code = Self.makeCode()
        let now = time.now()
        if cluster != nil {
            return try await joinAcross(room, nickname: user?.username ?? nickname, userId: user?.id, team: team, secret: secret, code: code)
        }
        let (player, change): (LivePlayer, Room.Change)
        do {
            (player, change) = try room.join(nickname: user?.username ?? nickname, userId: user?.id, team: team,
                                              limit: limits.playersPerGame)
        } catch {
            throw .game(error)
        }
        let record = LivePlayerRecord(gameId: room.id, player: player, secretHash: SessionTokens.hash(secret),
                                      codeHash: SessionTokens.hash(code), joinedAt: now)
        do {
            try await writer.save(players: [record])
        } catch {
            room.unjoin(player.id)
            logger.error("storing a join failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            throw .game(.notNow)
        }
        room.keep(secretHash: record.secretHash, codeHash: record.codeHash, for: player.id)
        send(change.events, gameId: room.id)
        return Joined(player: player, secret: secret, code: code, game: room.snapshot())
    }

    /// Counts a greeting (host, join, resume, rejoin) against its address; a count that cannot be
    /// kept (the shared table on PostgreSQL unreachable) is "try again", not "too many tries".
    package func countGreeting(from address: String) async throws(Failure) {
        let allowed: Bool
        do {
            allowed = try await joins.allow(keys: ["live-join:" + AddressKey.of(address)])
        } catch {
            logger.error("counting a live join failed", metadata: ["error": "\(error)"])
            throw .game(.notNow)
        }
        guard allowed else { throw .rateLimited }
    }

    /// Comes back with the secret the browser kept.
    /// Counted against the address like a join: a socket may not try secrets (or PINs) for free.
    package func resume(pin: String, playerId: Int, secret: String, address: String) async throws(Failure) -> Joined {
        try await countGreeting(from: address)
        guard let room = await loadRoom(pin: pin) else { throw .notResumable }
        var resumed = room.resume(playerId: playerId, secretHash: SessionTokens.hash(secret))
        if resumed == nil, cluster != nil {
            // Joined or rejoined on another instance since this copy was read.
            await refresh(room)
            resumed = room.resume(playerId: playerId, secretHash: SessionTokens.hash(secret))
        }
        guard let (player, code) = resumed else { throw .notResumable }
        guard !player.kicked else { throw .game(.kicked) }
        return Joined(player: player, secret: secret, code: code, game: room.snapshot())
    }

    /// Comes back from another device with the nickname and the short code; the old secret stops working.
    package func rejoin(pin: String, nickname: String, code: String, address: String) async throws(Failure) -> Joined {
        try await countGreeting(from: address)
        guard let room = await loadRoom(pin: pin) else { throw .unknownGame }
        let normalized = code.trimmingCharacters(in: .whitespaces).uppercased()
        var found = room.player(nickname: nickname, codeHash: SessionTokens.hash(normalized))
        if found == nil, cluster != nil {
            await refresh(room)
            found = room.player(nickname: nickname, codeHash: SessionTokens.hash(normalized))
        }
        guard let player = found else { throw .badRejoin }
        guard !player.kicked else { throw .game(.kicked) }
        return try await reissue(player, in: room, code: normalized)
    }

    /// A new secret for a player coming back on another device; the old one stops working.
    private func reissue(_ player: LivePlayer, in room: Room, code: String?) async throws(Failure) -> Joined {
        let secret = SessionTokens.make()
        let hash = SessionTokens.hash(secret)
        do {
            try await store.replaceLiveSecret(gameId: room.id, playerId: player.id, secretHash: hash)
        } catch {
            logger.error("storing a rejoin failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            throw .game(.notNow)
        }
        room.keep(secretHash: hash, codeHash: nil, for: player.id)
        return Joined(player: player, secret: secret, code: code, game: room.snapshot())
    }

    /// Takes a player's answer to the open question. `stored` runs once it is stored, before what it
    /// changed (the question's end, when it was the last answer) is sent.
    package func answer(_ answer: Answer, question: Int, playerId: Int, gameId: Int64,
                        stored: @Sendable (LiveAnswer) -> Void = { _ in }) async throws(Failure) -> LiveAnswer {
        guard let room = room(id: gameId) else { throw .unknownGame }
        let now = time.now()
        // Not run here now (a copy, or an owner whose lease is overdue): checked against the database.
        if cluster != nil, !runs(room) {
            return try await answerAcross(answer, question: question, playerId: playerId, room: room, now: now, stored: stored)
        }
        let (taken, questionId, change): (LiveAnswer, Int64, Room.Change)
        do {
            (taken, questionId, change) = try room.answer(answer, question: question, playerId: playerId, now: now)
        } catch {
            throw .game(error)
        }
        do {
            try await writer.save(answers: [LiveAnswerRecord(gameId: gameId, questionId: questionId, answer: taken, answeredAt: now)])
        } catch is LiveWriter.NotOwner {
            // Another instance runs the game now: taken as a copy takes it, checked against the database.
            room.withdraw(taken)
            lost(room)
            return try await answerAcross(answer, question: question, playerId: playerId, room: room, now: now, stored: stored)
        } catch {
            // Not stored, so not counted: the player is told to try again, and may.
            room.withdraw(taken)
            logger.error("storing a live answer failed", metadata: ["game": "\(gameId)", "error": "\(error)"])
            throw .game(.notNow)
        }
        metrics.liveAnswers.increment()
        stored(taken)
        await finish(change, room: room)
        // The last answer ends the question only once it is stored (an answer that fails to be
        // stored is taken back, and a closed question could not give it back).
        if room.everyoneAnswered { await closeWhenEveryoneAnswered(room) }
        return taken
    }

    /// The events that bring a (re)connected socket up to date.
    package func catchUp(gameId: Int64, audience: LiveAudience) -> [LiveEvent] {
        room(id: gameId)?.catchUp(audience) ?? []
    }

    // MARK: The clock

    /// Moves every game on to `now`: deadlines, auto-advances, hosts away too long.
    package func tick() async {
        let now = time.now()
        let uptime = cluster?.uptime()
        let due = rooms.withLock { rooms in rooms.byId.values.filter { $0.runs(at: uptime) && $0.isDue(now) } }
        // Side by side: each finish waits for its game's state write, and 100 games closing
        // together one after another put the last reveal seconds late (scripts/bench live 100x50).
        await withTaskGroup(of: Void.self) { group in
            for room in due {
                group.addTask {
                    // Across instances a question ends in the database first (with the answers
                    // other instances took); if it cannot yet, the next tick tries again.
                    if self.cluster != nil, room.position.phase == .question, !(await self.closeInDatabase(room)) { return }
                    await self.finish(room.tick(now: now), room: room)
                }
            }
        }
    }

    /// When `tick` next has work.
    package func nextTick() -> Date? {
        let uptime = cluster?.uptime()
        return rooms.withLock { rooms in rooms.byId.values.filter { $0.runs(at: uptime) }.compactMap { $0.nextTick() }.min() }
    }

    /// Running games back from the database after a restart, where they stood.
    @discardableResult
    package func restore() async throws -> Int {
        let now = time.now()
        var restored = 0
        for record in try await store.runningLiveGames() {
            guard let (game, players) = try await load(record) else { continue }
            // Across instances every game starts as a copy; the lease decides who runs it.
            let room = Room(game: game, createdAt: record.createdAt, store: store, cluster: cluster, key: key, logger: logger, owned: cluster == nil)
            for player in players { room.keep(secretHash: player.secretHash, codeHash: player.codeHash, for: player.player.id) }
            if cluster == nil { room.hostAway(since: now) } else { _ = room.hostConnected(true, now: now) }
            add(room)
            restored += 1
        }
        return restored
    }

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
        return (game, players)
    }

    // MARK: Results

    package struct Results: Sendable {
        package var game: LiveGameRecord
        package var questions: [Question]
        package var players: [LivePlayerRecord]
        package var answers: [LiveAnswerRecord]
        /// Final (or current) standings, with ranks.
        package var standings: [LiveGame.Standing]

        /// One row per player in standings order, one cell per question (nil: not answered).
        package var grid: [(standing: LiveGame.Standing, answers: [LiveAnswerRecord?])] {
            var byPlayer: [Int: [Int: LiveAnswerRecord]] = [:]
            for record in answers { byPlayer[record.answer.playerId, default: [:]][record.answer.questionIndex] = record }
            return standings.map { standing in (standing, questions.indices.map { byPlayer[standing.player.id]?[$0] }) }
        }

        /// An answer in words: choice texts, a number with its unit.
        package func words(_ record: LiveAnswerRecord) -> String {
            questions.indices.contains(record.answer.questionIndex)
                ? questions[record.answer.questionIndex].display(record.answer.answer) ?? "?" : "?"
        }
    }

    /// Everything one game recorded, for its host.
    package func results(gameId: Int64, userId: Int64) async throws(Failure) -> Results {
        do {
            guard let record = try await store.liveGame(id: gameId) else { throw Failure.unknownGame }
            guard record.hostUserId == userId else { throw Failure.notHost }
            var questions: [Question] = []
            for id in record.questionIds {
                questions.append(try await catalog.question(id: id) ?? Question(id: id, text: "(deleted question)", body: .trueFalse(true)))
            }
            let players = try await store.livePlayers(gameId: gameId)
            let answers = try await store.liveAnswers(gameId: gameId)
            var game = LiveGame(id: record.id, pin: record.pin, quizId: record.quizId, hostUserId: record.hostUserId, title: record.title,
                                questions: questions, settings: record.settings)
            game.restore(phase: record.phase == .question ? .reveal : record.phase, index: record.index, openedAt: nil, deadline: nil,
                         advanceAt: nil, locked: record.locked, players: players.map(\.player), answers: answers.map(\.answer))
            return Results(game: record, questions: questions, players: players, answers: answers, standings: game.standings())
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .game(.notNow)
        }
    }

    package func hostedGames(userId: Int64) async throws -> [LiveGameSummary] {
        try await store.liveGames(hostUserId: userId, limit: 100)
    }


    /// One game of this host, as stored, and its players.
    package func hosted(gameId: Int64, userId: Int64) async throws(Failure) -> (LiveGameRecord, players: Int) {
        do {
            guard let record = try await store.liveGame(id: gameId) else { throw Failure.unknownGame }
            guard record.hostUserId == userId else { throw Failure.notHost }
            let players = try await store.livePlayers(gameId: gameId).filter { !$0.player.kicked }.count
            return (record, players)
        } catch let failure as Failure {
            throw failure
        } catch {
            logger.error("reading a live game failed", metadata: ["error": "\(error)"])
            throw .game(.notNow)
        }
    }

    /// Whether the game is running on this server now.
    package func isRunning(gameId: Int64) -> Bool { room(id: gameId) != nil }

    // MARK: Codes

    /// Six characters without the ones people confuse (0/O, 1/I/L).
    static let codeAlphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")

    static func makeCode() -> String {
        String((0..<6).map { _ in codeAlphabet.randomElement()! })
    }
}
