import Foundation
import Hummingbird
import QuizCore
@testable import QuizServer
import Testing

@Suite struct PageRendererTests {
    @Test func anEditedQuestionIsRenderedAnew() async throws {
        let renderer = try await PageRenderer.load()
        var question = Question(id: 7, text: "Which?", body: .singleChoice([
            Choice(id: 1, text: "<b>bold</b>", isCorrect: true), Choice(id: 2, text: "plain", isCorrect: false),
        ]))
        let context = { ["singleChoice": true, "choices": question.body.choices.map { ["id": $0.id, "text": $0.text] as [String: Any] }] as [String: Any] }
        let first = renderer.fragment("question-fields", for: question, context)
        #expect(first.contains("&lt;b&gt;bold&lt;/b&gt;"))
        question.body = .singleChoice([Choice(id: 1, text: "changed", isCorrect: true), Choice(id: 2, text: "plain", isCorrect: false)])
        let second = renderer.fragment("question-fields", for: question, context)
        #expect(second.contains("changed"))
        #expect(!second.contains("bold"))
    }

    @Test func theHeaderShowsWhoIsSignedInAndTheTab() async throws {
        let renderer = try await PageRenderer.load()
        let ada = renderer.chrome(PageChrome(title: "Home", username: "<ada>", tab: "Home"))
        #expect(ada.contains("Signed in as <strong>&lt;ada&gt;</strong>"))
        #expect(ada.contains(#"id="tab-home" href="/home" aria-current="page""#))
        let anonymous = renderer.chrome(PageChrome(title: "Home", username: nil))
        #expect(!anonymous.contains("Signed in"))
        #expect(!anonymous.contains("tab-home"))
    }

    @Test(arguments: [
        ("a=1; quizbox_session=tok; b=2", "tok"),
        ("quizbox_session=tok", "tok"),
        ("quizbox_session_old=x; quizbox_session=new", "new"),
        ("xquizbox_session=no", nil),
        ("quizbox_session=", ""),
        ("", nil),
    ] as [(String, String?)])
    func cookiesAreFoundByExactName(header: String, expected: String?) {
        #expect(Request.cookie("quizbox_session", in: header) == expected)
    }

    @Test(arguments: [
        ("Bearer abc", "abc"), ("bearer   abc \t", "abc"), ("BEARER x-y_z", "x-y_z"),
        ("Basic abc", nil), ("Bearer", nil), ("Bearerabc", nil),
    ] as [(String, String?)])
    func bearerTokensAreReadWhateverTheCaseAndBlanks(header: String, expected: String?) {
        #expect(CredentialMiddleware<AppRequestContext>.bearerToken(header) == expected)
    }
}
