import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import Testing

/// The new kinds on the quiz pages, as a player without any script meets them: plain form fields
/// (places, selects, gaps, a number), feedback with partial credit, and a slide that moves the quiz on.
@Suite struct QuestionKindsPageTests {
    /// Every match of `pattern`'s first group in `html`, in order.
    static func captures(_ pattern: String, in html: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap {
            Range($0.range(at: 1), in: html).map { String(html[$0]) }
        }
    }

    /// The id a `<option value="id">text</option>` or an item `data-id="id"…text` names.
    static func option(_ text: String, in html: String) -> String? {
        captures(#"<option value="(\d+)">\#(NSRegularExpression.escapedPattern(for: text))</option>"#, in: html).first
    }

    @Test func everyNewKindIsPlayedWithPlainFormFields() async throws {
        try await withApp { client, env in
            let (quizId, shown) = try await QuestionKindsAPITests().publishedQuiz(client, env)
            let browser = TestBrowser(client)
            try await browser.register("player")
            let start = try await browser.post("/quizzes/\(quizId)/start", [])
            let attempt = try #require(Self.captures(#"/play/(\d+)/"#, in: start.location ?? "").first)
            func page(_ kind: String) async throws -> (path: String, html: String) {
                let path = "/play/\(attempt)/questions/\(shown[kind]?["id"] as? Int ?? 0)"
                return (path, try await browser.get(path).html)
            }

            // Ordering: a place per item, in an order that is not the right one's stored order.
            let ordering = try await page("ordering")
            let itemIds = Self.captures(#"<li class="order-item" data-id="(\d+)""#, in: ordering.html)
            let texts = Self.captures(#"<span class="order-text">([^<]+)</span>"#, in: ordering.html)
            #expect(Set(texts) == ["Rome", "Paris", "Helsinki", "Brasília"])
            #expect(itemIds.allSatisfy { $0.count == 9 })
            let right = ["Rome", "Paris", "Helsinki", "Brasília"]
            // Paris and Rome swapped: half the places right.
            let places = zip(itemIds, texts).map { id, text in ("place-\(id)", String(["Paris", "Rome", "Helsinki", "Brasília"].firstIndex(of: text)! + 1)) }
            let answered = try await browser.follow(try await browser.post(ordering.path, places))
            #expect(answered.contains("Partly right (50 %). +2 points"), "\(answered.html)")
            #expect(answered.contains(right.joined(separator: " → ")))

            let twice = try await browser.post(ordering.path, places)
            #expect(twice.location?.contains("already=1") == true, "the first answer stands")

            let matchingPage = try await page("matching")

            let helsinki = try #require(Self.option("Helsinki", in: matchingPage.html))
            let stockholm = try #require(Self.option("Stockholm", in: matchingPage.html))
            #expect(matchingPage.html.contains(#"<label for="match-1">Finland</label>"#))
            let matched = try await browser.follow(try await browser.post(matchingPage.path, [("match-1", helsinki), ("match-2", stockholm)]))
            #expect(matched.contains("Right! +2 points"), "\(matched.html)")

            let gaps = try await page("gapFill")
            #expect(gaps.html.contains(#"aria-label="Gap 2""#))
            let seine = try #require(Self.option("Seine", in: gaps.html))
            let filled = try await browser.follow(try await browser.post(gaps.path, [("gapchoice-1", seine), ("gaptext-2", "Lyon")]))
            #expect(filled.contains("Partly right (25 %). +1 point"), "\(filled.html)")

            let poll = try await page("poll")
            let coffee = try #require(Self.captures(#"name="choice" value="(\d+)" required><svg[^>]*><path[^>]*/></svg><span class="answer-text">Coffee"#, in: poll.html).first)
            let voted = try await browser.follow(try await browser.post(poll.path, [("choice", coffee)]))
            #expect(voted.contains("Thanks: your answer is counted."))
            #expect(!voted.contains(#"id="correct-answer""#))

            let estimate = try await page("estimate")
            #expect(estimate.html.contains(#"type="number" min="1900" max="2000" step="1" value="1950""#))
            #expect(!estimate.html.contains("1969"))
            let outside = try await browser.post(estimate.path, [("number", "2050")])
            #expect(outside.contains("Choose a number from 1900 to 2000."))
            let guessed = try await browser.follow(try await browser.post(estimate.path, [("number", "1971")]))
            #expect(guessed.contains("Partly right (80 %). +8 points"), "\(guessed.html)")

            let cloud = try await page("wordCloud")
            #expect(cloud.html.contains(#"name="text" maxlength="40""#))
            #expect(try await browser.follow(try await browser.post(cloud.path, [("text", "Coffee")])).contains("Thanks: your answer is counted."))

            let single = try await page("singleChoice")
            let canberra = try #require(Self.captures(#"name="choice" value="(\d+)" required><svg[^>]*><path[^>]*/></svg><span class="answer-text">Canberra"#, in: single.html).first)
            _ = try await browser.post(single.path, [("choice", canberra)])
            // Out of the five questions that can be right: the poll and the word cloud are not.
            let result = try await browser.follow(try await browser.post("/play/\(attempt)/finish", []))
            #expect(result.contains(#"<strong class="big-number">2</strong> of 5 right"#), "\(result.html)")
            #expect(result.contains(#"<li class="status-partly">"#))
            #expect(result.contains(#"<li class="status-counted">"#))
        }
    }

    @Test func aWordCloudShowsWhatEveryoneWroteOnlyAfterAnswering() async throws {
        try await withApp { client, env in
            let (quizId, shown) = try await QuestionKindsAPITests().publishedQuiz(client, env)
            let cloudId = shown["wordCloud"]?["id"] as? Int ?? 0
            for (name, word) in [("ann", "Coffee!"), ("bob", "  coffee"), ("cid", "Tea")] {
                let browser = TestBrowser(client)
                try await browser.register(name)
                let start = try await browser.post("/quizzes/\(quizId)/start", [])
                let attempt = try #require(Self.captures(#"/play/(\d+)/"#, in: start.location ?? "").first)
                let path = "/play/\(attempt)/questions/\(cloudId)"
                let before = try await browser.get(path)
                #expect(!before.contains(#"id="opinions""#), "nothing of the others before answering")
                _ = try await browser.post(path, [("text", word)])
                if name == "cid" {
                    env.time.advance(by: 6)  // past the few seconds a tally is kept
                    let after = try await browser.get(path)
                    #expect(after.contains(#"<li class="word-size-5">Coffee <span class="visually-hidden">(2 answers)</span></li>"#), "\(after.html)")
                    #expect(after.contains(#">Tea <span class="visually-hidden">(1 answer)</span>"#))
                }
            }
        }
    }

    @Test func twoItemsInOnePlaceAreRefusedWithAMessage() async throws {
        try await withApp { client, env in
            let (quizId, shown) = try await QuestionKindsAPITests().publishedQuiz(client, env)
            let browser = TestBrowser(client)
            try await browser.register("player")
            let start = try await browser.post("/quizzes/\(quizId)/start", [])
            let attempt = try #require(Self.captures(#"/play/(\d+)/"#, in: start.location ?? "").first)
            let path = "/play/\(attempt)/questions/\(shown["ordering"]?["id"] as? Int ?? 0)"
            let itemIds = Self.captures(#"<li class="order-item" data-id="(\d+)""#, in: try await browser.get(path).html)
            let refused = try await browser.post(path, itemIds.map { ("place-\($0)", "1") })
            #expect(refused.status == .unprocessableContent)
            #expect(refused.contains("Give each item a place of its own."))
            #expect(try await browser.get(path).contains(#"name="place-"#), "still unanswered")
        }
    }
}
