import Foundation
import NIOCore
import NIOWebSocket
import QuizCore
import QuizUseCases
import Synchronization

/// One open socket's way out, written straight into its channel: a broadcast writes to every socket
/// of an event loop in one task on that loop, and the bytes of a message are shared by every socket
/// that gets it (a task and a queue per socket were a quarter of a 10,000-player question's CPU
/// and a good part of each player's memory). Writes are never awaited, so a slow phone never holds
/// a broadcast up; one whose socket holds more than `maxBuffered` unsent bytes has fallen behind and
/// is dropped: it reconnects and catches up from the game's state.
final class LiveConnection: Sendable {
    /// The socket's send buffer (NIO's high water mark; a host's roster is up to 500 players).
    static let maxBuffered = 1 << 20
    /// How long a closing socket waits for the phone's close frame before it just closes.
    static let closeTimeout = TimeAmount.seconds(15)
    let id: UInt64
    let channel: any Channel
    /// Nothing more is written: the close frame went, or the socket is gone.
    private let closed = Atomic<Bool>(false)
    /// A ping went unanswered so far.
    private let awaitingPong = Atomic<Bool>(false)

    init(id: UInt64, channel: any Channel) {
        self.id = id
        self.channel = channel
    }

    var isClosed: Bool { closed.load(ordering: .relaxed) }

    /// The socket's send buffer may hold `maxBuffered` bytes before the phone counts as behind.
    func prepare() {
        channel.setOption(ChannelOptions.writeBufferWaterMark, value: .init(low: Self.maxBuffered / 2, high: Self.maxBuffered))
            .whenFailure { _ in }
    }

    func send(_ text: String) {
        Self.send([(self, ByteBuffer(string: text), nil)])
    }

    /// A message for a socket, and maybe a second one right after it in the same write.
    typealias Outgoing = (connection: LiveConnection, bytes: ByteBuffer, then: ByteBuffer?)

    /// Writes each message to its socket: one task per event loop, in the order given.
    static func send(_ messages: [Outgoing]) {
        guard let first = messages.first?.0.channel.eventLoop else { return }
        // Almost always every socket is on one of a few loops: group without hashing when they agree.
        if messages.allSatisfy({ $0.0.channel.eventLoop === first }) {
            first.execute { write(messages) }
            return
        }
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, messages: [Outgoing])] = [:]
        for message in messages {
            let loop = message.0.channel.eventLoop
            byLoop[ObjectIdentifier(loop), default: (loop, [])].messages.append(message)
        }
        for (loop, group) in byLoop.values { loop.execute { write(group) } }
    }

    /// On the sockets' loop.
    private static func write(_ messages: [Outgoing]) {
        for (connection, bytes, then) in messages where !connection.closed.load(ordering: .relaxed) {
            let channel = connection.channel
            guard channel.isActive else { continue }
            guard channel.isWritable else {
                // Behind by a megabyte: drop it; it comes back through resume.
                connection.closed.store(true, ordering: .relaxed)
                channel.close(promise: nil)
                continue
            }
            channel.write(WebSocketFrame(fin: true, opcode: .text, data: bytes), promise: nil)
            if let then { channel.write(WebSocketFrame(fin: true, opcode: .text, data: then), promise: nil) }
        }
        // One flush, one system call, per socket for everything this task wrote to it.
        for message in messages { message.connection.channel.flush() }
    }

    /// Closes the socket after what was sent before (kicked, the game over, the server stopping):
    /// on the loop, in turn after the writes already queued, a close frame; the socket itself
    /// closes when the phone answers it (`LiveSocketHandler`) or after `closeTimeout`. Without
    /// `waitForAnswer` (the phone's frames can no longer be read) the sending side is shut once the
    /// frame is out, and the socket closes when the phone closes its end or after `timeout`: closing
    /// it with the phone's bytes unread would reset it, and the phone would lose what was sent.
    func close(_ code: WebSocketErrorCode = .normalClosure, waitForAnswer: Bool = true, timeout: TimeAmount = closeTimeout) {
        channel.eventLoop.execute { [self] in
            guard !closed.exchange(true, ordering: .relaxed) else { return }
            var data = channel.allocator.buffer(capacity: 2)
            data.write(webSocketErrorCode: code)
            let channel = channel
            let written = channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
            if !waitForAnswer {
                written.whenComplete { _ in channel.close(mode: .output, promise: nil) }
            }
            channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        }
    }

    /// On the loop: the phone closed first; its close frame goes back and the socket closes.
    func answerClose(_ data: ByteBuffer) {
        guard !closed.exchange(true, ordering: .relaxed) else {
            channel.close(promise: nil)
            return
        }
        // The phone's status code back (RFC 6455 5.5.1), without its reason.
        var code = channel.allocator.buffer(capacity: 2)
        if data.readableBytes >= 2 { code.writeImmutableBuffer(data.getSlice(at: data.readerIndex, length: 2)!) }
        let channel = channel
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: code)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    /// On the loop, every ping interval: a socket that did not answer the last ping is gone
    /// (a phone that lost its network sends no FIN), else it gets a ping.
    func ping() {
        guard !closed.load(ordering: .relaxed) else { return }
        if awaitingPong.exchange(true, ordering: .relaxed) {
            closed.store(true, ordering: .relaxed)
            channel.close(promise: nil)
            return
        }
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer()), promise: nil)
    }

    func ponged() {
        awaitingPong.store(false, ordering: .relaxed)
    }

    /// The socket is done (closed): nothing more is written.
    func ended() {
        closed.store(true, ordering: .relaxed)
    }
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

    func makeConnection(channel: any Channel) -> LiveConnection {
        LiveConnection(id: nextId.add(1, ordering: .relaxed).newValue, channel: channel)
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
            if case .players(let roster, _) = event, !hosts.isEmpty {
                for player in roster.lazy.filter({ !$0.kicked }).prefix(LiveMessages.rosterSize) where sockets.players[player.id] != nil {
                    connected.insert(player.id)
                }
            }
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
            LiveConnection.send(players.map { id, connection in
                (connection, ByteBuffer(string: LiveMessages.question(view.shuffled(playerId: id), now: now)), nil)
            })
        case .result(let result):
            let bytes = ByteBuffer(string: LiveMessages.result(result))
            LiveConnection.send(players.map { ($0.1, bytes, nil) })
        case .kicked:
            let bytes = ByteBuffer(string: LiveMessages.kicked)
            LiveConnection.send(players.map { ($0.1, bytes, nil) })
            for (_, connection) in players { connection.close() }
        case .ended(let podium, let standings, let teams):
            let byId = Dictionary(standings.map { ($0.player.id, $0) }, uniquingKeysWith: { first, _ in first })
            let base: [String: Any] = ["type": "ended", "podium": podium.map(LiveMessages.standing), "teams": LiveMessages.teams(teams)]
            LiveConnection.send(players.map { id, connection in
                var object = base
                object["you"] = LiveMessages.you(byId[id])
                return (connection, ByteBuffer(string: LiveMessages.text(object)), nil)
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
