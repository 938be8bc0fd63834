import Foundation
import Logging
import QuizCore
import QuizStore

/// Across instances: the games held here kept up to date with the database. A game is read as a
/// copy for the first socket that asks for it, read again when a notice says it changed, and its
/// players are numbered by the database, whichever instance takes the join. On one instance
/// nothing of this runs (every game is in memory from its creation or restore).
struct LiveSync: Sendable {
    let context: LiveContext

    // MARK: Copies

    /// The game with this PIN: the one held here, else (across instances) read from the database
    /// as a copy.
    func loadRoom(pin: String) async -> LiveRoom? {
        if let room = context.rooms.room(pin: pin) { return room }
        guard let cluster = context.cluster else { return nil }
        do {
            guard let record = try await cluster.store.runningLiveGame(pin: pin) else { return nil }
            return try await copy(record)
        } catch {
            context.logger.error("reading a live game failed", metadata: ["pin": "\(pin)", "error": "\(error)"])
            return nil
        }
    }

    /// The game `gameId`, read from the database as a copy when it is not held here yet.
    func loadRoom(id: Int64) async {
        guard let cluster = context.cluster, context.rooms.room(id: id) == nil else { return }
        do {
            guard let record = try await cluster.store.liveGame(id: id), record.endedAt == nil else { return }
            _ = try await copy(record)
        } catch {
            context.logger.error("reading a live game failed", metadata: ["game": "\(id)", "error": "\(error)"])
        }
    }

    private func copy(_ record: LiveGameRecord) async throws -> LiveRoom? {
        guard let (game, players) = try await context.load(record) else { return nil }
        let room = context.makeRoom(game, createdAt: record.createdAt, holding: .copy)
        for player in players { room.keep(secretHash: player.secretHash, codeHash: player.codeHash, for: player.player.id) }
        _ = room.hostConnected(true, now: context.time.now())
        // Two requests may read it at once: the first one kept wins.
        return context.rooms.addIfAbsent(room)
    }

    /// Reads the game again and shows this instance's sockets what changed.
    func reload(_ room: LiveRoom) async {
        do {
            guard let record = try await context.store.liveGame(id: room.id), let (game, players) = try await context.load(record) else {
                context.rooms.remove(room)
                return
            }
            let change = room.adopt(game, secretHashes: Dictionary(players.map { ($0.player.id, $0.secretHash) }) { $1 },
                                    codeHashes: Dictionary(players.map { ($0.player.id, $0.codeHash) }) { $1 })
            context.send(change.events, gameId: room.id)
            if change.ended || record.endedAt != nil { context.rooms.remove(room) }
        } catch {
            context.logger.error("reading a live game again failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
        }
    }

    /// `LiveRole.refresh` by the role that holds the game when it runs, at most one at a time per
    /// game: notices that come during one make one more.
    func requestReload(_ room: LiveRoom) {
        let context = context
        context.coalescer.run(.init(gameId: room.id, kind: "reload")) { await context.role(of: room).refresh(room) }
    }

    // MARK: Players

    /// `addJoined`, at most one at a time per game.
    func requestJoined(_ room: LiveRoom) {
        let sync = self
        context.coalescer.run(.init(gameId: room.id, kind: "players")) { await sync.addJoined(room) }
    }

    /// Adds the players who joined on other instances since this instance last looked (read by
    /// number, so a crowd joining on two instances costs each join one short read, not the game).
    func addJoined(_ room: LiveRoom) async {
        guard let cluster = context.cluster else { return }
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
                context.send([(.players(game.players, locked: game.locked), .host)], gameId: room.id)
            }
        } catch {
            context.logger.error("reading a live game's players failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
        }
    }

    /// A join numbered by the database under the game's row lock, so ids and nicknames stay unique
    /// across instances.
    func join(_ room: LiveRoom, nickname: String, userId: Int64?, team: Int?, secret: String, code: String)
        async throws(LiveGames.Failure) -> LiveGames.Joined {
        guard let cluster = context.cluster else { throw .game(.notNow) }
        let name: String
        do {
            name = try Nickname.checked(nickname, username: userId != nil)
        } catch {
            throw .game(error)
        }
        let game = room.snapshot()
        guard game.phase != .ended else { throw .game(.ended) }
        var record = LivePlayerRecord(gameId: room.id, player: LivePlayer(id: 0, nickname: name, userId: userId, team: team),
                                      secretHash: SessionTokens.hash(secret), codeHash: SessionTokens.hash(code), joinedAt: context.time.now())
        var player = record.player
        // A signed-in player's username is theirs: taken by a look-alike, they join as "name (2)" (`LiveGame.join`).
        for number in 1...(userId == nil ? 1 : 99) {
            if number > 1 { record.player.nickname = "\(name) (\(number))" }
            let outcome: LiveJoinOutcome
            do {
                outcome = try await cluster.store.joinLivePlayer(record, teams: game.settings.teams, limit: context.rooms.limits.playersPerGame,
                                                                 notice: context.payload(.players, gameId: room.id) ?? "")
            } catch {
                context.logger.error("storing a join failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
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
        context.send([(.players(snapshot.players, locked: snapshot.locked), .host)], gameId: room.id)
        return LiveGames.Joined(player: snapshot.player(player.id) ?? player, secret: secret, code: code, game: snapshot)
    }
}
