import Foundation
import NIOCore
import NIOWebSocket
import QuizCore
import QuizText

/// A live socket in its channel's pipeline, after the frame decoder and `NIOWebSocketFrameAggregator`:
/// reads whole messages on the event loop and hands them to `LiveSocket` in order; answers pings
/// and close frames; pings the phone; closes on protocol errors after saying why. All its state
/// is the loop's, so an idle socket costs its channel and this object, no task.
final class LiveSocketHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let socket: LiveSocket
    private let session: LiveSocket.Session
    private var pinger: RepeatedTask?
    private var stopped = false
    /// A frame the decoder could not read was answered: what else comes is read and dropped until
    /// the phone closes (closing with bytes unread would reset the socket, and the phone would
    /// lose the message saying why).
    private var draining = false
    private var windowStart = Date.distantPast
    private var inWindow = 0

    init(socket: LiveSocket, session: LiveSocket.Session) {
        self.socket = socket
        self.session = session
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let (socket, session) = (self.socket, self.session)
        guard session.admitted else {
            socket.refuse(session)
            if !context.channel.isActive { stop() }
            return
        }
        let timeout = TimeAmount.milliseconds(Int64(socket.greetingTimeout * 1000))
        session.waitForGreeting(context.eventLoop.scheduleTask(in: timeout) { socket.greetingDue(session) })
        let connection = session.connection
        pinger = context.eventLoop.scheduleRepeatedTask(initialDelay: socket.pingInterval, delay: socket.pingInterval) { _ in
            connection.ping()
        }
        // Closed before it was added (the phone went during the upgrade): no channelInactive follows.
        if !context.channel.isActive { stop() }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    private func stop() {
        guard !stopped else { return }
        stopped = true
        pinger?.cancel()
        pinger = nil
        socket.ended(session)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let connection = session.connection
        if frame.length > LiveMessages.maxBytes {
            // The aggregator lets a message in one frame through unchecked.
            connection.send(LiveMessages.error("bad-message", session.t("Messages are at most 4 KiB."), of: nil))
            connection.close(.messageTooLarge)
            return
        }
        switch frame.opcode {
        case .text:
            guard !connection.isClosed else { return }
            let bytes = frame.unmaskedData
            guard let text = String(validating: bytes.readableBytesView, as: UTF8.self) else {
                connection.send(LiveMessages.error("bad-message", session.t("Messages are JSON text."), of: nil))
                return
            }
            guard allow(now: socket.time.now()) else {
                connection.send(LiveMessages.error("rate-limited", session.t("Too many messages: slow down."), of: nil))
                return
            }
            socket.receive(text, from: session)
        case .binary:
            connection.send(LiveMessages.error("bad-message", session.t("Messages are JSON text."), of: nil))
        case .ping:
            guard !connection.isClosed else { return }
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            connection.ponged()
        case .connectionClose:
            connection.answerClose(frame.unmaskedData)
        default:
            break
        }
    }

    /// Too large a message, a broken frame, or the socket broke: this connection is over.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if draining, error is ByteToMessageDecoderError { return }
        switch error {
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge, NIOWebSocketFrameAggregator.Error.tooManyFragments:
            session.connection.send(LiveMessages.error("bad-message", session.t("Messages are at most 4 KiB."), of: nil))
            session.connection.close(.messageTooLarge)
        case is NIOWebSocketFrameAggregator.Error:
            session.connection.close(.protocolError)
        case NIOWebSocketError.invalidFrameLength:
            // The decoder reads nothing more, so no close frame could come back: ours goes, then the end of the stream.
            draining = true
            session.connection.send(LiveMessages.error("bad-message", session.t("Messages are at most 4 KiB."), of: nil))
            session.connection.close(.messageTooLarge, waitForAnswer: false, timeout: .seconds(2))
        case is NIOWebSocketError, is UnmaskedFrame:
            draining = true
            session.connection.close(.protocolError, waitForAnswer: false, timeout: .seconds(2))
        default:
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The server is stopping: players resume on another instance (or this one, restarted).
        // A phone that does not answer the close holds the shutdown up for a few seconds at most.
        if event is ChannelShouldQuiesceEvent {
            session.connection.close(.goingAway, timeout: .seconds(3))
        } else if let event = event as? ChannelEvent, event == .inputClosed {
            // The phone's end closed without a close frame (a TCP FIN): nothing more can come, and
            // its place among its address's sockets is free at once.
            session.connection.ended()
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func allow(now: Date) -> Bool {
        if now.timeIntervalSince(windowStart) >= 1 {
            windowStart = now
            inWindow = 0
        }
        inWindow += 1
        return inWindow <= LiveSocket.messagesPerSecond
    }
}

/// Before `NIOWebSocketFrameAggregator` (which drops the mask it removes): a client's frames must
/// be masked (RFC 6455 5.1); one that is not ends the socket with a protocol error.
final class MaskedFramesOnly: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard unwrapInboundIn(data).maskKey != nil else {
            refused = true
            context.fireErrorCaught(UnmaskedFrame())
            return
        }
        context.fireChannelRead(data)
    }
}

struct UnmaskedFrame: Error {}
