import Foundation
import Logging
import QuizCore
import QuizStore
import Synchronization

/// The owner across instances: it ends a question in the database first and counts the answers
/// copies stored for it, so every acknowledged answer is counted, once; it runs the commands
/// copies pass on and speaks for the host to them.
extension LiveOwner {
    func received(_ notice: LiveNotice, in room: LiveRoom) async {
        switch notice {
        case .players:
            LiveSync(context: context).requestJoined(room)
        case .answers:
            context.coalescer.run(.init(gameId: room.id, kind: "answers")) { await mergeAnswers(room) }
        case .command(let command):
            do {
                // As the host's own, through whichever role holds the game by now.
                try await context.role(of: room).command(command, in: room)
            } catch {
                context.logger.debug("a host's command from another instance was refused", metadata: ["game": "\(room.id)", "error": "\(error)"])
            }
        case .hostSocket(let said):
            // A host screen still open here keeps the host in.
            let connected = said || room.hostHere.load(ordering: .relaxed)
            context.send(room.hostConnected(connected, now: context.time.now()), gameId: room.id)
            context.publish(.host(connected), gameId: room.id)
        case .state, .host, .progress, .kicked, .hidden:
            break  // the owner's own word, for copies
        }
    }

    func resync(_ room: LiveRoom) {
        context.coalescer.run(.init(gameId: room.id, kind: "answers")) { await mergeAnswers(room) }
    }

    /// The owner's state is the game's: it only adds the players who joined elsewhere and their secrets.
    func refresh(_ room: LiveRoom) async {
        do {
            let known = room.snapshot().players.count
            var added = false
            for record in try await context.store.livePlayers(gameId: room.id) {
                if record.player.id > known {
                    guard room.add(record.player) else { break }
                    added = true
                }
                room.keep(secretHash: record.secretHash, codeHash: record.codeHash, for: record.player.id)
            }
            if added {
                let game = room.snapshot()
                context.send([(.players(game.players, locked: game.locked), .host)], gameId: room.id)
            }
        } catch {
            context.logger.error("reading a live game's players failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
        }
    }

    /// Ends the open question in the database and counts every answer stored for it; false when
    /// it cannot now (the database away, the lease lost, or the question's state not stored yet).
    func closeInDatabase(_ room: LiveRoom) async -> Bool {
        guard let cluster = context.cluster else { return true }
        let (phase, index) = room.position
        guard phase == .question else { return true }
        do {
            switch try await cluster.store.closeLiveQuestion(gameId: room.id, index: index, owner: cluster.instance) {
            case .closed(let answers):
                context.send(room.merge(answers.map(\.answer)), gameId: room.id)
                return true
            case .notOwner:
                LiveLeases(context: context).lost(room)
                return false
            case .notOpen(let stored):
                // The question's state is not in the database (still being written, or its write
                // failed): written again, so the next tick can end it. (The same question there
                // means another close of it is under way: that one finishes it.)
                if stored < index, !(await room.stateWriter.save(room.record())) { LiveLeases(context: context).lost(room) }
                return false
            }
        } catch {
            context.logger.error("ending a live question failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            return false
        }
    }

    /// Counts the answers copies stored for the open question; ends it when everyone answered.
    func mergeAnswers(_ room: LiveRoom) async {
        let (phase, index) = room.position
        guard phase == .question, room.holding == .owner, let cluster = context.cluster else { return }
        do {
            let answers = try await cluster.store.liveAnswers(gameId: room.id, questionIndex: index)
            context.send(room.merge(answers.map(\.answer)), gameId: room.id)
        } catch {
            context.logger.error("reading live answers failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            return
        }
        if room.everyoneAnswered { await closeWhenEveryoneAnswered(room) }
    }

    func closeWhenEveryoneAnswered(_ room: LiveRoom) async {
        guard room.everyoneAnswered, await closeInDatabase(room) else { return }
        let now = context.time.now()
        guard let change = try? room.update(roster: false, { game throws(LiveGameError) in try game.close(now: now) }) else { return }
        await finish(change, room: room)
    }
}
