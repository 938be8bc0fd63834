import Foundation
import NIOCore
import NIOPosix

/// What talks over one benchmark socket: called on the socket's event loop only.
protocol BenchPeer: AnyObject {
    func opened(_ socket: BenchSocket)
    func received(_ text: String, at: UInt64)
    func closed()
}

/// A WebSocket client kept as small as one handler: the upgrade request written by hand, frames
/// read and written here (text, continuation, ping, close). One per player, thousands per
/// process, so no task or stream per socket.
final class BenchSocket: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let path: String
    private let authority: String
    private let cookie: String?
    private let peer: any BenchPeer
    private var buffer = ByteBuffer()
    private var upgraded = false
    private var message: [UInt8] = []
    private var context: ChannelHandlerContext?
    private var failure: ((String) -> Void)?

    init(path: String, authority: String, cookie: String?, peer: any BenchPeer, failure: @escaping (String) -> Void) {
        self.path = path
        self.authority = authority
        self.cookie = cookie
        self.peer = peer
        self.failure = failure
    }

    func channelActive(context: ChannelHandlerContext) {
        self.context = context
        var request = "GET \(path) HTTP/1.1\r\nHost: \(authority)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: \(Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())\r\n"
        request += "Sec-WebSocket-Version: 13\r\n"
        if let cookie { request += "Cookie: \(cookie)\r\n" }
        request += "\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        buffer.writeBuffer(&incoming)
        if !upgraded {
            guard let end = buffer.readableBytesView.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let head = buffer.readString(length: end.upperBound - buffer.readerIndex) ?? ""
            guard head.hasPrefix("HTTP/1.1 101") else {
                fail("upgrade refused: " + (head.split(separator: "\r\n").first.map(String.init) ?? "?"))
                context.close(promise: nil)
                return
            }
            upgraded = true
            peer.opened(self)
        }
        readFrames(context: context)
        buffer.discardReadBytes()
    }

    private func readFrames(context: ChannelHandlerContext) {
        let now = DispatchTime.now().uptimeNanoseconds
        while true {
            let view = buffer.readableBytesView
            guard view.count >= 2 else { return }
            let first = view[view.startIndex], second = view[view.startIndex + 1]
            var length = Int(second & 0x7F)
            var header = 2
            if length == 126 {
                guard view.count >= 4 else { return }
                length = Int(view[view.startIndex + 2]) << 8 | Int(view[view.startIndex + 3])
                header = 4
            } else if length == 127 {
                guard view.count >= 10 else { return }
                length = (0..<8).reduce(0) { $0 << 8 | Int(view[view.startIndex + 2 + $1]) }
                header = 10
            }
            guard view.count >= header + length else { return }
            buffer.moveReaderIndex(forwardBy: header)
            let payload = buffer.readBytes(length: length) ?? []
            let fin = first & 0x80 != 0
            switch first & 0x0F {
            case 0x1, 0x0:
                message += payload
                if fin {
                    peer.received(String(decoding: message, as: UTF8.self), at: now)
                    message = []
                }
            case 0x9: write(opcode: 0xA, payload)
            case 0x8:
                write(opcode: 0x8, Array(payload.prefix(2)))
                context.close(promise: nil)
                return
            default: break
            }
        }
    }

    func send(_ text: String) { write(opcode: 0x1, Array(text.utf8)) }

    /// Client frames are masked, as RFC 6455 asks.
    private func write(opcode: UInt8, _ payload: [UInt8]) {
        guard let context, context.channel.isActive else { return }
        var frame = context.channel.allocator.buffer(capacity: payload.count + 14)
        frame.writeInteger(0x80 | opcode)
        if payload.count < 126 {
            frame.writeInteger(UInt8(0x80 | payload.count))
        } else if payload.count <= 0xFFFF {
            frame.writeInteger(UInt8(0x80 | 126))
            frame.writeInteger(UInt16(payload.count))
        } else {
            frame.writeInteger(UInt8(0x80 | 127))
            frame.writeInteger(UInt64(payload.count))
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame.writeBytes(mask)
        frame.writeBytes(payload.enumerated().map { $0.element ^ mask[$0.offset & 3] })
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    func close() { context?.close(promise: nil) }

    /// A way to write to this socket from any task.
    func sender() -> BenchSender? {
        guard let context else { return nil }
        return BenchSender(socket: NIOLoopBound(self, eventLoop: context.eventLoop), loop: context.eventLoop)
    }

    func schedule(after milliseconds: Int, _ body: @escaping () -> Void) {
        guard let context else { return }
        let loop = context.eventLoop
        let work = NIOLoopBound(body, eventLoop: loop)
        loop.scheduleTask(in: .milliseconds(Int64(milliseconds))) { work.value() }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if upgraded { peer.closed() } else { fail("closed before the upgrade") }
        self.context = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !upgraded { fail("\(error)") }
        context.close(promise: nil)
    }

    private func fail(_ reason: String) {
        failure?(reason)
        failure = nil
    }
}

struct BenchSender: Sendable {
    let socket: NIOLoopBound<BenchSocket>
    let loop: any EventLoop

    func send(_ text: String) { loop.execute { socket.value.send(text) } }
    func close() { loop.execute { socket.value.close() } }
}

/// Opens benchmark sockets from chosen loopback source addresses (each has its own ephemeral ports).
struct BenchDialer: Sendable {
    let group: MultiThreadedEventLoopGroup
    let host: String
    let port: Int

    func connect(from source: String?, cookie: String? = nil, makePeer: @escaping @Sendable () -> any BenchPeer,
                 failure: @escaping @Sendable (String) -> Void) {
        var bootstrap = ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(20))
        if let source, let address = try? SocketAddress(ipAddress: source, port: 0) { bootstrap = bootstrap.bind(to: address) }
        let authority = "\(host):\(port)"
        bootstrap = bootstrap.channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let socket = BenchSocket(path: "/live/socket", authority: authority, cookie: cookie, peer: makePeer(), failure: failure)
                try channel.pipeline.syncOperations.addHandler(socket)
            }
        }
        bootstrap.connect(host: host, port: port).whenFailure { failure("connect: \($0)") }
    }
}
