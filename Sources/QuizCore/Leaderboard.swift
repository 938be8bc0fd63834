import Foundation

/// One row of the leaderboard. Ties share a rank (1, 2, 2, 4).
public struct Ranking: Sendable, Hashable {
    public var rank: Int64
    public var username: String
    public var points: Int64

    public init(rank: Int64, username: String, points: Int64) {
        self.rank = rank
        self.username = username
        self.points = points
    }
}

/// The top players, the caller, and the row shown under the list.
public struct Leaderboard: Sendable, Hashable {
    public var top: [Ranking]
    public var me: Ranking
    /// The caller when outside `top`, otherwise the last-placed user; nil when everyone is in `top`.
    public var footer: Ranking?

    public init(top: [Ranking], me: Ranking, footer: Ranking?) {
        self.top = top
        self.me = me
        self.footer = footer
    }

    /// Ranks the already-sorted top rows (competition ranking) and picks the footer row.
    /// - Parameters:
    ///   - topRows: users by points descending, the first `limit` of them.
    ///   - me: the caller, with their rank.
    ///   - last: the last-placed user, with their rank.
    ///   - userCount: how many users there are.
    public static func compose(
        topRows: [(username: String, points: Int64)], me: Ranking, last: Ranking?, userCount: Int
    ) -> Leaderboard {
        var top: [Ranking] = []
        top.reserveCapacity(topRows.count)
        for (index, row) in topRows.enumerated() {
            let rank = index > 0 && top[index - 1].points == row.points ? top[index - 1].rank : Int64(index + 1)
            top.append(Ranking(rank: rank, username: row.username, points: row.points))
        }
        let footer: Ranking?
        if !top.contains(where: { $0.username == me.username }) {
            footer = me
        } else if userCount > top.count {
            footer = last
        } else {
            footer = nil
        }
        return Leaderboard(top: top, me: me, footer: footer)
    }
}
