import Foundation
import SQLKit

extension SQLStore {
    /// The secret named `name`, made from `make()` the first time any instance asks: the first
    /// `INSERT` wins and every instance reads the same bytes.
    public func secret(named name: String, at now: Date, make: @Sendable () -> [UInt8]) async throws -> [UInt8] {
        if let known = try await storedSecret(named: name) { return known }
        let hex = make().map { String(format: "%02x", $0) }.joined()
        try await database.write { db in
            try await db.raw("""
                INSERT INTO server_secrets (name, value, created_at) VALUES (\(bind: name), \(bind: hex), \(bind: now.millis))
                ON CONFLICT (name) DO NOTHING
                """).run()
        }
        guard let stored = try await storedSecret(named: name) else { throw StoreError.notFound }
        return stored
    }

    private func storedSecret(named name: String) async throws -> [UInt8]? {
        let hex = try await database.read { db in
            try await db.raw("SELECT value FROM server_secrets WHERE name = \(bind: name)").first()?.string("value")
        }
        guard let hex, hex.count.isMultiple(of: 2) else { return nil }
        let digits = Array(hex.utf8)
        let bytes = stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
        return bytes.count * 2 == digits.count ? bytes : nil
    }
}
