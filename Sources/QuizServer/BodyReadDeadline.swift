import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request body stalls or trickles. Hummingbird's idle timeout already
/// closes a connection that sends nothing (between requests, or mid-header) and one whose body
/// stops; a body sent a byte at a time keeps that timer happy, so here a body must also average
/// `minimumBytesPerSecond` once `timeout` has passed since its head.
final class BodyReadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    let timeout: TimeAmount
    let minimumBytesPerSecond: Int
    private var started: NIODeadline?
    private var received = 0
    private var check: Scheduled<Void>?

    init(timeout: TimeAmount, minimumBytesPerSecond: Int = 1024) {
        self.timeout = timeout
        self.minimumBytesPerSecond = minimumBytesPerSecond
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            started = .now()
            received = 0
        case .body(let buffer):
            received += buffer.readableBytes
        case .end:
            started = nil
            check?.cancel()
            check = nil
        }
        context.fireChannelRead(data)
    }

    /// The clock starts only for a request still unfinished when the read is over: most requests
    /// (every GET) arrive whole in one read, and a timer each would be set and cancelled for nothing.
    func channelReadComplete(context: ChannelHandlerContext) {
        if started != nil && check == nil { schedule(context) }
        context.fireChannelReadComplete()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        check?.cancel()
        context.fireChannelInactive()
    }

    private func schedule(_ context: ChannelHandlerContext) {
        check?.cancel()
        let loop = context.eventLoop.assumeIsolatedUnsafeUnchecked()
        check = loop.scheduleTask(in: timeout) { [self] in
            guard let started else { return }
            let seconds = Double((NIODeadline.now() - started).nanoseconds) / 1e9
            if Double(received) < seconds * Double(minimumBytesPerSecond) {
                context.close(promise: nil)
            } else {
                schedule(context)
            }
        }
    }
}
