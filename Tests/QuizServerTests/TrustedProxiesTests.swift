import Configuration
@testable import QuizServer
import Testing

struct TrustedProxiesTests {
    @Test func aForwardedAddressIsBelievedOnlyFromATrustedPeerAndReadFromTheRight() throws {
        let proxies = try TrustedProxies("127.0.0.1, 10.0.0.0/8, fd00::/8")
        // A client's own header is not believed.
        #expect(proxies.client(peer: "198.51.100.1", forwardedFor: ["203.0.113.5"]) == "198.51.100.1")
        // The proxy's: the last hop it added is the client, whatever the client wrote before it.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["1.2.3.4, 203.0.113.5"]) == "203.0.113.5")
        // Through two proxies of ours, in one header or in two.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["203.0.113.5, 10.1.2.3"]) == "203.0.113.5")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["203.0.113.5", "10.1.2.3"]) == "203.0.113.5")
        // Ports, brackets and IPv4-mapped IPv6 are written one way; garbage stops at the proxy.
        #expect(proxies.client(peer: "::ffff:127.0.0.1", forwardedFor: ["[2001:DB8::1]:443"]) == "2001:db8::1")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["203.0.113.5:5000"]) == "203.0.113.5")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["not an address"]) == "127.0.0.1")
        #expect(proxies.client(peer: "fd12::1", forwardedFor: []) == "fd12::1")
        // Off by default.
        #expect(TrustedProxies.none.client(peer: "127.0.0.1", forwardedFor: ["203.0.113.5"]) == "127.0.0.1")
        #expect(throws: ServerConfig.Problem.self) { try TrustedProxies("10.0.0.0/33") }
        #expect(throws: ServerConfig.Problem.self) { try TrustedProxies("proxy.example.org") }
    }

    @Test func aBadTrustedProxiesSettingStopsTheServerWithItsName() {
        var config = ServerConfig()
        config.trustedProxies = "10.0.0.0/8"
        #expect(config.proxies.networks.count == 1)
        let reader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: ["QUIZBOX_TRUSTED_PROXIES": "10.0.0.0/99"]))
        #expect(ServerConfig(reader: reader).problems.contains { $0.contains("QUIZBOX_TRUSTED_PROXIES") })
    }

    @Test func anIPv6ClientHoldsOneShareOfSocketsForItsWholeSlash64() {
        let sockets = LiveSocket.OpenSockets(limit: 1)
        #expect(sockets.admit("2001:db8:1:2::1"))
        #expect(!sockets.admit("2001:db8:1:2:ffff::9"))
        #expect(sockets.admit("2001:db8:1:3::1"))
        sockets.release("2001:db8:1:2::1")
        #expect(sockets.admit("2001:db8:1:2::abcd"))
    }
}
