import Foundation
import QuizCore
import Synchronization

/// How this instance holds a game, kept in its room (`LiveRoom.holding`); it picks the `LiveRole`
/// that plays the game here.
///
/// On one instance (SQLite) every game is `owner`, from its creation or its restore on. Across
/// instances (PostgreSQL) it changes only at these moments:
/// - hosted here: `owner` (the game is created with this instance's lease);
/// - restored after a restart, or read from the database for a socket here: `copy`;
/// - its lease taken over from an instance that died or stalled (`LiveLeases.maintain`): `owner`;
/// - its lease found lost — a renewal, a state write or the answer log refused by the database —
///   or let go on shutting down: `copy` (`LiveLeases.lost`, `LiveLeases.release`).
enum LiveHolding: UInt8, AtomicRepresentable, Sendable {
    /// This instance runs the game: its clock, its scoring, its state.
    case owner
    /// A copy read from the database of a game another instance runs.
    case copy
}

/// What hosting and playing a game does on this instance that depends on how it holds the game:
/// `LiveOwner` runs it, `LiveCopy` shows another instance's game to the sockets here.
/// `LiveGames` finds the room and hands over to `LiveContext.role(of:)`.
protocol LiveRole: Sendable {
    /// A new player: numbered by the owner in memory on one instance, by the database across instances.
    func join(_ room: LiveRoom, nickname: String, userId: Int64?, team: Int?, secret: String, code: String)
        async throws(LiveGames.Failure) -> LiveGames.Joined
    /// Stores an answer `room` took (graded there, once) and returns it once it is stored; one
    /// that cannot be stored is given back (`LiveRoom.withdraw`) and refused.
    func keep(_ taken: LiveRoom.Taken, in room: LiveRoom, stored: @Sendable (LiveAnswer) -> Void)
        async throws(LiveGames.Failure) -> LiveAnswer
    /// A host's command (the host already checked).
    func command(_ command: LiveGames.HostCommand, in room: LiveRoom) async throws(LiveGames.Failure)
    /// The host's socket on this instance came or went.
    func hostConnected(_ connected: Bool, in room: LiveRoom)
    /// A notice from another instance about this game.
    func received(_ notice: LiveNotice, in room: LiveRoom) async
    /// Notices may have been missed (the listening connection came back): catch up with the database.
    func resync(_ room: LiveRoom)
    /// Brings the game up to date with the database (a player who joined elsewhere is resuming here).
    func refresh(_ room: LiveRoom) async
}

extension LiveContext {
    /// The part that plays `room` on this instance, as it holds the game now. (Both are a
    /// reference to this context: choosing one costs no allocation.)
    func role(of room: LiveRoom) -> any LiveRole {
        switch room.holding {
        case .owner: LiveOwner(context: self)
        case .copy: LiveCopy(context: self)
        }
    }
}
