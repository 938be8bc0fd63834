import Foundation
import QuizCore
import QuizUseCases

/// Greetings: who a socket is (a signed-in host, a player joining, resuming or rejoining), and
/// the game's state a socket gets once it is someone.
extension LiveSocket {
    /// A signed-in user's `host`: their game's view, then its state.
    func host(gameId: Int64, session: Session) async throws {
        try await games.countGreeting(from: session.address)
        guard let user = try await signedInUser(session.token) else {
            throw Refusal("not-host", "Sign in as the game's host to run it.", "host")
        }
        await games.loadRoom(id: gameId)
        let game = try games.hostView(gameId: gameId, userId: user.id)
        let connection = session.connection
        session.role = .host(gameId: gameId, userId: user.id)
        hub.addHost(connection, gameId: gameId)
        connection.send(LiveMessages.hosting(game, joinURL: Self.joinURL(pin: game.pin, authority: session.authority, publicURL: publicURL)))
        games.hostConnected(true, gameId: gameId)
        catchUp(connection, gameId: gameId, audience: .host)
    }

    /// A player's `join`, `resume` or `rejoin` accepted: the player's socket, then the game's state.
    func enter(_ joined: LiveGames.Joined, session: Session) {
        session.role = .player(gameId: joined.game.id, playerId: joined.player.id)
        hub.addPlayer(session.connection, playerId: joined.player.id, gameId: joined.game.id)
        session.connection.send(LiveMessages.joined(joined))
        catchUp(session.connection, gameId: joined.game.id, audience: .player(joined.player.id))
    }

    private func catchUp(_ connection: LiveConnection, gameId: Int64, audience: LiveAudience) {
        let now = time.now()
        for event in games.catchUp(gameId: gameId, audience: audience) {
            switch event {
            case .result(let result): connection.send(LiveMessages.result(result))
            case .question(let view, let shuffle):
                if case .player(let id) = audience, shuffle {
                    connection.send(LiveMessages.question(view.shuffled(playerId: id), now: now, host: false))
                } else {
                    connection.send(LiveMessages.question(view, now: now, host: audience == .host))
                }
            case .ended(let podium, let standings, let teams):
                if case .player(let id) = audience {
                    connection.send(LiveMessages.ended(podium: podium, teams: teams, for: .player(standings.first { $0.player.id == id })))
                } else {
                    connection.send(LiveMessages.ended(podium: podium, teams: teams, for: .host(standings: standings)))
                }
            default:
                var connected: Set<Int> = []
                if audience == .host, case .players = event { connected = hub.connectedMarks(for: event, gameId: gameId) }
                if let text = LiveMessages.shared(event, host: audience == .host, now: now, connected: connected) { connection.send(text) }
            }
        }
    }

    /// nil without a valid session; a database that cannot be asked is an error, not "signed out"
    /// (a host would be told they are not the host, a player would join under a nickname).
    func signedInUser(_ token: String?) async throws -> User? {
        guard let token else { return nil }
        do {
            return try await sessions.user(token: token)
        } catch is Sessions.Failure {
            return nil
        }
    }
}
