import NIOCore
import NIOHTTP1

/// Answers a request the HTTP parser refuses (a raw control byte in the path, a bad method, a
/// space in a header name, the HTTP/2 preface, `Content-Length: abc`, headers over their limit)
/// with 400 and closes the connection. Before the first request is decided (WebSocket or HTTP) no
/// Hummingbird handler is in the pipeline to do it, and the connection stayed open for good: a
/// few hundred bytes a connection were enough to run the server out of file descriptors.
/// After that Hummingbird answers 400 itself; this one still closes the connection a moment
/// later, whether or not the client ever closes its side.
final class MalformedRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// How long Hummingbird's own 400 has before the connection is closed under it.
    static let closeDelay = TimeAmount.seconds(1)

    /// Hummingbird's HTTP handlers follow this one (the first request was not an upgrade).
    var answeredByHTTP = false
    private var refused = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError || error is ByteToMessageDecoderError else {
            context.fireErrorCaught(error)
            return
        }
        guard !refused else { return }
        refused = true
        if answeredByHTTP {
            context.fireErrorCaught(error)
            let loop = context.eventLoop.assumeIsolatedUnsafeUnchecked()
            loop.scheduleTask(in: Self.closeDelay) { context.close(promise: nil) }
            return
        }
        let head = HTTPResponseHead(version: .http1_1, status: .badRequest,
                                    headers: ["Connection": "close", "Content-Length": "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolatedUnsafeUnchecked().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
