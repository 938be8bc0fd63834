import PostgresNIO
import SQLKit

/// Ranks without counting everyone, and without summing every distinct total either.
///
/// `point_buckets` holds how many users have each total (level 0); `point_ranges` holds the same
/// counts for ranges of 64, 4,096 and 262,144 points (levels 1–3: a total's range at level `k` is
/// `points >> shifts[k]`). How many users have more than a total is then the sum of the totals
/// above it in its own 64, the 64s above its own in its 4,096, the 4,096s above its own in its
/// 262,144, and the 262,144s above its own: at most 63 rows on each of the first three levels,
/// whatever the number of users or of distinct totals, and one row per 262,144 points above on the
/// last. A change of total moves one user between two rows on each level where its range changes
/// (usually only level 0), in the transaction that changes the total.
public enum PointLevels {
    /// Bits dropped from a total at each level; level 0 is `point_buckets` itself. Migration 8
    /// filled `point_ranges` with these: changing them needs a migration that runs `rebuild`.
    static let shifts: [Int64] = [0, 6, 12, 18]
    static var top: Int { shifts.count - 1 }

    /// The rows a range at `level` (1 and up) holds, as `point_ranges` is filled from `point_buckets`
    /// by migration 8 and by anything that reseeds the buckets.
    static func backfill(level: Int) -> String {
        """
        INSERT INTO point_ranges (level, bucket, users)
        SELECT \(level), points >> \(shifts[level]), CAST(SUM(users) AS BIGINT) FROM point_buckets
        GROUP BY points >> \(shifts[level])
        """
    }

    /// Rebuilds `point_ranges` from `point_buckets` (for seeding and repairs; ordinary writes keep
    /// them in step one user at a time). The same SQL on SQLite and PostgreSQL.
    public static var rebuild: [String] { ["DELETE FROM point_ranges"] + (1...top).map(backfill(level:)) }

    /// One statement summing, for each of `totals` totals, the users with more points: per total and
    /// level, `SELECT <index> AS part, sum FROM … WHERE …` over the ranges it covers, joined by
    /// UNION ALL, with `$1`, `$2`, … for the bounds (`aheadValues` gives them). The bounds are worked
    /// out here rather than in SQL: a statement of plain ranges plans in a fraction of the time of
    /// one that derives them from subqueries. The text depends only on how many totals there are,
    /// so PostgreSQL prepares it once per connection (`PlannedStatement`).
    static func aheadSQL(totals: Int) -> String {
        var parameter = 0
        func next() -> String {
            parameter += 1
            return "$\(parameter)"
        }
        var selects: [String] = []
        for index in 0..<totals {
            for level in shifts.indices {
                var sql = "SELECT \(index) AS part, CAST(COALESCE(SUM(users), 0) AS BIGINT) AS n FROM "
                sql += level == 0 ? "point_buckets WHERE points > \(next())" : "point_ranges WHERE level = \(level) AND bucket > \(next())"
                // Only inside the range one level up: the ranges above that one are counted there.
                if level < top { sql += (level == 0 ? " AND points < " : " AND bucket < ") + next() }
                selects.append(sql)
            }
        }
        return selects.joined(separator: " UNION ALL ")
    }

    /// The bounds `aheadSQL` binds for one total, in order. `>>` rounds down here as in SQL,
    /// negative totals included.
    static func aheadValues(of points: Int64) -> [Int64] {
        shifts.indices.flatMap { level -> [Int64] in
            let own = points >> shifts[level]
            guard level < top else { return [own] }
            return [own, ((points >> shifts[level + 1]) + 1) << (shifts[level + 1] - shifts[level])]
        }
    }
}

/// How many users have more points than one total.
struct UsersAheadOfOneStatement: PlannedStatement {
    static let name = "quizbox_users_ahead_1"
    static let sql = PointLevels.aheadSQL(totals: 1)
    var points: Int64
    var values: [any PostgresEncodable & Encodable & Sendable] { PointLevels.aheadValues(of: points) }
}

