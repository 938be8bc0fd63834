import Foundation
import Hummingbird
import QuizCore
import QuizText
@testable import QuizServer
import Synchronization
import Testing

@Suite struct PageRendererTests {
    @Test func anEditedQuestionIsRenderedAnew() async throws {
        let renderer = try await PageRenderer.load()
        var question = Question(id: 7, text: "Which?", body: .singleChoice([
            Choice(id: 1, text: "<b>bold</b>", isCorrect: true), Choice(id: 2, text: "plain", isCorrect: false),
        ]))
        let context = { ["singleChoice": true, "choices": question.body.choices.map { ["id": $0.id, "html": RichText.html($0.text)] as [String: Any] }] as [String: Any] }
        let first = renderer.fragment("question-fields", for: question, language: .en, context)
        #expect(first.contains("&lt;b&gt;bold&lt;/b&gt;"))
        question.body = .singleChoice([Choice(id: 1, text: "changed", isCorrect: true), Choice(id: 2, text: "plain", isCorrect: false)])
        let second = renderer.fragment("question-fields", for: question, language: .en, context)
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

@Suite struct PageSkeletonTests {
    static let hostile = "<script>alert('x') & \"y\"</script> \u{1}0<\u{2} é"

    /// Every shape of the question page, with hostile text: the skeleton renders exactly what Mustache does.
    @Test(arguments: [false, true], [false, true])
    func theQuestionPageIsTheSameAsMustacheRendersIt(answered: Bool, timed: Bool) async throws {
        let renderer = try await PageRenderer.load()
        var context: [String: Any] = [
            "chrome": "<header>top</header>", "csrf": "tok'en", "attemptId": Int64(12), "id": Int64(7),
            "quizTitle": Self.hostile, "position": 3, "questionCount": 10, "questionHead": "<h1>Q</h1>",
        ]
        if answered {
            context["answered"] = true
            context["verdictClass"] = "wrong"
            context["verdictText"] = Self.hostile
            context["given"] = "<b>given</b>"
            context["correctAnswer"] = "a & b"
            context["nextId"] = Int64(8)
        } else {
            context["questionFields"] = "<input name=\"answer\">"
            context["feedback"] = Self.hostile
            if timed {
                context["timed"] = true
                context["secondsLeft"] = 5
            }
            context["allAnswered"] = false
        }
        let fast = try #require(renderer.html("question", context))
        let direct = try #require(renderer.directHTML("question", context))
        #expect(fast == direct)
        #expect(fast.contains("&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;"))
        #expect(!fast.contains("<script>alert"))
    }

    @Test func anotherUserSeesTheirOwnValuesInTheSameShape() async throws {
        let renderer = try await PageRenderer.load()
        let ada = try #require(renderer.html("error", ["heading": "Ada's page", "message": "one", "csrf": "a"]))
        let bob = try #require(renderer.html("error", ["heading": "Bob's page", "message": "two", "csrf": "b"]))
        #expect(ada.contains("Ada&#39;s page") && ada.contains("one") && !ada.contains("Bob"))
        #expect(bob.contains("Bob&#39;s page") && bob.contains("two") && !bob.contains("Ada"))
        #expect(renderer.skeletons.entries.withLock { $0.count } == 1)
    }

    @Test func contextsWithListsAreRenderedByMustacheDirectly() async throws {
        let renderer = try await PageRenderer.load()
        let context: [String: Any] = ["quizzes": [["id": 1, "title": "<i>Planets</i>", "topic": "Space", "questionCount": "3 questions"]]]
        let html = try #require(renderer.html("quizzes", context))
        #expect(html.contains("&lt;i&gt;Planets&lt;/i&gt;"))
        #expect(renderer.skeletons.entries.withLock { $0.isEmpty })
    }
}
