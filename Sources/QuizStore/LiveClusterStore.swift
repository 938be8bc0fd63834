import Foundation
import QuizCore

/// What live games need from the database when several instances share it (PostgreSQL): a lease
/// per game naming the instance that runs its clock and scoring, joins numbered by the database,
/// and answers taken on other instances checked against the game's stored phase.
public protocol LiveClusterStore: LiveGameStore {
    /// Stores a new game as `createLiveGame` does, with its lease already `owner`'s for `seconds`
    /// (in one statement: no instance renewing its leases ever finds it without an owner).
    func createOwnedLiveGame(_ game: LiveGameRecord, owner: String, seconds: Int) async throws -> Int64?
    /// Stores a game's state as `saveLiveGame` does, but only while `owner` holds its lease: false
    /// (nothing written) when another instance runs the game now. (A state the database leaves
    /// alone for its own reasons, an ended game or a closed question, is still the owner's: true.)
    func saveOwnedLiveGame(_ game: LiveGameRecord, owner: String) async throws -> Bool
    /// Extends every lease `owner` holds on a running game; returns those games.
    func renewLiveLeases(owner: String, seconds: Int) async throws -> [Int64]
    /// Lets go of every lease `owner` holds (shutting down): another instance takes its games at once.
    func releaseLiveLeases(owner: String) async throws
    /// Takes every running game whose lease ran out (or that has none); returns them.
    func takeExpiredLiveGames(owner: String, seconds: Int) async throws -> [Int64]
    /// Whether an instance holds the running game's lease now (false in the seconds after its
    /// owner died, until another takes it).
    func liveGameIsOwned(gameId: Int64) async throws -> Bool
    /// Ends question `index` in the database (phase `reveal`) if `owner` still holds the game and
    /// the question is open there, and returns every answer stored for it. Answers checked by
    /// `saveCheckedLiveAnswer` are either in what it returns or refused.
    func closeLiveQuestion(gameId: Int64, index: Int, owner: String) async throws -> LiveCloseOutcome
    /// Stores answers the owner took (its group commit), only for games `owner` still holds: each
    /// game's row is held `FOR SHARE` meanwhile, so another instance takes a game over (and ends its
    /// question) either after these are stored, counting them, or before, and they are refused.
    /// Returns the games whose answers were refused.
    func saveOwnedLiveAnswers(_ answers: [LiveAnswerRecord], owner: String) async throws -> Set<Int64>
    /// Stores an answer taken by an instance that does not own the game, if its question is still
    /// open in the database; `notice` is sent (NOTIFY) with it.
    func saveCheckedLiveAnswer(_ record: LiveAnswerRecord, notice: String) async throws -> LiveAnswerOutcome
    /// A join numbered by the database: the game's row is locked, so joins on every instance queue.
    func joinLivePlayer(_ record: LivePlayerRecord, teams: Int, limit: Int, notice: String) async throws -> LiveJoinOutcome
    /// The players numbered after `after` (those who joined since), in order.
    func livePlayers(gameId: Int64, after: Int) async throws -> [LivePlayerRecord]
    /// The answers to one question.
    func liveAnswers(gameId: Int64, questionIndex: Int) async throws -> [LiveAnswerRecord]
    /// The running game with this PIN.
    func runningLiveGame(pin: String) async throws -> LiveGameRecord?
    /// Sends `payload` to every instance listening (PostgreSQL NOTIFY on `LiveNotifications.channel`).
    func notifyLive(_ payload: String) async throws
}

public enum LiveCloseOutcome: Sendable, Equatable {
    /// Every answer stored for the question.
    case closed([LiveAnswerRecord])
    /// Another instance holds the game now.
    case notOwner
    /// The database does not have that question open: `index` is the question it has (an earlier
    /// one while the question's state is not stored yet, or its write failed; the same one when
    /// another close got there first).
    case notOpen(index: Int)
}

public enum LiveAnswerOutcome: Sendable, Equatable {
    case stored
    /// The player's first answer to that question is already stored.
    case duplicate
    /// The question is no longer open.
    case closed
}

public enum LiveJoinOutcome: Sendable, Equatable {
    /// The player's id and team.
    case joined(id: Int, team: Int?)
    case nicknameTaken, locked, full, ended
}
