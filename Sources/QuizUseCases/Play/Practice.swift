import Foundation
import QuizCore
import QuizStore

/// Practice rounds: the player's settings, drawing a round of questions they have not seen, and
/// forgetting what they have seen. A round is played as an attempt (`PlayQuiz`).
package struct Practice: Sendable {
    package enum Failure: Error, Equatable {
        /// Every broken rule, in the form's order.
        case invalidSettings([PracticeSettings.Invalid])
    }

    package typealias Storage = CatalogStore & PracticeStore
    let store: any Storage
    let time: any TimeSource

    package init(store: any Storage, time: any TimeSource) {
        self.store = store
        self.time = time
    }

    /// The settings last played with, or the defaults.
    package func settings(userId: Int64) async throws -> PracticeSettings {
        try await store.practiceSettings(userId: userId) ?? PracticeSettings()
    }

    /// The subjects and topics a round may be drawn from.
    package func subjects() async throws -> [SubjectTopics] {
        try await store.subjectsWithTopics()
    }

    package struct Start: Sendable {
        package var draw: PracticeDraw.Outcome
        /// Nil when nothing started: too few questions (and not accepted), pool used up, nothing matches.
        package var attempt: Attempt?
    }

    /// Draws a round and, when the draw gave enough (or the player takes fewer), starts it; the
    /// settings are remembered with it.
    package func start(userId: Int64, settings: PracticeSettings, acceptFewer: Bool) async throws -> Start {
        let problems = settings.validationErrors()
        guard problems.isEmpty else { throw Failure.invalidSettings(problems) }
        let candidates = try await store.practiceCandidates()
        let seen = try await store.seenQuestions(userId: userId)
        var generator = SystemRandomNumberGenerator()
        let draw = PracticeDraw.draw(from: candidates, settings: settings, seen: seen, using: &generator)
        let playable = switch draw.status {
        case .full: true
        case .fewerThanAsked: acceptFewer
        case .poolUsedUp, .nothingMatches: false
        }
        guard playable else { return Start(draw: draw, attempt: nil) }
        let count = draw.questionIds.count
        let title = "Practice · \(count) question\(count == 1 ? "" : "s")"
        let attempt = try await store.startPractice(userId: userId, settings: settings, title: title,
                                                    questionIds: draw.questionIds, at: time.now())
        return Start(draw: draw, attempt: attempt)
    }

    /// Forgets what the player has seen, so every question can be drawn again.
    package func forgetSeen(userId: Int64) async throws {
        try await store.forgetSeenQuestions(userId: userId)
    }
}
