import QuizCore
import QuizStore

extension QuizSummary {
    /// Who may run this quiz for others (a live game, an assignment): anyone signed in a
    /// published quiz, authors also a draft; nobody someone's practice round.
    package func mayBeHosted(by user: User) -> Bool {
        isListed || (user.role.canAuthor && !isPractice)
    }
}
