import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Drawing practice rounds: what the player is told when the draw falls short.
@Suite struct PracticeTests {
    @Test func aRoundStartsWithUnseenQuestionsAndTheSettingsAreRemembered() async throws {
        try await withUseCases { env in
            _ = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            #expect(try await env.practice.settings(userId: ada.id) == PracticeSettings())
            let settings = PracticeSettings(count: 3, order: .bankOrder, timeLimitSeconds: 20)
            let first = try await env.practice.start(userId: ada.id, settings: settings, acceptFewer: false)
            #expect(first.draw.status == .full)
            #expect(first.attempt != nil)
            #expect(try await env.practice.settings(userId: ada.id) == settings)
            // Two unseen left: nothing starts until the player takes fewer.
            let fewer = try await env.practice.start(userId: ada.id, settings: settings, acceptFewer: false)
            #expect(fewer.draw.status == .fewerThanAsked(available: 2))
            #expect(fewer.attempt == nil)
            let accepted = try await env.practice.start(userId: ada.id, settings: settings, acceptFewer: true)
            #expect(accepted.draw.questionIds.count == 2)
            #expect(Set(accepted.draw.questionIds).isDisjoint(with: first.draw.questionIds))
            let usedUp = try await env.practice.start(userId: ada.id, settings: settings, acceptFewer: true)
            #expect(usedUp.draw.status == .poolUsedUp(matching: 5))
            #expect(usedUp.attempt == nil)
            try await env.practice.forgetSeen(userId: ada.id)
            #expect(try await env.practice.start(userId: ada.id, settings: settings, acceptFewer: false).attempt != nil)
        }
    }

    @Test func settingsThatMatchNothingOrBreakRulesStartNothing() async throws {
        try await withUseCases { env in
            _ = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let nothing = try await env.practice.start(userId: ada.id, settings: PracticeSettings(topicIds: [999]), acceptFewer: true)
            #expect(nothing.draw.status == .nothingMatches)
            #expect(nothing.attempt == nil)
            do {
                _ = try await env.practice.start(userId: ada.id, settings: PracticeSettings(count: 500, timeLimitSeconds: 7), acceptFewer: true)
                Issue.record("broken settings started a round")
            } catch let Practice.Failure.invalidSettings(problems) {
                #expect(problems.map(\.field) == ["count", "timeLimitSeconds"])
            }
            #expect(try await env.practice.settings(userId: ada.id) == PracticeSettings(), "nothing is remembered")
        }
    }
}
