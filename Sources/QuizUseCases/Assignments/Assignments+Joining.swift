import Foundation
import Logging
import QuizCore
import QuizStore

/// Joining an assignment and coming back to it, as a live game's players do: a nickname (the
/// live game's rules) and a secret the browser keeps, a rejoin code for another device, or the
/// signed-in account. Every try counts against the address, so codes and secrets cannot be
/// guessed for free.
extension Assignments {
    package struct Joined: Sendable, Equatable {
        package var assignment: Assignment
        package var playerId: Int64
        package var nickname: String
        /// Kept by the browser; only its hash is stored.
        package var secret: String
        /// Shown to the player for coming back on another device; nil on a resume (only its hash is kept).
        package var code: String?

        package var pass: Pass { .secret(playerId: playerId, secret: secret) }
    }

    /// Joins the assignment with this code: signed in under the username (the same player when
    /// they join again), otherwise under a nickname nobody in it has taken. Joining is refused
    /// once it closes; before it opens a player may join and wait. A class assignment takes only
    /// its class's students, signed in (`signInRequired`, `notInClass`).
    package func join(code: String, nickname: String, user: User?, address: String) async throws(Failure) -> Joined {
        try await countTry(from: address)
        let now = time.now()
        return try await storing("joining an assignment") {
            guard let assignment = try await store.assignment(code: code.trimmingCharacters(in: .whitespaces)) else {
                throw Failure.assignmentNotFound
            }
            if let classId = assignment.classId {
                // A class assignment: its students only, signed in (the teacher may try it too).
                guard let user else { throw Failure.signInRequired }
                let member = try await store.isClassMember(classId: classId, userId: user.id)
                guard member || assignment.ownerUserId == user.id else { throw Failure.notInClass }
            }
            if let user, let existing = try await store.assignmentPlayer(assignmentId: assignment.id, userId: user.id) {
                return try await reissue(existing, in: assignment, code: nil)
            }
            guard assignment.window(at: now) != .closed else { throw Failure.closed }
            let name: String
            do { name = try Nickname.checked(user?.username ?? nickname, username: user != nil) } catch { throw Failure.nicknameInvalid }
            let secret = SessionTokens.make(), rejoin = LiveGames.makeCode()
            // A username a look-alike nickname took first becomes "name (2)", as in a live game.
            let names = user == nil ? [name] : [name] + (2...9).map { "\(name) (\($0))" }
            for candidate in names {
                let record = AssignmentPlayerRecord(assignmentId: assignment.id, nickname: candidate, userId: user?.id,
                                                    secretHash: SessionTokens.hash(secret), codeHash: SessionTokens.hash(rejoin), joinedAt: now)
                if let added = try await store.addAssignmentPlayer(record) {
                    return Joined(assignment: assignment, playerId: added.id, nickname: added.nickname, secret: secret, code: rejoin)
                }
                if let user, let existing = try await store.assignmentPlayer(assignmentId: assignment.id, userId: user.id) {
                    // The same account joined at the same moment elsewhere.
                    return try await reissue(existing, in: assignment, code: nil)
                }
            }
            throw Failure.nicknameTaken
        }
    }

    /// Comes back with the secret the browser kept.
    package func resume(playerId: Int64, secret: String, address: String) async throws(Failure) -> Joined {
        try await countTry(from: address)
        let (player, assignment) = try await identify(.secret(playerId: playerId, secret: secret))
        return Joined(assignment: assignment, playerId: player.id, nickname: player.nickname, secret: secret, code: nil)
    }

    /// Comes back on another device with the nickname and the rejoin code; the old secret stops working.
    package func rejoin(code: String, nickname: String, rejoinCode: String, address: String) async throws(Failure) -> Joined {
        try await countTry(from: address)
        return try await storing("rejoining an assignment") {
            guard let assignment = try await store.assignment(code: code.trimmingCharacters(in: .whitespaces)) else {
                throw Failure.assignmentNotFound
            }
            guard let player = try await store.assignmentPlayer(assignmentId: assignment.id, nickname: nickname),
                  player.userId == nil, player.codeHash == SessionTokens.hash(LiveGames.normalizedCode(rejoinCode)) else {
                throw Failure.badRejoin
            }
            return try await reissue(player, in: assignment, code: LiveGames.normalizedCode(rejoinCode))
        }
    }

    /// A new secret for a player coming back; the old one stops working.
    private func reissue(_ player: AssignmentPlayerRecord, in assignment: Assignment, code: String?) async throws -> Joined {
        let secret = SessionTokens.make()
        try await store.replaceAssignmentSecret(playerId: player.id, secretHash: SessionTokens.hash(secret))
        return Joined(assignment: assignment, playerId: player.id, nickname: player.nickname, secret: secret, code: code)
    }

    /// The player a pass names, and their assignment. A wrong secret, another player's, or a
    /// signed-in user who has not joined: `notResumable`, the same for all.
    func identify(_ pass: Pass, assignmentId: Int64? = nil) async throws(Failure) -> (AssignmentPlayerRecord, Assignment) {
        try await storing("reading an assignment's player") {
            let player: AssignmentPlayerRecord?
            switch pass {
            case .secret(let id, let secret):
                player = try await store.assignmentPlayer(id: id).flatMap { $0.secretHash == SessionTokens.hash(secret) ? $0 : nil }
            case .user(let userId):
                guard let assignmentId else { throw Failure.notResumable }
                player = try await store.assignmentPlayer(assignmentId: assignmentId, userId: userId)
            }
            guard let player, assignmentId == nil || player.assignmentId == assignmentId,
                  let assignment = try await store.assignment(id: player.assignmentId) else { throw Failure.notResumable }
            return (player, assignment)
        }
    }

    /// Counts a join, resume or rejoin against its address (the live joins' rule).
    private func countTry(from address: String) async throws(Failure) {
        let allowed: Bool
        do {
            allowed = try await joins.allow(keys: ["assignment-join:" + AddressKey.of(address)])
        } catch {
            logger.error("counting an assignment join failed", metadata: ["error": "\(error)"])
            throw .notNow
        }
        guard allowed else { throw .rateLimited }
    }
}
