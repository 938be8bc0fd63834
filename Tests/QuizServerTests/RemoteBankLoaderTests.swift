import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizFormats
import QuizServer
import QuizStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The "load question from remote" use case against servers started here, on loopback.
@Suite struct RemoteBankLoaderTests {
    static let payload = #"{"question": "Name the primary colours", "answer": ["red", "yellow", "blue"]}"#

    /// A small HTTP server with one route per situation.
    func withServer(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let router = Router()
        router.get("/colours.json") { _, _ in Self.payload }
        router.get("/bank.gift") { _, _ in "Which is a primary colour? {=red ~green ~purple}\n" }
        router.get("/broken.json") { _, _ in #"{"question": "Unfinished", "answer": ["# }
        router.get("/huge.json") { _, _ in String(repeating: " ", count: 5_000) + Self.payload }
        router.get("/loop") { _, _ in Response(status: .found, headers: [.location: "/loop"]) }
        router.get("/moved") { _, _ in Response(status: .movedPermanently, headers: [.location: "/colours.json"]) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(try #require(client.port)) }
    }

    var defaults: ImportDefaults { ImportDefaults(subject: "Art", topic: "Colour", quizTitle: "Colours") }

    @Test func aPayloadBecomesANameThemAllQuestion() async throws {
        try await withServer { port in
            let loaded = try await RemoteBankLoader(limits: .loopback).load(URL(string: "http://127.0.0.1:\(port)/colours.json")!, defaults: defaults)
            #expect(loaded.format == .remote)
            let question = try #require(loaded.result.bank.subjects.first?.topics.first?.quizzes.first?.questions.first)
            #expect(question.text == "Name the primary colours")
            guard case .nameAll(let items, _, _) = question.body else { Issue.record("not nameAll"); return }
            #expect(items.map(\.answer) == ["red", "yellow", "blue"])
        }
    }

    @Test func theFormatComesFromTheAddressAndRedirectsAreFollowed() async throws {
        try await withServer { port in
            let gift = try await RemoteBankLoader(limits: .loopback).load(URL(string: "http://127.0.0.1:\(port)/bank.gift")!, defaults: defaults)
            #expect(gift.format == .gift)
            #expect(gift.result.bank.questionCount == 1)
            let moved = try await RemoteBankLoader(limits: .loopback).load(URL(string: "http://127.0.0.1:\(port)/moved")!, defaults: defaults)
            #expect(moved.result.bank.questionCount == 1)
        }
    }

    @Test func whatIsNotABankIsInvalidData() async throws {
        try await withServer { port in
            let loader = RemoteBankLoader(limits: .loopback)
            await #expect { try await loader.load(URL(string: "http://127.0.0.1:\(port)/broken.json")!, defaults: defaults) } throws: {
                guard case .invalidData(_, let problems) = $0 as? RemoteBankLoader.Error else { return false }
                return problems.first?.line == 1
            }
            await #expect { try await loader.load(URL(string: "http://127.0.0.1:\(port)/nothing-here")!, defaults: defaults) } throws: {
                guard case .invalidData(let reason, _) = $0 as? RemoteBankLoader.Error else { return false }
                return reason.contains("404")
            }
            await #expect { try await loader.load(URL(string: "http://127.0.0.1:\(port)/loop")!, defaults: defaults) } throws: {
                guard case .invalidData(let reason, _) = $0 as? RemoteBankLoader.Error else { return false }
                return reason.contains("redirects too often")
            }
            var small = RemoteBankLoader.Limits.loopback
            small.maxBytes = 1_024
            await #expect { try await RemoteBankLoader(limits: small).load(URL(string: "http://127.0.0.1:\(port)/huge.json")!, defaults: defaults) } throws: {
                guard case .invalidData(let reason, _) = $0 as? RemoteBankLoader.Error else { return false }
                return reason.contains("larger than")
            }
            await #expect(throws: RemoteBankLoader.Error.invalidData("only http and https addresses can be loaded: file:///etc/passwd")) {
                try await loader.load(URL(string: "file:///etc/passwd")!, defaults: defaults)
            }
        }
    }

    @Test func aRefusedConnectionIsConnectivity() async throws {
        let port = try Self.unusedPort()
        var quick = RemoteBankLoader.Limits.loopback
        quick.connectTimeout = .milliseconds(300)  // refused connects are retried until this runs out
        await #expect { try await RemoteBankLoader(limits: quick).load(URL(string: "http://127.0.0.1:\(port)/colours.json")!, defaults: defaults) } throws: {
            guard case .connectivity = $0 as? RemoteBankLoader.Error else { return false }
            return true
        }
    }

    @Test func aServerThatNeverAnswersTimesOutAsConnectivity() async throws {
        // Listening but never accepting: the kernel completes the handshake, no reply ever comes.
        let (socket, port) = try Self.silentListener()
        defer { close(socket) }
        var quick = RemoteBankLoader.Limits.loopback
        quick.totalTimeout = .milliseconds(300)
        await #expect { try await RemoteBankLoader(limits: quick).load(URL(string: "http://127.0.0.1:\(port)/x.json")!, defaults: defaults) } throws: {
            guard case .connectivity = $0 as? RemoteBankLoader.Error else { return false }
            return true
        }
    }

    @Test(.timeLimit(.minutes(1))) func aServerTricklingItsBodyIsCutOffAtTheTotalLimit() async throws {
        // Headers at once, then a byte every 100 ms: every read is within the read timeout.
        let (socket, port) = try Self.silentListener()
        defer { close(socket) }
        let server = Thread {
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
            guard send(connection, head, head.utf8.count, Int32(MSG_NOSIGNAL)) > 0 else { return }
            while send(connection, " ", 1, Int32(MSG_NOSIGNAL)) > 0 { usleep(100_000) }
        }
        server.start()
        var quick = RemoteBankLoader.Limits.loopback
        quick.totalTimeout = .milliseconds(800)
        let started = ContinuousClock.now
        await #expect { try await RemoteBankLoader(limits: quick).load(URL(string: "http://127.0.0.1:\(port)/slow.json")!, defaults: defaults) } throws: {
            guard case .connectivity = $0 as? RemoteBankLoader.Error else { return false }
            return true
        }
        #expect(ContinuousClock.now - started < .seconds(20), "the whole download is bounded, not each read (a trickle would take hours)")
    }

    /// DNS rebinding: the name is public when checked and loopback when the client would look it
    /// up again. The download must go to the address that was checked, never to loopback.
    @Test func theDownloadConnectsToTheAddressThatWasChecked() async throws {
        try await withServer { port in
            var limits = RemoteBankLoader.Limits()
            limits.connectTimeout = .milliseconds(500)
            limits.totalTimeout = .seconds(2)
            // The check's answer: a public (documentation) address, where nothing listens.
            limits.resolver = { _ in [[203, 0, 113, 5]] }
            await #expect { try await RemoteBankLoader(limits: limits).load(URL(string: "http://localhost:\(port)/colours.json")!, defaults: defaults) } throws: {
                guard case .connectivity = $0 as? RemoteBankLoader.Error else { return false }
                return true
            }
            // The same name without pinning would have reached the server on loopback.
            let direct = try await RemoteBankLoader(limits: .loopback).load(URL(string: "http://localhost:\(port)/colours.json")!, defaults: defaults)
            #expect(direct.format == .remote)
        }
    }

    struct SocketError: Error {}

    static func silentListener() throws -> (Int32, Int) {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw SocketError() }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { close(fd); throw SocketError() }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port nothing listens on: bound once to learn a free number, then closed.
    static func unusedPort() throws -> Int {
        let (fd, port) = try silentListener()
        close(fd)
        return port
    }
}

