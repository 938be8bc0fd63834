import CoreMetrics
import Foundation
import Logging
import QuizCore
import QuizStore

/// The instance that runs a game: its clock, its scoring and its state. On one instance it owns
/// every game; across instances, those whose lease it holds (`LiveLeases`), and then only while
/// its last renewal is recent enough (`LiveRoom.runs`). An answer it takes goes to the answer log
/// (group commit) and is acknowledged after commit; a change is shown, stored and, across
/// instances, told to the others. The parts only across instances are in `LiveOwner+Cluster`.
struct LiveOwner: LiveRole {
    let context: LiveContext

    func join(_ room: LiveRoom, nickname: String, userId: Int64?, team: Int?, secret: String, code: String)
        async throws(LiveGames.Failure) -> LiveGames.Joined {
        // Across instances the database numbers the players, whoever takes the join.
        if context.cluster != nil {
            return try await LiveSync(context: context).join(room, nickname: nickname, userId: userId, team: team, secret: secret, code: code)
        }
        let (player, change): (LivePlayer, LiveRoom.Change)
        do {
            (player, change) = try room.join(nickname: nickname, userId: userId, team: team, limit: context.rooms.limits.playersPerGame)
        } catch {
            throw .game(error)
        }
        let record = LivePlayerRecord(gameId: room.id, player: player, secretHash: SessionTokens.hash(secret),
                                      codeHash: SessionTokens.hash(code), joinedAt: context.time.now())
        do {
            try await context.answerLog.save(players: [record])
        } catch {
            room.unjoin(player.id)
            context.logger.error("storing a join failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            throw .game(.notNow)
        }
        room.keep(secretHash: record.secretHash, codeHash: record.codeHash, for: player.id)
        context.send(change.events, gameId: room.id)
        return LiveGames.Joined(player: player, secret: secret, code: code, game: room.snapshot())
    }

    func keep(_ taken: LiveRoom.Taken, in room: LiveRoom, stored: @Sendable (LiveAnswer) -> Void)
        async throws(LiveGames.Failure) -> LiveAnswer {
        // Its lease not renewed lately (another instance may run the game by now): checked
        // against the database, as a copy checks one.
        guard context.runs(room) else { return try await LiveCopy(context: context).keep(taken, in: room, stored: stored) }
        do {
            try await context.answerLog.save(answers: [taken.record(gameId: room.id)])
        } catch is LiveAnswerLog.NotOwner {
            // The database says another instance runs the game: this one holds a copy from now
            // on, and stores the answer it took (once) as a copy does, checked against the database.
            LiveLeases(context: context).lost(room)
            return try await LiveCopy(context: context).keep(taken, in: room, stored: stored)
        } catch {
            // Not stored, so not counted: the player is told to try again, and may.
            room.withdraw(taken.answer)
            context.logger.error("storing a live answer failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            throw .game(.notNow)
        }
        context.metrics.liveAnswers.increment()
        stored(taken.answer)
        await finish(taken.change, room: room)
        // The last answer ends the question only once it is stored (an answer that fails to be
        // stored is taken back, and a closed question could not give it back).
        if room.everyoneAnswered { await closeWhenEveryoneAnswered(room) }
        return taken.answer
    }

    func command(_ command: LiveGames.HostCommand, in room: LiveRoom) async throws(LiveGames.Failure) {
        if context.cluster != nil {
            // Its lease not renewed lately: another instance may run the game by now. Try again.
            guard context.runs(room) else { throw .game(.notNow) }
            // Ending a question first ends it in the database, with the answers copies took.
            switch command {
            case .close, .end: guard await closeInDatabase(room) else { throw .game(.notNow) }
            default: break
            }
        }
        if case .hide(let question, let key) = command {
            let change: LiveRoom.Change
            do { change = try room.hide(key, question: question) } catch { throw .game(error) }
            context.send(change.events, gameId: room.id)
            // Stored, so a restart or an instance taking the game over keeps it hidden.
            if !(await room.stateWriter.save(room.record())) { LiveLeases(context: context).lost(room) }
            context.publish(.hidden(index: question, key: key), gameId: room.id)
            return
        }
        let now = context.time.now()
        let change: LiveRoom.Change
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
                case .hide: break  // above
                }
            }
        } catch {
            throw .game(error)
        }
        if case .kick(let id) = command {
            do {
                try await context.store.kickLivePlayer(gameId: room.id, playerId: id)
            } catch {
                context.logger.error("storing a kick failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            }
            context.send([(.kicked(playerId: id), .player(id))], gameId: room.id)
            context.publish(.kicked(id), gameId: room.id)
        }
        // Refused: this instance found it no longer runs the game; pressed again, it goes to the one that does.
        guard await finish(change, room: room) else { throw .game(.notNow) }
    }

    func hostConnected(_ connected: Bool, in room: LiveRoom) {
        context.send(room.hostConnected(connected, now: context.time.now()), gameId: room.id)
        context.publish(.host(connected), gameId: room.id)
    }

    /// Moves the game on to `now` (it is due): a deadline, an auto-advance, a host away too long.
    func tick(_ room: LiveRoom, now: Date) async {
        // Across instances a question ends in the database first (with the answers other
        // instances took); if it cannot yet, the next tick tries again.
        if context.cluster != nil, room.position.phase == .question, !(await closeInDatabase(room)) { return }
        await finish(room.tick(now: now), room: room)
    }

    /// Stores the new state and tells everyone what changed: first what changed, so play is not
    /// held up by the write, except at the end, which is stored first (the host who opens the
    /// results at once finds the game ended). False when the state was refused because another
    /// instance runs the game now.
    @discardableResult
    func finish(_ change: LiveRoom.Change, room: LiveRoom) async -> Bool {
        if !change.ended { context.send(change.events, gameId: room.id) }
        if let record = change.record {
            // Across instances the others read the game from the database when told: the answers
            // this instance took go in first, then the state, then the notice.
            if context.cluster != nil {
                do {
                    try await context.answerLog.save()
                } catch {
                    // Those answers are refused to their players (never acknowledged); the state goes out all the same.
                    context.logger.error("storing answers before the state failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
                }
            }
            guard await room.stateWriter.save(record) else {
                // Another instance runs the game: not told (an end least of all, which closes the
                // sockets); the copy read again shows what stands.
                LiveLeases(context: context).lost(room)
                return false
            }
            context.publish(.state, gameId: room.id)
        }
        if change.ended {
            context.send(change.events, gameId: room.id)
            context.rooms.remove(room)
        }
        return true
    }
}
