import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import QuizStore
import Testing

@Suite struct ModesPageTests {
    @Test(arguments: ["/practice", "/random", "/games", "/questions/1", "/games/1"])
    func theModesNeedASignedInPlayer(path: String) async throws {
        try await withApp { client, _ in
            let page = try await TestBrowser(client).get(path)
            #expect(page.status == .seeOther)
            #expect(page.location?.hasPrefix("/login?next=") == true)
        }
    }

    @Test func practiceStartsWithTheChosenSettingsAndRemembersThem() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            let home = try await browser.get("/home")
            #expect(home.contains(#"href="/practice""#) && home.contains(#"href="/games""#) && home.contains(#"href="/random""#))
            let form = try await browser.get("/practice")
            #expect(form.contains(#"name="subject" value="1""#))
            #expect(form.contains(#"name="kind" value="nameAll""#) == false)
            let started = try await browser.post("/practice", [("count", "2"), ("kind", "trueFalse"), ("kind", "numeric"),
                                                               ("order", "bankOrder"), ("difficulty", "any"), ("time_limit", "20")])
            #expect(started.status == .seeOther)
            let question = try await browser.follow(started)
            #expect(question.contains("The Sun is a star."))
            #expect(question.contains(#"id="countdown""#))
            #expect(question.contains(#"data-seconds="20""#))
            #expect(question.contains(#"<script src="/static/countdown.js" defer></script>"#))
            let again = try await browser.get("/practice")
            #expect(again.contains(#"name="kind" value="numeric" checked"#))
            #expect(again.contains(#"<option value="20" selected>"#))
            #expect(again.contains(#"value="bankOrder" checked"#))
        }
    }

    @Test func tooFewQuestionsAreOfferedAndAUsedUpPoolCanStartOver() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            let fewer = try await browser.post("/practice", [("count", "9"), ("order", "random")])
            #expect(fewer.status == .ok)
            #expect(fewer.contains("Only 5 questions you have not seen match"))
            // Offered next to the notice (not under the form, a screen away on a phone), in words.
            #expect(fewer.contains(#"form="practice-form" name="accept_fewer" value="1">Practise with 5 questions</button>"#))
            #expect(fewer.html.range(of: #"id="play-fewer""#)!.lowerBound < fewer.html.range(of: #"id="practice-form""#)!.lowerBound)
            #expect(fewer.contains(#"value="9""#), "the form keeps what was chosen")
            let started = try await browser.post("/practice", [("count", "9"), ("order", "random"), ("accept_fewer", "1")])
            #expect(started.status == .seeOther)
            let usedUp = try await browser.post("/practice", [("count", "1"), ("order", "random")])
            #expect(usedUp.contains("You have seen all 5 questions"))
            let reset = try await browser.post("/practice/reset", [])
            #expect(reset.location == "/practice?reset=1")
            #expect(try await browser.post("/practice", [("count", "1"), ("order", "random")]).status == .seeOther)
            let invalid = try await browser.post("/practice", [("count", "500"), ("order", "random")])
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.contains(#"id="count-error""#))
        }
    }

    @Test func aLateAnswerOnAPracticePageSaysWhyItScoredNothing() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            let started = try await browser.post("/practice", [("count", "1"), ("kind", "trueFalse"), ("order", "bankOrder"), ("time_limit", "10")])
            let path = try #require(started.location)
            _ = try await browser.get(path)
            env.time.advance(by: 12)
            let answered = try await browser.follow(try await browser.post(path, [("value", "true")]))
            #expect(answered.contains("Too late"))
            #expect(answered.contains(#"id="correct-answer""#))
        }
    }

    @Test func aQuestionOnItsOwnShowsItsVerdictAndHasAShareableAddress() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            let random = try await browser.get("/random/question?topic=1")
            #expect(random.status == .seeOther)
            #expect(random.location?.hasPrefix("/questions/") == true)
            let page = try await browser.get("/questions/4")
            #expect(page.contains("Capital of France?"))
            #expect(!page.contains("Paris"), "the answer never reaches the page before answering")
            let result = try await browser.follow(try await browser.post("/questions/4", [("text", "paris")]))
            #expect(result.contains("Right!"))
            #expect(result.contains("+1 point"))
            #expect(result.contains("Paris has been the capital since 987."))
            let again = try await browser.follow(try await browser.post("/questions/4", [("text", "paris")]))
            #expect(again.contains("already answered this question today"))
            let empty = try await browser.post("/questions/4", [("text", "")])
            #expect(empty.status == .unprocessableContent)
            #expect(try await browser.get("/questions/999").status == .notFound)
        }
    }

    @Test func theGameWorksWithoutJavaScript() async throws {
        try await withApp { client, env in
            _ = try await env.store.importBank(planetsBank(), at: env.time.now())
            let browser = TestBrowser(client)
            try await browser.register("ada")
            let list = try await browser.get("/games")
            #expect(list.contains("Name all the planets."))
            #expect(list.contains("8 items · 2 min"))
            let started = try await browser.post("/games", [("question", "6")])
            let gamePath = try #require(started.location)
            let game = try await browser.get(gamePath)
            #expect(game.contains(#"id="guess-form""#))
            #expect(game.contains(#"found-count">0</span> of 8 found"#))
            #expect(game.contains("2:00"))
            #expect(!game.contains("Neptune"), "no answer on the page before it is found")
            #expect(game.html.components(separatedBy: #"class="item-blank""#).count - 1 == 8)
            let found = try await browser.follow(try await browser.post(gamePath + "/guesses", [("guess", "neptune")]))
            #expect(found.contains("Found one!"))
            #expect(found.contains(#"<li class="item-found">Neptune</li>"#))
            #expect(found.contains(#"found-count">1</span> of 8 found"#))
            let wrong = try await browser.follow(try await browser.post(gamePath + "/guesses", [("guess", "<script>pluto")]))
            #expect(wrong.contains("That is not on the list."))
            #expect(!wrong.contains("<script>pluto"))
            env.time.advance(by: 40)
            let ended = try await browser.follow(try await browser.post(gamePath + "/give-up", []))
            #expect(ended.contains("You gave up."))
            #expect(ended.contains(#"<li class="item-missed">Mercury</li>"#))
            #expect(ended.contains(#"id="game-points">1 point<"#))
            #expect(!ended.contains(#"id="guess-form""#))
        }
    }
}
