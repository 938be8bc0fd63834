import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// Every connection the server accepts: HTTP/1 through Hummingbird, or, when its first request
/// asks for it, a live game's WebSocket served by `LiveSocketHandler` in the channel's own
/// pipeline. The shape is hummingbird-websocket's `HTTP1WebSocketUpgradeChannel`; what differs is
/// what an upgraded socket costs: no task, async stream or writer of its own while it waits (at
/// 10,000 players those were most of the server's memory, README "Design").
/// `FirstRequestDeadline` sits in front, so a silent connection cannot hold its place.
struct ServerChannel: ServerChildChannel, HTTPChannelHandler {
    enum Upgrade: Sendable {
        /// The socket runs in its pipeline; nothing to wait for.
        case live
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// Asked for a WebSocket it may not have (another path, another site's page).
        case refused(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
        let upgrade: EventLoopFuture<Upgrade>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let http1: HTTP1Channel.Configuration
    let live: LiveSocket
    let idle: TimeAmount
    let read: TimeAmount

    init(responder: @escaping HTTPChannelHandler.Responder, http1: HTTP1Channel.Configuration, live: LiveSocket, idle: TimeAmount, read: TimeAmount) {
        self.responder = Self.refusingLateUpgrades(responder)
        self.http1 = http1
        self.live = live
        self.idle = idle
        self.read = read
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(FirstRequestDeadline(idle: idle, read: read), position: .first)
            let malformed = NIOLoopBound(MalformedRequestHandler(), eventLoop: channel.eventLoop)
            let attempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let upgrader = NIOTypedWebSocketServerUpgrader<Upgrade>(
                // Frames a little over the limit are read whole, so the socket can still take the
                // phone's close frame after it is told why (closing with bytes unread resets it,
                // and the phone would lose the message); `LiveSocketHandler` holds messages to the limit.
                maxFrameSize: LiveMessages.maxBytes * 4,
                // Errors are the live handler's: it tells the player why before it closes.
                enableAutomaticErrorHandling: false,
                shouldUpgrade: { channel, head in
                    attempted.value = true
                    return channel.eventLoop.makeSucceededFuture(live.accepts(head) ? HTTPHeaders() : nil)
                },
                upgradePipelineHandler: { channel, head in
                    channel.eventLoop.makeCompletedFuture {
                        channel.pipeline.syncOperations.removeHandler(malformed.value, promise: nil)
                        try live.attach(to: channel, head: head)
                        return Upgrade.live
                    }
                }
            )
            let configuration = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        malformed.value.answeredByHTTP = true
                        let sync = channel.pipeline.syncOperations
                        try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try sync.addHandlers(http1.additionalChannelHandlers())
                        try sync.addHandler(HTTPConnectionStateHandler(idleTimeout: http1.idleTimeout.map { .init($0) }, logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                        return attempted.value ? Upgrade.refused(http) : Upgrade.http(http)
                    }
                }
            )
            var pipeline = NIOUpgradableHTTPServerPipelineConfiguration<Upgrade>(upgradeConfiguration: configuration)
            pipeline.enablePipelining = false  // NIOAsyncChannel takes one request at a time
            // Hummingbird answers parse errors once its handlers are in; `MalformedRequestHandler` before.
            pipeline.enableErrorHandling = false
            pipeline.enableResponseHeaderValidation = false  // HTTPTypes validates
            pipeline.decoderConfiguration.maxHeaderFieldSize = http1.httpDecoder.maxHeaderFieldSize
            pipeline.decoderConfiguration.maxHeaderListSize = http1.httpDecoder.maxHeaderListSize
            pipeline.decoderConfiguration.maxHeaderFieldCount = http1.httpDecoder.maxHeaderFieldCount
            let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: pipeline)
            try channel.pipeline.syncOperations.addHandler(malformed.value)
            return Value(upgrade: upgrade, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.upgrade.get() {
            case .live:
                // The channel lives on in its pipeline; the server's quiescing closes it on shutdown.
                return
            case .http(let http):
                await handleHTTP(asyncChannel: http, logger: logger)
            case .refused(let http):
                try await http.executeThenClose { _, outbound in
                    let head = HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
                    try await outbound.write(contentsOf: [.head(head), .end(nil)])
                }
            }
        } catch let error as ChannelError where error == .inputClosed {
            return
        } catch {
            logger.debug("connection ended before its first request", metadata: ["error": "\(error)"])
        }
    }

    /// NIO upgrades only a connection's first request: a later one asking for a WebSocket is sent
    /// to the same address on a new connection (as hummingbird-websocket does).
    static func refusingLateUpgrades(_ responder: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        struct CloseAfterRedirect: Error {}
        return { request, writer, channel in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                try await responder(request, writer, channel)
                return
            }
            var path = request.uri.path
            while path.hasPrefix("//") { path.removeFirst() }  // "//host" would leave the site
            if let query = request.uri.query { path += "?" + query }
            try await writer.writeResponse(HTTPResponse(status: .temporaryRedirect, headerFields: [.connection: "close", .location: path]))
            throw CloseAfterRedirect()
        }
    }
}
