import Foundation
import QuizCore
import QuizStore

/// The clock: moving the games this instance runs on, and bringing running games back after a restart.
extension LiveGames {
    /// Moves every game this instance runs on to `now`: deadlines, auto-advances, hosts away too long.
    package func tick() async {
        let now = context.time.now()
        let due = context.rooms.due(at: now, uptime: context.cluster?.uptime())
        let owner = LiveOwner(context: context)
        // Side by side: each finish waits for its game's state write, and 100 games closing
        // together one after another put the last reveal seconds late (scripts/bench live 100x50).
        await withTaskGroup(of: Void.self) { group in
            for room in due {
                group.addTask { await owner.tick(room, now: now) }
            }
        }
    }

    /// When `tick` next has work.
    package func nextTick() -> Date? {
        context.rooms.nextTick(uptime: context.cluster?.uptime())
    }

    /// Running games back from the database after a restart, where they stood.
    @discardableResult
    package func restore() async throws -> Int {
        let now = context.time.now()
        let single = context.cluster == nil
        var restored = 0
        for record in try await context.store.runningLiveGames() {
            guard let (game, players) = try await context.load(record) else { continue }
            // Across instances every game starts as a copy; the lease decides who runs it.
            let room = context.makeRoom(game, createdAt: record.createdAt, holding: single ? .owner : .copy)
            for player in players { room.keep(secretHash: player.secretHash, codeHash: player.codeHash, for: player.player.id) }
            if single { room.hostAway(since: now) } else { _ = room.hostConnected(true, now: now) }
            context.rooms.add(room)
            restored += 1
        }
        return restored
    }
}
