import CoreMetrics
import Foundation
import Logging
import QuizCore
import QuizStore
import Synchronization

/// Live games across instances sharing one PostgreSQL database.
///
/// One instance owns a game: the one holding its lease in `live_games` (renewed every second,
/// taken over by another once it has run out for `Cluster.leaseSeconds`). The owner runs the
/// game's clock and scoring as a single instance does. Every other instance with a socket of the
/// game keeps a copy read from the database, and reads it again when a notice (NOTIFY) says the
/// game changed; what changed between copies is what its own sockets are shown. A player's answer
/// taken by a copy is stored in its own transaction, checked against the question's phase in the
/// database, and acknowledged after commit; the owner ends a question in the database first and
/// counts what is stored for it then, so every acknowledged answer is counted, once.
extension LiveGames {
    package struct Cluster: Sendable {
        /// This instance, in leases and notices.
        package var instance: String
        package var store: any LiveClusterStore
        /// Milliseconds of a clock that only moves forward (tests move it by hand): how long this
        /// instance trusts a renewed lease is measured on it.
        package var uptime: @Sendable () -> Int64
        /// A lease runs out this long after its last renewal (in the database's clock).
        package static let leaseSeconds = 5
        /// How long the owner goes on running a game after sending a renewal that went through:
        /// a second less than the lease, so an instance that stalled (or lost the database) stops
        /// before another one may take the game, and two never run it at once.
        package static let trustedSeconds = leaseSeconds - 1
        /// How often leases are renewed and run-out ones taken.
        package static let renewEvery: Duration = .seconds(1)

        package init(instance: String = UUID().uuidString, store: any LiveClusterStore,
                     uptime: @escaping @Sendable () -> Int64 = Cluster.monotonicMilliseconds) {
            self.instance = instance
            self.store = store
            self.uptime = uptime
        }

        package static func monotonicMilliseconds() -> Int64 {
            let elapsed = origin.duration(to: .now).components
            return elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
        }

        private static let origin = ContinuousClock.now
    }

    /// Whether this instance runs `room` now (always on one instance).
    func runs(_ room: Room) -> Bool { room.runs(at: cluster?.uptime()) }

    /// What a notice says about a game. Small by design: nothing in it that a player must not see.
    enum Notice {
        /// The owner stored a new state: read the game again.
        case state
        /// A player joined on some instance.
        case players
        /// A copy stored an answer to the open question.
        case answers
        /// A host's command taken by a copy, for the owner to run.
        case command(HostCommand)
        /// The host's socket opened or closed on a copy.
        case hostSocket(Bool)
        /// The owner's word on its host, for the players of copies.
        case host(Bool)
        /// How many answered the open question, for a host screen on a copy.
        case progress(index: Int, answered: Int, players: Int)
        case kicked(Int)
    }

