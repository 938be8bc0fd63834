import CoreMetrics
import Foundation

/// The store's figures for `/metrics`: cache hits and misses, and the database pools' use and wait.
/// Built from the server's metrics factory; `nil` where a store is used without metrics (CLI, tests).
public struct StoreMetrics: Sendable {
    let factory: any MetricsFactory

    public init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Hit and miss counters of the cache called `name`.
    public func cache(_ name: String) -> CacheCounters {
        CacheCounters(
            hits: Counter(label: "quizbox_cache_hits_total", dimensions: [("cache", name)], factory: factory),
            misses: Counter(label: "quizbox_cache_misses_total", dimensions: [("cache", name)], factory: factory))
    }

    /// The figures of one connection pool (`readers`, `writer`, or `main` where one pool does both).
    func pool(_ name: String, size: Int) -> PoolMetrics {
        let size = Meter(label: "quizbox_db_pool_connections_max", dimensions: [("pool", name)], factory: factory)
        return PoolMetrics(
            inUse: Meter(label: "quizbox_db_pool_connections_in_use", dimensions: [("pool", name)], factory: factory),
            waiting: Meter(label: "quizbox_db_pool_waiting", dimensions: [("pool", name)], factory: factory),
            wait: CoreMetrics.Timer(label: "quizbox_db_pool_wait_seconds", dimensions: [("pool", name)], factory: factory),
            held: CoreMetrics.Timer(label: "quizbox_db_connection_held_seconds", dimensions: [("pool", name)], factory: factory),
            size: size)
    }
}

/// Counts a cache's lookups: a hit is one answered without a database read of its own (a fresh
/// entry, or a load another request already started); a miss starts the load.
public struct CacheCounters: Sendable {
    package let hits: Counter
    package let misses: Counter
}

/// A pool's use, measured around each lease by `PoolBox` (async-kit's pool does not report its own).
struct PoolMetrics: Sendable {
    let inUse: Meter
    let waiting: Meter
    let wait: CoreMetrics.Timer
    let held: CoreMetrics.Timer
    let size: Meter
}
