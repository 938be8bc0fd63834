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
/// The check resolves the name before the download resolves it again, so a DNS server that
/// answers differently the second time could still slip past; an egress firewall is the full answer.
public enum RemoteAddressPolicy {
    /// The first address of `host` that may not be reached, or nil when all may; throws when the
    /// name does not resolve.
    static func blockedAddress(of host: String) async throws -> String? {
        let addresses = try await NIOThreadPool.singleton.runIfActive { try resolve(host) }
        return addresses.first(where: isPrivate).map(describe)
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

    /// Loopback, private, shared (CGNAT), link-local, multicast, reserved and unspecified ranges.
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
        if address.prefix(15).allSatisfy({ $0 == 0 }) { return true }  // :: and ::1
        return address[0] & 0xFE == 0xFC  // unique local fc00::/7
            || (address[0] == 0xFE && address[1] & 0xC0 == 0x80)  // link-local fe80::/10
            || address[0] == 0xFF  // multicast
    }

    static func describe(_ address: [UInt8]) -> String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: address.count, by: 2).map { String(UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