    func payload(_ notice: Notice, gameId: Int64) -> String? {
        guard let cluster else { return nil }
        var object: [String: Any] = ["g": gameId, "f": cluster.instance]
        switch notice {
        case .state: object["k"] = "state"
        case .players: object["k"] = "players"
        case .answers: object["k"] = "answers"
        case .hostSocket(let connected): (object["k"], object["c"]) = ("hostSocket", connected)
        case .host(let connected): (object["k"], object["c"]) = ("host", connected)
        case .kicked(let id): (object["k"], object["p"]) = ("kicked", id)
        case .progress(let index, let answered, let players): (object["k"], object["i"], object["a"], object["n"]) = ("progress", index, answered, players)
        case .command(let command):
            object["k"] = "command"
            switch command {
            case .start: object["c"] = "start"
            case .close: object["c"] = "close"
            case .next: object["c"] = "next"
            case .end: object["c"] = "end"
            case .kick(let id): (object["c"], object["p"]) = ("kick", id)
            case .lock(let locked): (object["c"], object["l"]) = ("lock", locked)
            case .settings(let settings):
                object["c"] = "settings"
                object["s"] = (try? JSONEncoder().encode(settings)).map { String(decoding: $0, as: UTF8.self) }
            }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object), data.count <= LiveNotifications.maxPayloadBytes else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Sends a notice, after those made before it (one at a time: the others see a game's changes
    /// in order). One that cannot be sent is logged; the others catch up at the next one, or when
    /// their listening connection comes back.
    func publish(_ notice: Notice, gameId: Int64) {
        guard let cluster, let text = payload(notice, gameId: gameId) else { return }
        coalescer.inOrder { [logger] in
            do {
                try await cluster.store.notifyLive(text)
            } catch {
                logger.warning("sending a live notice failed", metadata: ["game": "\(gameId)", "error": "\(error)"])
            }
        }
    }

    /// A host's command taken here for a game another instance owns.
    func forward(_ command: HostCommand, gameId: Int64) throws(Failure) {
        guard payload(.command(command), gameId: gameId) != nil else { throw .game(.notNow) }
        publish(.command(command), gameId: gameId)
    }

    // MARK: Notices in

    /// One notice from the channel (this instance's own are skipped).
    package func received(_ text: String) async {
        guard let cluster, let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              let gameId = (object["g"] as? NSNumber)?.int64Value, let kind = object["k"] as? String,
              object["f"] as? String != cluster.instance, let room = room(id: gameId) else { return }
        let owned = room.owned.load(ordering: .relaxed)
        switch (kind, owned) {
        case ("state", false):
            requestReload(room)
        case ("players", _):
            coalescer.run(.init(gameId: gameId, kind: "players")) { await self.addJoined(room) }
        case ("answers", true):
            coalescer.run(.init(gameId: gameId, kind: "answers")) { await self.mergeAnswers(room) }
        case ("command", true):
            guard let command = Self.command(object) else { return }
            do {
                try await self.command(command, gameId: gameId, userId: room.hostUserId)
            } catch {
                logger.debug("a host's command from another instance was refused", metadata: ["game": "\(gameId)", "error": "\(error)"])
            }
        case ("hostSocket", true):
            // A host screen still open here keeps the host in.
            guard let said = object["c"] as? Bool else { return }
            let connected = said || room.hostHere.load(ordering: .relaxed)
            send(room.hostConnected(connected, now: time.now()), gameId: gameId)
            publish(.host(connected), gameId: gameId)
        case ("host", false):
            guard let connected = object["c"] as? Bool else { return }
            send(room.hostConnected(connected, now: time.now()), gameId: gameId)
        case ("progress", false):
            guard room.hostHere.load(ordering: .relaxed), let index = (object["i"] as? NSNumber)?.intValue,
                  let answered = (object["a"] as? NSNumber)?.intValue, let players = (object["n"] as? NSNumber)?.intValue else { return }
            send([(.progress(index: index, answered: answered, players: players), .host)], gameId: gameId)
        case ("kicked", false):
            guard let id = (object["p"] as? NSNumber)?.intValue else { return }
            send([(.kicked(playerId: id), .player(id))], gameId: gameId)
            requestReload(room)
        default:
            break
        }
    }

    static func command(_ object: [String: Any]) -> HostCommand? {
        switch object["c"] as? String {
        case "start": .start
        case "close": .close
        case "next": .next
        case "end": .end
        case "kick": (object["p"] as? NSNumber).map { .kick($0.intValue) }
        case "lock": (object["l"] as? Bool).map { .lock($0) }
        case "settings":
            (object["s"] as? String).flatMap { try? JSONDecoder().decode(LiveSettings.self, from: Data($0.utf8)) }.map { .settings($0) }
        default: nil
        }
    }

    /// The listening connection is (again) up: notices may have been missed, so every game held
    /// here is read again.
    package func resync() async {
        for room in allRooms {
            if room.owned.load(ordering: .relaxed) {
                coalescer.run(.init(gameId: room.id, kind: "answers")) { await self.mergeAnswers(room) }
            } else {
                requestReload(room)
            }
        }
    }

    // MARK: Copies

    /// The game with this PIN: the one held here, else (across instances) read from the database
    /// as a copy.
    func loadRoom(pin: String) async -> Room? {
        if let room = room(pin: pin) { return room }
        guard let cluster else { return nil }
        do {
            guard let record = try await cluster.store.runningLiveGame(pin: pin) else { return nil }
            return try await copy(record)
        } catch {
            logger.error("reading a live game failed", metadata: ["pin": "\(pin)", "error": "\(error)"])
            return nil
        }
    }

    /// The game `gameId`, read from the database as a copy when it is not held here yet.
    package func loadRoom(id: Int64) async {
        guard let cluster, room(id: id) == nil else { return }
        do {
            guard let record = try await cluster.store.liveGame(id: id), record.endedAt == nil else { return }
            _ = try await copy(record)
        } catch {
            logger.error("reading a live game failed", metadata: ["game": "\(id)", "error": "\(error)"])
        }
    }

    private func copy(_ record: LiveGameRecord) async throws -> Room? {
        guard let (game, players) = try await load(record) else { return nil }
        let room = Room(game: game, createdAt: record.createdAt, store: store, cluster: cluster, key: key, logger: logger, owned: false)
        for player in players { room.keep(secretHash: player.secretHash, codeHash: player.codeHash, for: player.player.id) }
        _ = room.hostConnected(true, now: time.now())
        // Two requests may read it at once: the first one kept wins.
        return addIfAbsent(room)
    }

    /// Reads the game again and shows this instance's sockets what changed.
    func reload(_ room: Room) async {
        do {
            guard let record = try await store.liveGame(id: room.id), let (game, players) = try await load(record) else {
                remove(room)
                return
            }
            let change = room.adopt(game, secretHashes: Dictionary(players.map { ($0.player.id, $0.secretHash) }) { $1 },
                                    codeHashes: Dictionary(players.map { ($0.player.id, $0.codeHash) }) { $1 })
            send(change.events, gameId: room.id)
            if change.ended || record.endedAt != nil { remove(room) }
        } catch {
            logger.error("reading a live game again failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
        }
    }

    /// Brings the game held here up to date with the database: a copy is read again; the owner,
    /// whose state is the game's, only adds the players who joined elsewhere and their secrets.
    func refresh(_ room: Room) async {
        guard room.owned.load(ordering: .relaxed) else { return await reload(room) }
        do {
            let known = room.snapshot().players.count
            var added = false
            for record in try await store.livePlayers(gameId: room.id) {
                if record.player.id > known {
                    guard room.add(record.player) else { break }
                    added = true
                }
                room.keep(secretHash: record.secretHash, codeHash: record.codeHash, for: record.player.id)
            }
            if added {
                let game = room.snapshot()
                send([(.players(game.players, locked: game.locked), .host)], gameId: room.id)
            }
        } catch {
            logger.error("reading a live game's players failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
        }
    }

    /// Adds the players who joined on other instances since this instance last looked (read by
    /// number, so a crowd joining on two instances costs each join one short read, not the game).
    func addJoined(_ room: Room) async {
        guard let cluster else { return }
        do {
            let joined = try await cluster.store.livePlayers(gameId: room.id, after: room.snapshot().players.count)
            var added = false
            for record in joined {
                // Added meanwhile by a join on this instance, or next in line; else this copy is behind.
                guard room.add(record.player) || room.snapshot().players.count >= record.player.id else { break }
                room.keep(secretHash: record.secretHash, codeHash: record.codeHash, for: record.player.id)
                added = true
            }
            if added {
                let game = room.snapshot()
                send([(.players(game.players, locked: game.locked), .host)], gameId: room.id)
            }
        } catch {
            logger.error("reading a live game's players failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
        }
    }

    /// `refresh`, at most one at a time per game: notices that come during one make one more.
    func requestReload(_ room: Room) {
        coalescer.run(.init(gameId: room.id, kind: "reload")) { await self.refresh(room) }
    }

    // MARK: Joins and answers on any instance

    func joinAcross(_ room: Room, nickname: String, userId: Int64?, team: Int?, secret: String, code: String) async throws(Failure) -> Joined {
        guard let cluster else { throw .game(.notNow) }
        let name: String
        do {
            name = try Nickname.checked(nickname, username: userId != nil)
        } catch {
            throw .game(error)
        }
        let game = room.snapshot()
        guard game.phase != .ended else { throw .game(.ended) }
        var record = LivePlayerRecord(gameId: room.id, player: LivePlayer(id: 0, nickname: name, userId: userId, team: team),
                                      secretHash: SessionTokens.hash(secret), codeHash: SessionTokens.hash(code), joinedAt: time.now())
        var player = record.player
        // A signed-in player's username is theirs: taken by a look-alike, they join as "name (2)" (`LiveGame.join`).
        for number in 1...(userId == nil ? 1 : 99) {
            if number > 1 { record.player.nickname = "\(name) (\(number))" }
            let outcome: LiveJoinOutcome
            do {
                outcome = try await cluster.store.joinLivePlayer(record, teams: game.settings.teams, limit: limits.playersPerGame,
                                                                 notice: payload(.players, gameId: room.id) ?? "")
            } catch {
                logger.error("storing a join failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
                throw .game(.notNow)
            }
            player = record.player
            switch outcome {
            case .joined(let id, let team): (player.id, player.team) = (id, team)
            case .nicknameTaken: if userId != nil && number < 99 { continue } else { throw .game(.nicknameTaken) }
            case .locked: throw .game(.locked)
            case .full: throw .game(.full)
            case .ended: throw .game(.ended)
            }
            break
        }
        if !room.add(player) { await addJoined(room) }
        room.keep(secretHash: record.secretHash, codeHash: record.codeHash, for: player.id)
        let snapshot = room.snapshot()
        send([(.players(snapshot.players, locked: snapshot.locked), .host)], gameId: room.id)
        return Joined(player: snapshot.player(player.id) ?? player, secret: secret, code: code, game: snapshot)
    }

    /// An answer taken by an instance that does not own the game: graded against its copy, stored
    /// if the question is still open in the database, and only then acknowledged.
    func answerAcross(_ answer: Answer, question: Int, playerId: Int, room: Room, now: Date,
                      stored: @Sendable (LiveAnswer) -> Void) async throws(Failure) -> LiveAnswer {
        guard let cluster else { throw .game(.notNow) }
        let (taken, questionId): (LiveAnswer, Int64)
        do {
            (taken, questionId, _) = try room.answer(answer, question: question, playerId: playerId, now: now)
        } catch {
            throw .game(error)
        }
        let outcome: LiveAnswerOutcome
        do {
            outcome = try await cluster.store.saveCheckedLiveAnswer(
                LiveAnswerRecord(gameId: room.id, questionId: questionId, answer: taken, answeredAt: now),
                notice: payload(.answers, gameId: room.id) ?? "")
        } catch {
            room.withdraw(taken)  // so a try again here is not "already answered"
            logger.error("storing a live answer failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            throw .game(.notNow)
        }
        switch outcome {
        case .stored:
            metrics.liveAnswers.increment()
            stored(taken)
            return taken
        case .duplicate: throw .game(.alreadyAnswered)
        case .closed: throw .game(.notOpen)
        }
    }

    // MARK: The owner

    /// Ends the open question in the database and counts every answer stored for it; false when
    /// it cannot now (the database away, the lease lost, or the question's state not stored yet).
    func closeInDatabase(_ room: Room) async -> Bool {
        guard let cluster else { return true }
        let (phase, index) = room.position
        guard phase == .question else { return true }
        do {
            switch try await cluster.store.closeLiveQuestion(gameId: room.id, index: index, owner: cluster.instance) {
            case .closed(let answers):
                send(room.merge(answers.map(\.answer)), gameId: room.id)
                return true
            case .notOwner:
                lost(room)
                return false
            case .notOpen(let stored):
                // The question's state is not in the database (still being written, or its write
                // failed): written again, so the next tick can end it. (The same question there
                // means another close of it is under way: that one finishes it.)
                if stored < index, !(await room.stateWriter.save(room.record())) { lost(room) }
                return false
            }
        } catch {
            logger.error("ending a live question failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            return false
        }
    }

    /// Counts the answers copies stored for the open question; ends it when everyone answered.
    func mergeAnswers(_ room: Room) async {
        let (phase, index) = room.position
        guard phase == .question, room.owned.load(ordering: .relaxed) else { return }
        do {
            guard let cluster else { return }
            let answers = try await cluster.store.liveAnswers(gameId: room.id, questionIndex: index)
            send(room.merge(answers.map(\.answer)), gameId: room.id)
        } catch {
            logger.error("reading live answers failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            return
        }
        if room.everyoneAnswered { await closeWhenEveryoneAnswered(room) }
    }

    func closeWhenEveryoneAnswered(_ room: Room) async {
        guard room.everyoneAnswered, await closeInDatabase(room) else { return }
        let now = time.now()
        guard let change = try? room.update(roster: false, { game throws(LiveGameError) in try game.close(now: now) }) else { return }
        await finish(change, room: room)
    }

    // MARK: Leases

    /// Another instance runs the game now (this one stalled, or lost the database, past its lease):
    /// this one keeps a copy, read again at once, and shows its sockets the game as it stands.
    func lost(_ room: Room) {
        guard room.owned.exchange(false, ordering: .relaxed) else { return }
        logger.warning("a live game's lease was lost", metadata: ["game": "\(room.id)"])
        requestReload(room)
    }

    /// Renews this instance's leases and takes games whose lease ran out (their owner died or lost
    /// the database): each is read again from the database and its clock goes on here.
    package func maintainLeases() async {
        guard let cluster else { return }
        do {
            let sent = cluster.uptime()
            let held = Set(try await cluster.store.renewLiveLeases(owner: cluster.instance, seconds: Cluster.leaseSeconds))
            for room in allRooms where room.owned.load(ordering: .relaxed) {
                if held.contains(room.id) {
                    room.renewed(sentAt: sent)
                } else {
                    // Another instance runs it now (this one lost the database for too long).
                    lost(room)
                }
            }
            let taking = cluster.uptime()
            for id in try await cluster.store.takeExpiredLiveGames(owner: cluster.instance, seconds: Cluster.leaseSeconds) {
                if room(id: id) == nil { await loadRoom(id: id) }
                guard let room = room(id: id) else { continue }
                await reload(room)
                let now = time.now()
                room.renewed(sentAt: taking)
                room.owned.store(true, ordering: .relaxed)
                send(room.hostConnected(room.hostHere.load(ordering: .relaxed), now: now), gameId: id)
                logger.info("took over a live game", metadata: ["game": "\(id)"])
                // The last answers may have come while nobody owned the game.
                await closeWhenEveryoneAnswered(room)
            }
        } catch {
            logger.warning("keeping live games' leases failed", metadata: ["error": "\(error)"])
        }
    }
}

extension LiveGames {
    /// Shutting down: this instance stops running its games and lets go of their leases, so
    /// another instance takes them at its next renewal (within a second) instead of waiting for
    /// the leases to run out. Answers already acknowledged are stored; the players reconnect.
    package func releaseLeases() async {
        guard let cluster else { return }
        for room in allRooms { room.owned.store(false, ordering: .relaxed) }
        do {
            try await writer.save()
            try await cluster.store.releaseLiveLeases(owner: cluster.instance)
        } catch {
            logger.warning("letting go of live games' leases failed", metadata: ["error": "\(error)"])
        }
    }
}

/// Runs work for a key one at a time: a request while it runs makes it run once more after.
/// Also runs work in the order given (`inOrder`).
final class Coalescer: Sendable {
    struct Key: Hashable, Sendable {
        var gameId: Int64
        var kind: String
    }

    /// Present while running; true when asked again meanwhile.
    private let running = Mutex<[Key: Bool]>([:])
    /// Work to run one after the other, in the order given, and whether a task runs it.
    private let queue = Mutex<(work: [@Sendable () async -> Void], draining: Bool)>(([], false))

    /// Runs `work` after everything given before it, one at a time.
    func inOrder(_ work: @escaping @Sendable () async -> Void) {
        let start = queue.withLock { queue in
            queue.work.append(work)
            if queue.draining { return false }
            queue.draining = true
            return true
        }
        guard start else { return }
        Task {
            while true {
                let next: (@Sendable () async -> Void)? = queue.withLock { queue in
                    guard !queue.work.isEmpty else {
                        queue.draining = false
                        return nil
                    }
                    return queue.work.removeFirst()
                }
                guard let next else { return }
                await next()
            }
        }
    }

    func run(_ key: Key, _ work: @escaping @Sendable () async -> Void) {
        let start = running.withLock { running in
            if running[key] != nil {
                running[key] = true
                return false
            }
            running[key] = false
            return true
        }
        guard start else { return }
        Task {
            while true {
                await work()
                let again = running.withLock { running in
                    if running[key] == true {
                        running[key] = false
                        return true
                    }
                    running[key] = nil
                    return false
                }
                if !again { return }
            }
        }
    }
}
