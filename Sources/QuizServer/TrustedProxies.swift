import Foundation

/// The reverse proxies whose `X-Forwarded-For` is believed (`QUIZBOX_TRUSTED_PROXIES`, off by
/// default): behind one, every client would otherwise share the proxy's address, and so its rate
/// limits and its share of live sockets. A client can write the header itself, so it is read
/// only from a trusted peer, from the right: the first address no trusted proxy added is the client.
struct TrustedProxies: Sendable, Equatable {
    struct Network: Sendable, Equatable {
        var bytes: [UInt8]
        var prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for index in bytes.indices where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if address[index] & mask != bytes[index] & mask { return false }
                left -= bits
            }
            return true
        }
    }

    let networks: [Network]

    static let none = TrustedProxies(networks: [])

    init(networks: [Network]) {
        self.networks = networks
    }

    /// "127.0.0.1, 10.0.0.0/8, ::1, fd00::/8"; a part that is not an address or network is a problem.
    init(_ text: String) throws(ServerConfig.Problem) {
        var networks: [Network] = []
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            let pieces = part.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = Self.parse(pieces[0]) else {
                throw ServerConfig.Problem(description: "QUIZBOX_TRUSTED_PROXIES: \"\(part.prefix(60))\" is not an IP address or network")
            }
            let prefix = pieces.count == 2 ? Int(pieces[1]) : bytes.count * 8
            guard let prefix, (0...(bytes.count * 8)).contains(prefix) else {
                throw ServerConfig.Problem(description: "QUIZBOX_TRUSTED_PROXIES: \"\(part.prefix(60))\" has a prefix length out of range")
            }
            networks.append(Network(bytes: bytes, prefix: prefix))
        }
        self.networks = networks
    }

    func trusts(_ address: [UInt8]) -> Bool { networks.contains { $0.contains(address) } }

    /// The client's address: `peer` itself unless it is a trusted proxy; then the rightmost address
    /// of `forwardedFor` (the headers in order) that no trusted proxy added.
    func client(peer: String, forwardedFor: [String]) -> String {
        guard !networks.isEmpty, let peerBytes = Self.parse(peer), trusts(peerBytes) else { return peer }
        // At most 32 hops are read: a longer header is a client's, and is no cheaper to walk.
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.suffix(32)
        var client = Self.format(peerBytes)
        for hop in hops.reversed() {
            guard let bytes = Self.parse(Self.bare(hop.trimmingCharacters(in: .whitespaces))) else { break }
            client = Self.format(bytes)
            if !trusts(bytes) { break }
        }
        return client
    }

    /// "[2001:db8::1]:443" → "2001:db8::1"; "192.0.2.1:80" → "192.0.2.1".
    static func bare(_ hop: String) -> String {
        if hop.hasPrefix("[") { return String(hop.dropFirst().prefix { $0 != "]" }) }
        if hop.filter({ $0 == ":" }).count == 1, let colon = hop.firstIndex(of: ":") { return String(hop[..<colon]) }
        return hop
    }

    /// An IPv4 address as 4 bytes, an IPv6 one as 16 (an IPv4-mapped one as its IPv4 address).
    static func parse(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4.s_addr) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    /// The address in its usual form, so one client is one key however its proxy wrote it.
    static func format(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var v6 = in6_addr()
        withUnsafeMutableBytes(of: &v6) { $0.copyBytes(from: bytes) }
        guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
