import Foundation
import Logging
import QuizCore
import QuizStore
import Synchronization

/// Across instances: who runs each game. The instance that created a game holds its lease
/// (`live_games.owner`, `lease_until`), renews it every second and runs the game; when an owner
/// dies, its leases run out and another instance takes them. These are the moments a room's
/// `LiveHolding` changes, and with it the role that plays it here (`LiveRole`).
struct LiveLeases: Sendable {
    let context: LiveContext

    /// Another instance runs the game now (this one stalled, or lost the database, past its lease):
    /// this one keeps a copy, read again at once, and shows its sockets the game as it stands.
    func lost(_ room: LiveRoom) {
        guard room.become(.copy) else { return }
        context.logger.warning("a live game's lease was lost", metadata: ["game": "\(room.id)"])
        LiveSync(context: context).requestReload(room)
    }

    /// Renews this instance's leases and takes games whose lease ran out (their owner died or lost
    /// the database): each is read again from the database and its clock goes on here.
    func maintain() async {
        guard let cluster = context.cluster else { return }
        do {
            let sent = cluster.uptime()
            let held = Set(try await cluster.store.renewLiveLeases(owner: cluster.instance, seconds: LiveGames.Cluster.leaseSeconds))
            for room in context.rooms.all where room.holding == .owner {
                if held.contains(room.id) {
                    room.renewed(sentAt: sent)
                } else if room.position.phase == .ended {
                    // An ended game has no lease: it is on its way out of this instance, not lost.
                    continue
                } else {
                    // Another instance runs it now (this one lost the database for too long).
                    lost(room)
                }
            }
            let taking = cluster.uptime()
            for id in try await cluster.store.takeExpiredLiveGames(owner: cluster.instance, seconds: LiveGames.Cluster.leaseSeconds) {
                await takeOver(id, sentAt: taking)
            }
        } catch {
            context.logger.warning("keeping live games' leases failed", metadata: ["error": "\(error)"])
        }
    }

    /// A game whose lease this instance just took (the request sent at `sent`): read again, run here.
    private func takeOver(_ id: Int64, sentAt sent: Int64) async {
        let sync = LiveSync(context: context)
        if context.rooms.room(id: id) == nil { await sync.loadRoom(id: id) }
        guard let room = context.rooms.room(id: id) else { return }
        await sync.reload(room)
        let now = context.time.now()
        room.renewed(sentAt: sent)
        room.become(.owner)
        let owner = LiveOwner(context: context)
        context.send(room.hostConnected(room.hostHere.load(ordering: .relaxed), now: now), gameId: id)
        context.logger.info("took over a live game", metadata: ["game": "\(id)"])
        // The last answers may have come while nobody owned the game.
        await owner.closeWhenEveryoneAnswered(room)
    }

    /// Shutting down: this instance stops running its games and lets go of their leases, so
    /// another instance takes them at its next renewal (within a second) instead of waiting for
    /// the leases to run out. Answers already acknowledged are stored; the players reconnect.
    func release() async {
        guard let cluster = context.cluster else { return }
        for room in context.rooms.all { room.become(.copy) }
        do {
            try await context.answerLog.save()
            try await cluster.store.releaseLiveLeases(owner: cluster.instance)
        } catch {
            context.logger.warning("letting go of live games' leases failed", metadata: ["error": "\(error)"])
        }
    }
}
