import Foundation
import QuizStore

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
///
/// Here: the cluster's settings and the entry points its adapters call (notices in, resync,
/// leases). The owner's part is `LiveOwner+Cluster`, the copy's `LiveCopy`; leases `LiveLeases`;
/// reading games and joins through the database `LiveSync`; the notices' wire shape `LiveNotice`.
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

    /// One notice from the channel (this instance's own are skipped): handed to the role that
    /// holds its game here (`LiveOwner.received`, `LiveCopy.received`).
    package func received(_ text: String) async {
        guard let cluster = context.cluster, let (gameId, sender, notice) = LiveNotice.read(text), sender != cluster.instance,
              let room = context.rooms.room(id: gameId) else { return }
        await context.role(of: room).received(notice, in: room)
    }

    /// The listening connection is (again) up: notices may have been missed, so every game held
    /// here is brought up to date with the database.
    package func resync() async {
        for room in context.rooms.all { context.role(of: room).resync(room) }
    }

    /// The game `gameId`, read from the database as a copy when it is not held here yet.
    package func loadRoom(id: Int64) async {
        await LiveSync(context: context).loadRoom(id: id)
    }

    /// Renews this instance's leases and takes games whose lease ran out (their owner died or lost
    /// the database): each is read again from the database and its clock goes on here.
    package func maintainLeases() async {
        await LiveLeases(context: context).maintain()
    }

    /// Shutting down: this instance stops running its games and lets go of their leases, so
    /// another instance takes them at its next renewal (within a second) instead of waiting for
    /// the leases to run out. Answers already acknowledged are stored; the players reconnect.
    package func releaseLeases() async {
        await LiveLeases(context: context).release()
    }
}
