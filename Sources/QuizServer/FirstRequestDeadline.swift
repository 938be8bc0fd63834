import Logging
import NIOCore
import HummingbirdCore

/// Closes a new connection that does not finish its first request head in time: nothing at all
/// within `idle`, or a head still incomplete `read` after its first byte (sent slowly, or half of
/// it). Live games' WebSocket upgrade decides on the first request before any of Hummingbird's
/// HTTP handlers (idle timeout, `BodyReadDeadline`) are in place, so without this a client could
/// hold thousands of silent sockets open. It sits first in the pipeline, reads raw bytes, and
/// leaves once the first head's blank line has gone by; the HTTP handlers (or the WebSocket's
/// pings) take over from there.
final class FirstRequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    let idle: TimeAmount
    let read: TimeAmount
    private var deadline: Scheduled<Void>?
    private var started = false
    /// The last bytes seen, to find "\r\n\r\n" across reads.
    private var tail: [UInt8] = []

    init(idle: TimeAmount, read: TimeAmount) {
        self.idle = idle
        self.read = read
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context, in: idle) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil { arm(context, in: idle) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if !started, buffer.readableBytes > 0 {
            started = true
            arm(context, in: read)
        }
        let done = headEnds(in: buffer)
        context.fireChannelRead(data)
        if done {
            deadline?.cancel()
            deadline = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    private func arm(_ context: ChannelHandlerContext, in time: TimeAmount) {
        deadline?.cancel()
        let loop = context.eventLoop.assumeIsolatedUnsafeUnchecked()
        deadline = loop.scheduleTask(in: time) {
            context.close(promise: nil)
        }
    }

    private func headEnds(in buffer: ByteBuffer) -> Bool {
        let bytes = tail + buffer.readableBytesView
        guard bytes.count >= 4 else {
            tail = bytes
            return false
        }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return true
        }
        tail = Array(bytes.suffix(3))
        return false
    }
}