extension RemoteBankLoader.Limits {
    /// For the servers these tests start on loopback.
    static var loopback: Self {
        var limits = Self()
        limits.allowPrivateAddresses = true
        return limits
    }
}

/// A server may not be made to fetch from its own machine or network (SSRF) unless configured to.
@Suite struct RemoteAddressPolicyTests {
    @Test(arguments: ["127.0.0.1", "localhost", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "[::1]", "[fe80::1]",
                      "[fd00::1]", "[::ffff:127.0.0.1]", "0.0.0.0", "100.64.0.1",
                      // IPv6 forms wrapping an IPv4 address, and the old site-local range.
                      "[64:ff9b::7f00:1]", "[::7f00:1]", "[2002:7f00:1::1]", "[2002:a00:1::1]", "[fec0::1]",
                      "[2001:0:4136:e378:8000:63bf:3fff:fdd2]"])
    func privateLoopbackAndLinkLocalAddressesAreRefusedByDefault(host: String) async throws {
        await #expect { try await RemoteBankLoader().load(URL(string: "http://\(host):1/bank.json")!, defaults: ImportDefaults()) } throws: {
            guard case .privateAddress(let reason) = $0 as? RemoteBankLoader.Error else { return false }
            return reason.contains("private, loopback or link-local")
        }
    }

    @Test(arguments: ["8.8.8.8", "1.1.1.1", "[2606:4700::1111]", "172.32.0.1", "192.169.0.1", "[2002:808:808::1]"])
    func publicAddressesAreAllowed(host: String) throws {
        let name = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        #expect(try RemoteAddressPolicy.resolve(name).allSatisfy { !RemoteAddressPolicy.isPrivate($0) })
    }

    @Test func theServerRefusesPrivateAddressesUnlessConfiguredTo() async throws {
        try await withApp(configure: { $0.remoteImportAllowPrivate = false }) { client, env in
            let token = try await client.signUp("writer")
            try await env.store.setRole(.author, username: "writer")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let refused = try await client.call(.post, "/api/v1/imports/remote", token: token, json: ["url": "http://169.254.169.254/latest/meta-data"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "private_address")
            #expect(refused.errorField == "url")
        }
    }
}
