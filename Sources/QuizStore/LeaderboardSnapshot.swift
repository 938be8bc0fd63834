import QuizCore

/// How many users hold each points total, as one snapshot: ranks come from a binary search
/// instead of a query per caller.
struct PointsDistribution: Sendable {
    /// Totals in descending order, with how many users hold more than each.
    private let totals: [Int64]
    private let usersAbove: [Int64]
    let userCount: Int

    init(buckets: [(points: Int64, users: Int64)]) {
        let sorted = buckets.sorted { $0.points > $1.points }
        var above: [Int64] = []
        above.reserveCapacity(sorted.count)
        var running: Int64 = 0
        for bucket in sorted {
            above.append(running)
            running += bucket.users
        }
        totals = sorted.map(\.points)
        usersAbove = above
        userCount = Int(running)
    }

    /// 1 + how many users have more than `points`.
    func rank(points: Int64) -> Int64 {
        var low = 0
        var high = totals.count
        while low < high {
            let mid = (low + high) / 2
            if totals[mid] > points { low = mid + 1 } else { high = mid }
        }
        return (low == totals.count ? Int64(userCount) : usersAbove[low]) + 1
    }
}

/// The rows at both ends of the leaderboard, the same for every caller.
struct LeaderboardEnds: Sendable {
    var top: [(username: String, points: Int64)]
    var last: (username: String, points: Int64)?

    /// The board `user` sees, everyone on it ranked against `distribution`.
    func board(for user: User, ranked distribution: PointsDistribution) -> Leaderboard {
        let me = Ranking(rank: distribution.rank(points: user.points), username: user.username, points: user.points)
        let last = last.map { Ranking(rank: distribution.rank(points: $0.points), username: $0.username, points: $0.points) }
        return Leaderboard.compose(topRows: top, me: me, last: last, userCount: distribution.userCount)
    }
}