/// How many users have more points than each of two totals (the caller and the last-placed user).
struct UsersAheadOfTwoStatement: PlannedStatement {
    static let name = "quizbox_users_ahead_2"
    static let sql = PointLevels.aheadSQL(totals: 2)
    var first: Int64
    var second: Int64
    var values: [any PostgresEncodable & Encodable & Sendable] {
        PointLevels.aheadValues(of: first) + PointLevels.aheadValues(of: second)
    }
}

extension SQLStore {
    /// 1 + how many users have more than `points`: one statement, a few hundred rows at most.
    static func rank(_ db: any SQLDatabase, points: Int64) async throws -> Int64 {
        try await usersAhead(db, of: ["": points])["", default: 0] + 1
    }

    /// How many users have more points than each of `totals` (one or two), keyed as given: one statement.
    static func usersAhead(_ db: any SQLDatabase, of totals: [String: Int64]) async throws -> [String: Int64] {
        let ordered = totals.sorted { $0.key < $1.key }
        let rows: [any SQLRow]
        switch ordered.count {
        case 0: return [:]
        case 1: rows = try await UsersAheadOfOneStatement(points: ordered[0].value).rows(on: db)
        case 2: rows = try await UsersAheadOfTwoStatement(first: ordered[0].value, second: ordered[1].value).rows(on: db)
        default: preconditionFailure("ranks are asked for one or two totals at a time")
        }
        return try rows.reduce(into: [:]) { sums, row in
            sums[ordered[try row.int("part")].key, default: 0] += try row.int64("n")
        }
    }

    /// Keeps `point_buckets` and `point_ranges` in step with a user's total moving from `old` to
    /// `new` (nil: a new user), inside the caller's transaction.
    static func moveBucket(_ db: any SQLDatabase, from old: Int64?, to new: Int64) async throws {
        var changes: [(level: Int, bucket: Int64, delta: Int64)] = []
        for (level, shift) in PointLevels.shifts.enumerated() {
            let to = new >> shift
            if let old {
                let from = old >> shift
                if from == to { break }  // the same range here means the same range on every level above
                changes.append((level, from, -1))
            }
            changes.append((level, to, 1))
        }
        // Rows are always changed in one order (level, then range). Two writers moving users in
        // opposite directions at once on PostgreSQL then wait for each other instead of each
        // holding the row the other needs next (a deadlock).
        changes.sort { ($0.level, $0.bucket) < ($1.level, $1.bucket) }
        for change in changes {
            if change.level == 0 {
                try await moveLevelZero(db, points: change.bucket, delta: change.delta)
            } else {
                try await moveRange(db, level: change.level, bucket: change.bucket, delta: change.delta)
            }
        }
    }

    private static func moveLevelZero(_ db: any SQLDatabase, points: Int64, delta: Int64) async throws {
        if delta > 0 {
            try await db.raw("""
                INSERT INTO point_buckets (points, users) VALUES (\(bind: points), 1)
                ON CONFLICT (points) DO UPDATE SET users = point_buckets.users + 1
                """).run()
            return
        }
        let left = try await db.raw("""
            UPDATE point_buckets SET users = users - 1 WHERE points = \(bind: points) RETURNING users
            """).first()?.int64("users")
        // An empty total is removed: the row is already this transaction's, so no new lock is taken.
        if let left, left <= 0 {
            try await db.raw("DELETE FROM point_buckets WHERE points = \(bind: points) AND users <= 0").run()
        }
    }

    private static func moveRange(_ db: any SQLDatabase, level: Int, bucket: Int64, delta: Int64) async throws {
        if delta > 0 {
            try await db.raw("""
                INSERT INTO point_ranges (level, bucket, users) VALUES (\(bind: level), \(bind: bucket), 1)
                ON CONFLICT (level, bucket) DO UPDATE SET users = point_ranges.users + 1
                """).run()
            return
        }
        let left = try await db.raw("""
            UPDATE point_ranges SET users = users - 1 WHERE level = \(bind: level) AND bucket = \(bind: bucket) RETURNING users
            """).first()?.int64("users")
        if let left, left <= 0 {
            try await db.raw("""
                DELETE FROM point_ranges WHERE level = \(bind: level) AND bucket = \(bind: bucket) AND users <= 0
                """).run()
        }
    }
}
