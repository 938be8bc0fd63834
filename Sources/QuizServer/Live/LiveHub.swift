import Foundation
import NIOCore
import QuizCore
import QuizUseCases
import Synchronization

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
        /// The roster the hosts last got, with whom it listed and whom it marked connected: a
        /// player whose socket opens after it went out is marked by sending it again.
        var lastRoster: LiveEvent?
        var lastListed: Set<Int> = []
        var lastConnected: Set<Int> = []
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

    /// Players with a socket open here, over every game (one player with two tabs counts once).
    var connectedPlayerCount: Int {
        games.withLock { $0.values.reduce(0) { $0 + $1.players.count } }
    }

    func makeConnection(channel: any Channel) -> LiveConnection {
        LiveConnection(id: nextId.add(1, ordering: .relaxed).newValue, channel: channel)
    }

    func addHost(_ connection: LiveConnection, gameId: Int64) {
        games.withLock { $0[gameId, default: Sockets()].hosts[connection.id] = connection }
    }

    func addPlayer(_ connection: LiveConnection, playerId: Int, gameId: Int64) {
        let stale: LiveEvent? = games.withLock { games in
            games[gameId, default: Sockets()].players[playerId, default: [:]][connection.id] = connection
            guard let sockets = games[gameId], !sockets.hosts.isEmpty, !sockets.rosterScheduled,
                  sockets.lastListed.contains(playerId), !sockets.lastConnected.contains(playerId) else { return nil }
            return sockets.lastRoster
        }
        // The roster of a join goes out before the player's socket is added here (and a resume
        // sends none): the host's list would show the player away until the next change.
        if let stale { send(stale, gameId: gameId, to: .host) }
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

    /// The reveal and each player's result: both frames in one write per socket (one system call
    /// where there were two; at 10,000 players the writes are most of a question's end).
    func send(_ event: LiveEvent, gameId: Int64, to audience: LiveAudience, then results: [(playerId: Int, result: LivePlayerResult)]) {
        switch event {
        case .players, .question, .result, .kicked, .ended:
            send(event, gameId: gameId, to: audience)
            sendResults(results, gameId: gameId)
        default:
            deliver(event, gameId: gameId, to: audience, then: results)
        }
    }

    /// Each player's result, to every socket of theirs here: one lock, one write task per event loop.
    func sendResults(_ results: [(playerId: Int, result: LivePlayerResult)], gameId: Int64) {
        let sockets: [(Int, [LiveConnection])] = games.withLock { games in
            guard let sockets = games[gameId] else { return [] }
            return results.indices.compactMap { index in
                sockets.players[results[index].playerId].map { (index, Array($0.values)) }
            }
        }
        var messages: [LiveConnection.Outgoing] = []
        messages.reserveCapacity(sockets.count)
        for (index, connections) in sockets {
            let bytes = ByteBuffer(string: LiveMessages.result(results[index].result))
            for connection in connections { messages.append((connection, bytes, nil)) }
        }
        LiveConnection.send(messages)
    }

    /// Whom a roster about to go to the hosts shows connected (of the first 500 it lists); kept,
    /// so a player whose socket opens after it is marked by sending it again.
    private static func marking(_ event: LiveEvent, of games: inout [Int64: Sockets], gameId: Int64) -> Set<Int> {
        guard case .players(let roster, _) = event, let sockets = games[gameId] else { return [] }
        var listed: Set<Int> = []
        var connected: Set<Int> = []
        for player in roster.lazy.filter({ !$0.kicked }).prefix(LiveMessages.rosterSize) {
            listed.insert(player.id)
            if sockets.players[player.id] != nil { connected.insert(player.id) }
        }
        games[gameId]?.lastRoster = event
        games[gameId]?.lastListed = listed
        games[gameId]?.lastConnected = connected
        return connected
    }

    /// The players a host's screen catching up sees connected, remembered as the last roster.
    func connectedMarks(for roster: LiveEvent, gameId: Int64) -> Set<Int> {
        games.withLock { Self.marking(roster, of: &$0, gameId: gameId) }
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

    /// `results`: only with an event every player gets alike (the `default` case below).
    private func deliver(_ event: LiveEvent, gameId: Int64, to audience: LiveAudience,
                         then results: [(playerId: Int, result: LivePlayerResult)] = []) {
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
            if !hosts.isEmpty { connected = Self.marking(event, of: &games, gameId: gameId) }
            return (hosts, players, connected)
        }
        let now = time.now()
        if !hosts.isEmpty, let text = LiveMessages.shared(event, host: true, now: now, connected: connected) {
            let bytes = ByteBuffer(string: text)
            LiveConnection.send(hosts.map { ($0, bytes, nil) })
        }
        guard !players.isEmpty else {
            if case .ended = event { for host in hosts { host.close() } }
            return
        }
        switch event {
        case .question(let view, let shuffle) where shuffle:
            // Phones get no clip here (`host: false`): only with soundOnPhones, which the view carries.
            let question = LiveMessages.shuffledQuestions(view, now: now)
            LiveConnection.send(players.map { id, connection in (connection, ByteBuffer(string: question(id)), nil) })
        case .result(let result):
            let bytes = ByteBuffer(string: LiveMessages.result(result))
            LiveConnection.send(players.map { ($0.1, bytes, nil) })
        case .kicked:
            let bytes = ByteBuffer(string: LiveMessages.kicked)
            LiveConnection.send(players.map { ($0.1, bytes, nil) })
            for (_, connection) in players { connection.close() }
        case .ended(let podium, let standings, let teams):
            let byId = Dictionary(standings.map { ($0.player.id, $0) }, uniquingKeysWith: { first, _ in first })
            LiveConnection.send(players.map { id, connection in
                (connection, ByteBuffer(string: LiveMessages.ended(podium: podium, teams: teams, for: .player(byId[id]))), nil)
            })
            for (_, connection) in players { connection.close() }
            for host in hosts { host.close() }
        default:
            guard let text = LiveMessages.shared(event, host: false, now: now) else { return }
            let bytes = ByteBuffer(string: text)
            guard !results.isEmpty else {
                LiveConnection.send(players.map { ($0.1, bytes, nil) })
                return
            }
            var own: [Int: ByteBuffer] = [:]
            own.reserveCapacity(results.count)
            for (playerId, result) in results { own[playerId] = ByteBuffer(string: LiveMessages.result(result)) }
            LiveConnection.send(players.map { ($0.1, bytes, own[$0.0]) })
        }
    }
}
