import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import Testing

/// A question's own time is what the host sees when setting up a live game.
@Suite struct QuestionTimePageTests {
    @Test func theLiveSetupSaysWhichQuestionsKeepTheirOwnTime() async throws {
        try await withApp { client, env in
            let (quizId, _) = try await QuestionKindsAPITests().publishedQuiz(client, env, questions: [
                ["kind": "trueFalse", "text": "Quick one?", "answer": true, "timeLimitSeconds": 45],
                ["kind": "trueFalse", "text": "Slow one?", "answer": false],
            ])
            let browser = TestBrowser(client)
            try await browser.register("host")
            let setup = try await browser.get("/live/new?quiz=\(quizId)")
            #expect(setup.status == .ok)
            #expect(setup.contains(#"Quick one? <span class="muted own-seconds">(45 s)</span></label>"#), "\(setup.html)")
            #expect(setup.contains("Slow one?</label>"))
            #expect(setup.contains("1 question has its own time and keeps it."))
        }
    }
}
