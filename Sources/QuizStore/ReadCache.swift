import Foundation
import QuizCore
import Synchronization

/// A small in-process cache whose entries live for `lifetime` seconds of the injected clock.
/// Hot reads (a quiz's questions, a session) skip the database while an entry is fresh;
/// writes through this process invalidate at once, writes from elsewhere show within `lifetime`.
public final class ReadCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var expires: Date
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let lifetime: TimeInterval
    private let time: any TimeSource
    private let maxEntries: Int

    public init(lifetime: TimeInterval, time: any TimeSource, maxEntries: Int = 10_000) {
        self.lifetime = lifetime
        self.time = time
        self.maxEntries = maxEntries
    }

    public func value(for key: Key, orLoad load: () async throws -> Value?) async throws -> Value? {
        guard lifetime > 0 else { return try await load() }
        let now = time.now()
        if let hit = entries.withLock({ $0[key] }), hit.expires > now { return hit.value }
        guard let value = try await load() else { return nil }
        entries.withLock { entries in
            // Bounded memory: when full, start over rather than track recency on every hit.
            if entries.count >= maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, expires: now.addingTimeInterval(lifetime))
        }
        return value
    }

    public func remove(_ key: Key) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
