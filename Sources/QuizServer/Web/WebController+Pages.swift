import Foundation
import Hummingbird
import QuizCore
import QuizFormats
import NIOCore
import QuizStore
import QuizUseCases

extension WebController {
    func leaderboard(_ visit: Visit) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/leaderboard")
        let board = try await store.leaderboard(userId: user.id, limit: 3)
        func row(_ ranking: Ranking) -> [String: Any] {
            ["rank": ranking.rank, "username": ranking.username, "isMe": ranking.username == user.username,
             "points": ranking.points == 1 ? "1 point" : "\(ranking.points) points"]
        }
        var context = base(visit, title: "Leaderboard", tab: "Leaderboard")
        context["top"] = board.top.map(row)
        if let footer = board.footer {
            var footerRow = row(footer)
            footerRow["footerNote"] = footer.username == user.username ? "Where you stand." : "The last place on the board."
            context["footer"] = footerRow
        }
        return renderer.render("leaderboard", context)
    }
}
