import Foundation
import QuizCore
import QuizUseCases
import Synchronization

/// One open socket's way out: messages queue here and one task writes them, so a broadcast never
/// waits for a slow phone. A phone that falls this far behind is dropped; it reconnects and
/// catches up from the game's state.
final class LiveConnection: Sendable {
    static let maxQueued = 256
    let id: UInt64
    private let continuation: AsyncStream<String>.Continuation
    let outgoing: AsyncStream<String>

    init(id: UInt64) {
        self.id = id
        (outgoing, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(Self.maxQueued))
    }

    func send(_ text: String) {
        if case .dropped = continuation.yield(text) { continuation.finish() }
    }

    func close() { continuation.finish() }
}

/// The sockets of every game on this server, and the `LiveOutbox` the games send through: each
/// event is written to text once per audience (per player only where it differs).
final class LiveHub: LiveOutbox, Sendable {
    private struct Sockets {
        var hosts: [UInt64: LiveConnection] = [:]
        var players: [Int: [UInt64: LiveConnection]] = [:]
        /// The host's roster, at most one per `rosterInterval`: the latest waits for its turn.
        var pendingRoster: LiveEvent?
        var rosterScheduled = false
        var rosterSentAt = Date.distantPast
    }

    /// A crowd joining sends a roster per join; the host's screen needs a few a second, and each
    /// is up to 500 players of JSON (at 10,000 joins that was most of the server's join work).
    static let rosterInterval: TimeInterval = 0.25

    private let games = Mutex<[Int64: Sockets]>([:])
    private let nextId = Atomic<UInt64>(1)
    let time: any TimeSource

    init(time: any TimeSource) {
        self.time = time
    }

    /// The players of a game with a socket open here.
    func connectedPlayers(gameId: Int64) -> Set<Int> {
        games.withLock { Set($0[gameId]?.players.keys ?? [:].keys) }
    }

    /// Players with a socket open here, over every game (one player with two tabs counts once).
    var connectedPlayerCount: Int {
        games.withLock { $0.values.reduce(0) { $0 + $1.players.count } }
    }

    func makeConnection() -> LiveConnection {
        LiveConnection(id: nextId.add(1, ordering: .relaxed).newValue)
    }

    func addHost(_ connection: LiveConnection, gameId: Int64) {
        games.withLock { $0[gameId, default: Sockets()].hosts[connection.id] = connection }
    }

    func addPlayer(_ connection: LiveConnection, playerId: Int, gameId: Int64) {
        games.withLock { $0[gameId, default: Sockets()].players[playerId, default: [:]][connection.id] = connection }
    }

    /// Forgets a socket; returns whether the game still has a host socket.
    @discardableResult
    func remove(_ connection: LiveConnection, gameId: Int64, playerId: Int?) -> Bool {
        games.withLock { games in
            guard var sockets = games[gameId] else { return false }
            if let playerId {
                sockets.players[playerId]?[connection.id] = nil
                if sockets.players[playerId]?.isEmpty == true { sockets.players[playerId] = nil }
            } else {
                sockets.hosts[connection.id] = nil
            }
            games[gameId] = sockets.hosts.isEmpty && sockets.players.isEmpty ? nil : sockets
            return !sockets.hosts.isEmpty
        }
    }

    func send(_ event: LiveEvent, gameId: Int64, to audience: LiveAudience) {
        if case .players = event, audience == .host {
            let now = time.now()
            let wait: TimeInterval? = games.withLock { games in
                guard var sockets = games[gameId] else { return nil }
                defer { games[gameId] = sockets }
                let since = now.timeIntervalSince(sockets.rosterSentAt)
                if !sockets.rosterScheduled, since >= Self.rosterInterval || since < 0 {
                    sockets.rosterSentAt = now
                    return 0
                }
                sockets.pendingRoster = event
                if sockets.rosterScheduled { return nil }
                sockets.rosterScheduled = true
                return min(Self.rosterInterval, max(0, Self.rosterInterval - since))
            }
            guard let wait else { return }
            if wait > 0 {
                Task {
                    try? await Task.sleep(for: .milliseconds(Int(wait * 1000) + 1))
                    flushRoster(gameId: gameId)
                }
                return
            }
        }
        deliver(event, gameId: gameId, to: audience)
    }

    /// Sends the roster that waited for its turn.
    private func flushRoster(gameId: Int64) {
        let now = time.now()
        let roster: LiveEvent? = games.withLock { games in
            guard var sockets = games[gameId] else { return nil }
            defer { games[gameId] = sockets }
            let roster = sockets.pendingRoster
            sockets.pendingRoster = nil
            sockets.rosterScheduled = false
            sockets.rosterSentAt = now
            return roster
        }
        if let roster { deliver(roster, gameId: gameId, to: .host) }
    }

    private func deliver(_ event: LiveEvent, gameId: Int64, to audience: LiveAudience) {
        let (hosts, players, connected): ([LiveConnection], [(Int, LiveConnection)], Set<Int>) = games.withLock { games in
            guard let sockets = games[gameId] else { return ([], [], []) }
            let hosts = audience == .host || audience == .everyone ? Array(sockets.hosts.values) : []
            var players: [(Int, LiveConnection)] = []
            switch audience {
            case .players, .everyone:
                players.reserveCapacity(sockets.players.count)
                for (id, connections) in sockets.players { for connection in connections.values { players.append((id, connection)) } }
            case .player(let id):
                for connection in sockets.players[id]?.values ?? [:].values { players.append((id, connection)) }
            case .host:
                break
            }
            if case .ended = event { games[gameId] = nil }  // the sockets close after this message
            // Only the players the roster shows (the first 500): a set of every socket on each join
            // would cost a stadium's join phase its square.
            var connected: Set<Int> = []
            if case .players(let roster, _) = event, !hosts.isEmpty {
                for player in roster.lazy.filter({ !$0.kicked }).prefix(LiveMessages.rosterSize) where sockets.players[player.id] != nil {
                    connected.insert(player.id)
                }
            }
            return (hosts, players, connected)
        }
        let now = time.now()
        if !hosts.isEmpty, let text = LiveMessages.shared(event, host: true, now: now, connected: connected) {
            for host in hosts { host.send(text) }
        }
        guard !players.isEmpty else {
            if case .ended = event { for host in hosts { host.close() } }
            return
        }
        switch event {
        case .question(let view, let shuffle) where shuffle:
            for (id, connection) in players { connection.send(LiveMessages.question(view.shuffled(gameId: gameId, playerId: id), now: now)) }
        case .result(let result):
            let text = LiveMessages.result(result)
            for (_, connection) in players { connection.send(text) }
        case .kicked:
            for (_, connection) in players {
                connection.send(LiveMessages.kicked)
                connection.close()
            }
        case .ended(let podium, let standings, let teams):
            let byId = Dictionary(standings.map { ($0.player.id, $0) }, uniquingKeysWith: { first, _ in first })
            let base: [String: Any] = ["type": "ended", "podium": podium.map(LiveMessages.standing), "teams": LiveMessages.teams(teams)]
            for (id, connection) in players {
                var object = base
                object["you"] = LiveMessages.you(byId[id])
                connection.send(LiveMessages.text(object))
                connection.close()
            }
            for host in hosts { host.close() }
        default:
            guard let text = LiveMessages.shared(event, host: false, now: now) else { return }
            for (_, connection) in players { connection.send(text) }
        }
    }
}
