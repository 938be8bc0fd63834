import Foundation
import NIOCore
import NIOWebSocket
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
