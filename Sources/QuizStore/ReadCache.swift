import CoreMetrics
import Foundation
import QuizCore
import Synchronization

/// A small in-process cache whose entries live for `lifetime` seconds of the injected clock.
/// Hot reads (a quiz's questions, a session) skip the database while an entry is fresh;
/// writes through this process invalidate at once, writes from elsewhere show within `lifetime`.
/// Concurrent misses for one key share a single load, so an expiry under load costs one query.
public final class ReadCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private enum Slot {
        case ready(Value, expires: Date)
        case loading(Task<Value?, any Error>, generation: Int)
    }

    private enum Lookup {
        case hit(Value)
        case wait(Task<Value?, any Error>, generation: Int)
    }

    private struct State {
        var slots: [Key: Slot] = [:]
        /// Bumped by every removal, so a load that started before it is not stored after it.
        var generation = 0
    }

    private let state = Mutex(State())
    private let lifetime: TimeInterval
    private let time: any TimeSource
    private let maxEntries: Int
    private let counters: CacheCounters?

    public init(lifetime: TimeInterval, time: any TimeSource, maxEntries: Int = 10_000, counters: CacheCounters? = nil) {
        self.lifetime = lifetime
        self.time = time
        self.maxEntries = maxEntries
        self.counters = counters
    }

    public func value(for key: Key, orLoad load: @escaping @Sendable () async throws -> Value?) async throws -> Value? {
        guard lifetime > 0 else { return try await load() }
        let now = time.now()
        let (lookup, loads): (Lookup, Bool) = state.withLock { state in
            switch state.slots[key] {
            case .ready(let value, let expires) where expires > now:
                return (.hit(value), false)
            case .loading(let task, let generation):
                return (.wait(task, generation: generation), false)
            default:
                let task = Task { try await load() }
                if state.slots.count >= maxEntries { state.slots.removeAll(keepingCapacity: true) }
                state.slots[key] = .loading(task, generation: state.generation)
                return (.wait(task, generation: state.generation), true)
            }
        }
        // Counted outside the lock; joining a load already under way costs no read of its own.
        if let counters { (loads ? counters.misses : counters.hits).increment() }
        guard case .wait(let task, let generation) = lookup else {
            if case .hit(let value) = lookup { return value }
            return nil
        }
        do {
            let value = try await task.value
            state.withLock { state in
                guard case .loading(_, let started) = state.slots[key], started == generation else { return }
                state.slots[key] = value.map { .ready($0, expires: now.addingTimeInterval(lifetime)) }
            }
            return value
        } catch {
            state.withLock { state in
                if case .loading(_, let started) = state.slots[key], started == generation { state.slots[key] = nil }
            }
            throw error
        }
    }

    /// The fresh value for `key`, without loading.
    public func cached(_ key: Key) -> Value? {
        let now = time.now()
        let value: Value? = state.withLock { state in
            guard case .ready(let value, let expires) = state.slots[key], expires > now else { return nil }
            return value
        }
        if let counters, lifetime > 0 { (value == nil ? counters.misses : counters.hits).increment() }
        return value
    }

    /// Stores a value computed elsewhere (when loading cannot be a detached task).
    public func insert(_ value: Value, for key: Key) {
        guard lifetime > 0 else { return }
        let expires = time.now().addingTimeInterval(lifetime)
        state.withLock { state in
            if state.slots.count >= maxEntries { state.slots.removeAll(keepingCapacity: true) }
            state.slots[key] = .ready(value, expires: expires)
        }
    }

    public func remove(_ key: Key) {
        state.withLock { state in
            state.slots[key] = nil
            state.generation += 1
        }
    }

    public func removeAll() {
        state.withLock { state in
            state.slots.removeAll()
            state.generation += 1
        }
    }
}
