import Foundation
import Logging
import QuizCore
import QuizStore

/// Playing: joining, coming back, answering.
extension LiveGames {
    /// Joins the game with this PIN. A signed-in player plays under their username.
    package func join(pin: String, nickname: String, user: User?, team: Int?, address: String) async throws(Failure) -> Joined {
        try await countGreeting(from: address)
        guard let room = await LiveSync(context: context).loadRoom(pin: pin) else { throw .unknownGame }
        // A signed-in player joining again (another tab, another device) is the same player.
        if let user, let existing = room.player(userId: user.id) {
            guard !existing.kicked else { throw .game(.kicked) }
            return try await reissue(existing, in: room, code: nil)
        }
        return try await context.role(of: room).join(room, nickname: user?.username ?? nickname, userId: user?.id, team: team,
                                                      secret: SessionTokens.make(), code: Self.makeCode())
    }

    /// Counts a greeting (host, join, resume, rejoin) against its address; a count that cannot be
    /// kept (the shared table on PostgreSQL unreachable) is "try again", not "too many tries".
    package func countGreeting(from address: String) async throws(Failure) {
        let allowed: Bool
        do {
            allowed = try await joins.allow(keys: ["live-join:" + AddressKey.of(address)])
        } catch {
            context.logger.error("counting a live join failed", metadata: ["error": "\(error)"])
            throw .game(.notNow)
        }
        guard allowed else { throw .rateLimited }
    }

    /// Comes back with the secret the browser kept.
    /// Counted against the address like a join: a socket may not try secrets (or PINs) for free.
    package func resume(pin: String, playerId: Int, secret: String, address: String) async throws(Failure) -> Joined {
        try await countGreeting(from: address)
        guard let room = await LiveSync(context: context).loadRoom(pin: pin) else { throw .notResumable }
        var resumed = room.resume(playerId: playerId, secretHash: SessionTokens.hash(secret))
        if resumed == nil, context.cluster != nil {
            // Joined or rejoined on another instance since this copy was read.
            await context.role(of: room).refresh(room)
            resumed = room.resume(playerId: playerId, secretHash: SessionTokens.hash(secret))
        }
        guard let (player, code) = resumed else { throw .notResumable }
        guard !player.kicked else { throw .game(.kicked) }
        return Joined(player: player, secret: secret, code: code, game: room.snapshot())
    }

    /// Comes back from another device with the nickname and the short code; the old secret stops working.
    package func rejoin(pin: String, nickname: String, code: String, address: String) async throws(Failure) -> Joined {
        try await countGreeting(from: address)
        guard let room = await LiveSync(context: context).loadRoom(pin: pin) else { throw .unknownGame }
        let normalized = Self.normalizedCode(code)
        var found = room.player(nickname: nickname, codeHash: SessionTokens.hash(normalized))
        if found == nil, context.cluster != nil {
            await context.role(of: room).refresh(room)
            found = room.player(nickname: nickname, codeHash: SessionTokens.hash(normalized))
        }
        guard let player = found else { throw .badRejoin }
        guard !player.kicked else { throw .game(.kicked) }
        return try await reissue(player, in: room, code: normalized)
    }

    /// A new secret for a player coming back on another device; the old one stops working.
    private func reissue(_ player: LivePlayer, in room: LiveRoom, code: String?) async throws(Failure) -> Joined {
        let secret = SessionTokens.make()
        let hash = SessionTokens.hash(secret)
        do {
            try await context.store.replaceLiveSecret(gameId: room.id, playerId: player.id, secretHash: hash)
        } catch {
            context.logger.error("storing a rejoin failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            throw .game(.notNow)
        }
        room.keep(secretHash: hash, codeHash: nil, for: player.id)
        return Joined(player: player, secret: secret, code: code, game: room.snapshot())
    }

    /// Takes a player's answer to the open question: the room grades and takes it, once; how this
    /// instance holds the game decides how it is stored (`LiveRole.keep`). `stored` runs once it is
    /// stored, before what it changed (the question's end, when it was the last answer) is sent.
    package func answer(_ input: AnswerInput, question: Int, playerId: Int, gameId: Int64,
                        stored: @Sendable (LiveAnswer) -> Void = { _ in }) async throws(Failure) -> LiveAnswer {
        guard let room = context.rooms.room(id: gameId) else { throw .unknownGame }
        // The same rule of one field and limits as a quiz's answer; the game grades it.
        let answer: Answer
        do { answer = try input.answer() } catch { throw .game(.badAnswer) }
        let taken: LiveRoom.Taken
        do {
            taken = try room.take(answer, question: question, playerId: playerId, now: context.time.now())
        } catch {
            throw .game(error)
        }
        return try await context.role(of: room).keep(taken, in: room, stored: stored)
    }

    /// The events that bring a (re)connected socket up to date.
    package func catchUp(gameId: Int64, audience: LiveAudience) -> [LiveEvent] {
        context.rooms.room(id: gameId)?.catchUp(audience) ?? []
    }

    // MARK: Codes

    /// Six characters without the ones people confuse (0/O, 1/I/L).
    static let codeAlphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")

    static func makeCode() -> String {
        String((0..<6).map { _ in codeAlphabet.randomElement()! })
    }

    /// A rejoin code as typed, as it is compared: spaces around it dropped, letters in capitals.
    static func normalizedCode(_ code: String) -> String {
        code.trimmingCharacters(in: .whitespaces).uppercased()
    }
}
