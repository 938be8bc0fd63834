import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import QuizStore
import Testing

/// TeX in a question reaches the play pages as MathML: the text, the choices, the explanation and
/// the answers shown after answering, never as raw TeX.
@Suite struct MathPageTests {
    /// The page without the TeX each formula keeps for screen readers and copying.
    static func shown(_ html: String) -> String {
        html.replacingOccurrences(of: #"<annotation encoding="application/x-tex">[^<]*</annotation>"#, with: "", options: .regularExpression)
    }

    @Test func aQuestionsMathsIsMathMLOnEveryPlayPage() async throws {
        try await withApp { client, env in
            let (quizId, shown) = try await QuestionKindsAPITests().publishedQuiz(client, env, questions: [
                ["kind": "singleChoice", "text": "What is $$\\frac{1}{2} + \\frac{1}{4}$$?", "explanation": "Add \\(\\frac{2}{4} + \\frac{1}{4}\\).",
                 "choices": [["text": "\\(\\frac{3}{4}\\)", "correct": true], ["text": "\\(\\frac{2}{6}\\)", "correct": false]]],
                ["kind": "typedAnswer", "text": "Name $$\\color{red}{x}$$", "answers": ["x"]],
            ])
            let browser = TestBrowser(client)
            try await browser.register("player")
            let start = try await browser.post("/quizzes/\(quizId)/start", [])
            let attempt = try #require(QuestionKindsPageTests.captures(#"/play/(\d+)/"#, in: start.location ?? "").first)
            let questionId = try #require(shown["singleChoice"]?["id"] as? Int)
            let path = "/play/\(attempt)/questions/\(questionId)"
            let page = try await browser.get(path).html
            #expect(page.contains(#"<h1 id="question-text">What is <math display="block"><semantics><mrow><mfrac><mn>1</mn><mn>2</mn></mfrac>"#), "\(page)")
            #expect(page.contains(#"<span class="answer-text"><math><semantics><mfrac><mn>3</mn><mn>4</mn></mfrac>"#))
            #expect(!Self.shown(page).contains("\\frac") && !Self.shown(page).contains("$$"))

            let choice = try #require(QuestionKindsAPITests.options(shown["singleChoice"], "choices").first { $0.text.contains("3") }?.id)
            let answered = try await browser.post(path, [("choice", "\(choice)")])
            let feedback = try await browser.get(answered.location ?? path).html
            #expect(feedback.contains(#"<p class="explanation" id="explanation">Add <math><semantics><mrow><mfrac><mn>2</mn><mn>4</mn></mfrac>"#), "\(feedback)")
            #expect(!Self.shown(feedback).contains("\\frac"))

            // TeX the converter does not know is shown as its source, not dropped.
            let typed = try await browser.get("/play/\(attempt)/questions/\(try #require(shown["typedAnswer"]?["id"] as? Int))").html
            #expect(typed.contains(#"Name <code class="tex">$$\color{red}{x}$$</code>"#))
        }
    }

    @Test func anAuthorPreviewsTheMathsAndIsToldWhatStaysTeX() async throws {
        try await withApp { client, env in
            let author = try await ManagePageTests().signedIn(client, env, "writer", role: .author)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            let before = try await env.store.topicQuestions(topicId: topicId)?.count
            let form: [(String, String)] = [("topic", "\(topicId)"), ("kind", "typedAnswer"), ("text", "Simplify $$\\frac{2}{4}$$"),
                                            ("answers", "\\(\\frac{1}{2}\\)\n$$\\color{red}{x}$$"), ("preview", "1")]
            let preview = try await author.post("/manage/questions", form)
            #expect(preview.status == .ok)
            #expect(preview.contains(#"<p class="preview-text">Simplify <math display="block"><semantics><mfrac><mn>2</mn><mn>4</mn></mfrac>"#), "\(preview.html)")
            #expect(preview.contains(#"<li><math><semantics><mfrac><mn>1</mn><mn>2</mn></mfrac>"#))
            #expect(preview.contains(#"$$\color{red}{x}$$ is shown as written, not as maths"#))
            // The form keeps what was typed, and nothing is saved.
            #expect(preview.contains(#">Simplify $$\frac{2}{4}$$</textarea>"#))
            #expect(try await env.store.topicQuestions(topicId: topicId)?.count == before)
        }
    }
}
