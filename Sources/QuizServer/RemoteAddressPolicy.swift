import Foundation
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which hosts a remote import may reach. By default not this machine nor its private or
/// link-local networks (cloud metadata at 169.254.169.254 among them): otherwise an author could
/// make the server fetch internal services and read the answers back in an import's error list.
///
/// The name is resolved once; the download then connects to the address that was checked (a
/// DNS server answering differently the second time gets no second time).
public enum RemoteAddressPolicy {
    /// Where a host may be reached: `.allowed` with the checked address to connect to, or
    /// `.blocked` with the first address that may not be reached. Throws when the name does not resolve.
    enum Verdict: Equatable {
        case allowed(String)
        case blocked(String)
    }

    static func check(_ host: String, resolver: @escaping @Sendable (String) throws -> [[UInt8]] = resolve) async throws -> Verdict {
        let addresses = try await NIOThreadPool.singleton.runIfActive { try resolver(host) }
        if let blocked = addresses.first(where: isPrivate) { return .blocked(describe(blocked)) }
        guard let first = addresses.first else { throw Unresolved() }
        return .allowed(describe(first))
    }

    public struct Unresolved: Error {}

    /// Every IPv4 (4 bytes) and IPv6 (16 bytes) address the name has; an address literal is its own.
    public static func resolve(_ host: String) throws -> [[UInt8]] {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { throw Unresolved() }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry?.pointee {
            if let address = info.ai_addr {
                if info.ai_family == AF_INET {
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        addresses.append(withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) })
                    }
                } else if info.ai_family == AF_INET6 {
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        addresses.append(withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) })
                    }
                }
            }
            entry = info.ai_next
        }
        return addresses
    }

    /// Loopback, private, shared (CGNAT), link-local, multicast, reserved and unspecified ranges,
    /// and the IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo).
    public static func isPrivate(_ address: [UInt8]) -> Bool {
        if address.count == 4 {
            let (a, b) = (address[0], address[1])
            return a == 0 || a == 10 || a == 127 || a >= 224
                || (a == 100 && (64...127).contains(b)) || (a == 169 && b == 254)
                || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168) || (a == 192 && b == 0 && address[2] == 0)
                || (a == 198 && (b == 18 || b == 19))
        }
        guard address.count == 16 else { return true }
        if address.prefix(10).allSatisfy({ $0 == 0 }) && address[10] == 0xFF && address[11] == 0xFF {
            return isPrivate(Array(address.suffix(4)))  // IPv4-mapped
        }
        if address.prefix(12).allSatisfy({ $0 == 0 }) { return true }  // ::, ::1 and ::a.b.c.d (deprecated)
        if address.prefix(4) == [0x00, 0x64, 0xFF, 0x9B] { return true }  // NAT64 64:ff9b::/96 and 64:ff9b:1::/48
        if address[0] == 0x20 && address[1] == 0x02 { return isPrivate(Array(address[2..<6])) }  // 6to4 2002::/16
        if address.prefix(4) == [0x20, 0x01, 0x00, 0x00] { return true }  // Teredo 2001::/32 hides its IPv4
        if address.prefix(8) == [0x01, 0x00, 0, 0, 0, 0, 0, 0] { return true }  // discard-only 100::/64
        return address[0] & 0xFE == 0xFC  // unique local fc00::/7
            || (address[0] == 0xFE && address[1] & 0xC0 == 0x80)  // link-local fe80::/10
            || (address[0] == 0xFE && address[1] & 0xC0 == 0xC0)  // site-local fec0::/10 (deprecated)
            || address[0] == 0xFF  // multicast
    }

    static func describe(_ address: [UInt8]) -> String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: address.count, by: 2).map { String(UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
