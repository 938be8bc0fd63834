import Foundation
import Hummingbird
import QuizCore
import QuizUseCases

// What the pages still on WebController (news articles, practice settings) use of the authoring
// pages, which have moved to controllers of their own. Delete with those pages.
extension WebController {
    /// The author or admin behind this visit; nil for a player, who is shown `needsAuthor`.
    /// Someone signed out is sent to log in and back.
    func requireAuthor(_ visit: Visit, returnTo path: String) async throws -> User? {
        let user = try requireUser(visit, returnTo: path)
        return user.role.canAuthor ? user : nil
    }

    /// The /manage explanation of what role is needed (403).
    func needsAuthor(_ visit: Visit) async throws -> Response {
        pages.refusal(.needsAuthor, visit: visit)
    }

    static func kindLabel(_ kind: QuestionKind) -> String { ManageText.kindLabel(kind) }
}
