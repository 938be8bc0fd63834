import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import Testing

@Suite struct WebPageTests {
    @Test func theEntryPageOffersBothWaysIn() async throws {
        try await withApp { client, _ in
            let page = try await TestBrowser(client).get("/")
            #expect(page.status == .ok)
            #expect(page.contains(#"id="play-link""#))
            #expect(page.contains(#"id="manage-link""#))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(!page.contains("<script"), "no inline script anywhere")
        }
    }

    @Test(arguments: ["/home", "/quizzes", "/leaderboard", "/profile", "/history", "/subjects/1", "/quizzes/1", "/play/1"])
    func signedInPagesSendVisitorsToLogInAndBack(path: String) async throws {
        try await withApp { client, _ in
            let page = try await TestBrowser(client).get(path)
            #expect(page.status == .seeOther)
            #expect(page.location == "/login?next=\(TestBrowser.encode(path).replacingOccurrences(of: "%2F", with: "/"))")
        }
    }

    @Test func registeringShowsErrorsNextToTheFieldAndKeepsWhatWasTyped() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("taken")
            browser.dropCookie("quizbox_session")
            let page = try await browser.post("/register", [("first_name", "Grace"), ("last_name", "Hopper"), ("username", "TAKEN"),
                                                            ("password", "long enough"), ("password_confirm", "long enough")])
            #expect(page.status == .unprocessableContent)
            #expect(page.contains(#"id="error-username""#))
            #expect(page.contains("That username is taken"))
            #expect(page.contains(#"value="Grace""#))
            #expect(!page.contains("long enough"), "passwords are never echoed")
            let mismatch = try await browser.post("/register", [("first_name", "G"), ("last_name", "H"), ("username", "grace"),
                                                                ("password", "long enough"), ("password_confirm", "other one")])
            #expect(mismatch.contains(#"id="error-password_confirm""#))
        }
    }

    @Test func logInFeedbackDoesNotSayWhichFieldWasWrong() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            browser.dropCookie("quizbox_session")
            let wrongPassword = try await browser.post("/login", [("username", "ada"), ("password", "not it at all")])
            let wrongUser = try await browser.post("/login", [("username", "nobody"), ("password", "not it at all")])
            #expect(wrongPassword.status == .unauthorized)
            #expect(wrongPassword.contains("Wrong username or password."))
            #expect(wrongUser.contains("Wrong username or password."))
            #expect(wrongPassword.contains(#"value="ada""#), "the username stays typed")
            let ok = try await browser.post("/login", [("username", "ada"), ("password", "correct horse"), ("next", "/leaderboard")])
            #expect(ok.location == "/leaderboard")
            let offsite = try await browser.post("/login", [("username", "ada"), ("password", "correct horse"), ("next", "//evil.example")])
            #expect(offsite.location == "/home")
        }
    }

    @Test func tooManyLogInAttemptsAreRefusedWithAClearMessage() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            _ = try await browser.get("/login")
            for _ in 0..<10 { try await browser.post("/login", [("username", "victim"), ("password", "guess guess")]) }
            let blocked = try await browser.post("/login", [("username", "victim"), ("password", "guess guess")])
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.contains("Too many log-in attempts"))
            env.time.advance(by: 61)
            let later = try await browser.post("/login", [("username", "victim"), ("password", "guess guess")])
            #expect(later.status == .unauthorized)
        }
    }

    @Test func aFormWithoutItsTokenExplainsItselfAndKeepsTheInput() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            _ = try await browser.get("/register")
            let page = try await browser.post("/register", [("first_name", "Forged"), ("username", "forger"), ("password", "secret pw")],
                                              csrf: false)
            #expect(page.status == .forbidden)
            #expect(page.contains("This form has expired"))
            #expect(page.contains(#"name="first_name" value="Forged""#))
            #expect(!page.contains("secret pw"))
            #expect(page.contains(#"id="retry-button""#))
            let wrongToken = try await browser.post("/login", [("username", "x"), ("password", "y"), ("csrf", String(repeating: "A", count: 43))],
                                                    csrf: false)
            #expect(wrongToken.status == .forbidden)
        }
    }

    @Test func anExpiredSessionSendsThePersonToLogInWithAReason() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            try await browser.register("sleepy")
            env.time.advance(by: env.config.sessionLifetime + 1)
            let page = try await browser.get("/profile")
            #expect(page.location == "/login?next=/profile&expired=1")
            let login = try await browser.follow(page)
            #expect(login.contains("Your session has expired"))
        }
    }

    /// Issue 30: the verdict, the right answer and Continue come before the question and its
    /// tiles (in a phone's first screen), the verdict has an icon as well as its colour, and focus
    /// starts on it so a screen reader reads it after Submit.
    @Test func theVerdictComesFirstWithContinueAndTakesTheFocus() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("verdicts")
            _ = try await browser.post("/quizzes/1/start", [])
            let jupiter = try await client.choiceId("Jupiter", question: 1)
            let right = try await browser.follow(try await browser.post("/play/1/questions/1", [("choice", "\(jupiter)")])).html
            func position(_ text: String, in html: String) throws -> String.Index { try #require(html.range(of: text)).lowerBound }
            #expect(right.contains(#"class="verdict-banner verdict-right" id="feedback" aria-labelledby="verdict" aria-describedby="streak your-answer correct-answer" tabindex="-1" autofocus"#))
            #expect(try position(#"id="verdict""#, in: right) < position(#"id="correct-answer""#, in: right))
            #expect(try position(#"id="correct-answer""#, in: right) < position(#"id="continue""#, in: right))
            #expect(try position(#"id="continue""#, in: right) < position(#"class="card question""#, in: right))
            #expect(right.contains(#"<path d="M9 16.2 4.8 12"#), "a tick")
            let wrong = try await browser.follow(try await browser.post("/play/1/questions/3", [("value", "false")])).html
            #expect(wrong.contains(#"class="verdict-banner verdict-wrong""#))
            #expect(wrong.contains(#"<path d="M19 6.4 17.6 5 12 10.6"#), "a cross")
            #expect(try position(#"id="feedback""#, in: wrong) < position(#"class="card question""#, in: wrong))
        }
    }

    @Test func playingInTheBrowserGivesFeedbackHistoryAndAScore() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("player")
            let home = try await browser.get("/home")
            #expect(home.contains("Science"))
            #expect(home.contains(">1 topic<"), "one topic, not '1 topics'")
            #expect(home.contains(#"id="tab-home" href="/home" aria-current="page""#))
            let subject = try await browser.get("/subjects/1")
            #expect(subject.contains("Astronomy"))
            #expect(subject.contains(#"href="/quizzes/1""#))
            let start = try await browser.post("/quizzes/1/start", [])
            #expect(start.location == "/play/1/questions/1")

            let question = try await browser.follow(start)
            #expect(question.contains("Which planet is largest?"))
            let jupiter = try await client.choiceId("Jupiter", question: 1)
            let mars = try await client.choiceId("Mars", question: 1)
            #expect(question.contains(#"type="radio" name="choice" value="\#(jupiter)""#))
            #expect(!question.contains("Jupiter is the largest planet"), "no explanation before answering")

            let right = try await browser.follow(try await browser.post("/play/1/questions/1", [("choice", "\(jupiter)")]))
            #expect(right.contains("Right! +1 point"))
            #expect(right.contains("Jupiter is the largest planet."))
            #expect(right.contains(#"id="continue" href="/play/1/questions/2""#))
            let again = try await browser.post("/play/1/questions/1", [("choice", "\(mars)")])
            #expect(again.location == "/play/1/questions/1?already=1")
            #expect(try await browser.follow(again).contains("You already answered this question"))

            let wrong = try await browser.follow(try await browser.post("/play/1/questions/3", [("value", "false")]))
            #expect(wrong.contains("Not quite."))
            #expect(wrong.contains("Correct answer: <strong>True</strong>"))
            let typed = try await browser.follow(try await browser.post("/play/1/questions/4", [("text", "paris")]))
            #expect(typed.contains("Right!"))
            let empty = try await browser.post("/play/1/questions/5", [("number", "")])
            #expect(empty.status == .unprocessableContent)
            #expect(empty.contains("Choose or type an answer"))

            let list = try await browser.get("/play/1")
            #expect(list.contains(#"data-status="right""#))
            #expect(list.contains(#"data-status="wrong""#))
            #expect(list.contains(#"data-status="unanswered""#))
            let history = try await browser.get("/history")
            #expect(history.contains("The Sun is a star."))
            #expect(history.contains("verdict-wrong"))

            let finished = try await browser.post("/play/1/finish", [])
            #expect(finished.location == "/play/1/result")
            let result = try await browser.follow(finished)
            #expect(result.contains(#"id="score"><strong class="big-number">2</strong> of 5 right</p>"#))
            #expect(result.contains(#"<li class="status-right"><details><summary><span class="grow">1. "#), "each question, to open")
            #expect(result.contains(#"id="points-earned">2 of 8"#))
            #expect(result.contains(#"id="rank">1"#))

            let board = try await browser.get("/leaderboard")
            #expect(board.contains(#"<a class="username" href="/users/player">player</a><span class="points">2 points</span>"#))
            #expect(!board.contains("1 points"))
            let profile = try await browser.get("/profile")
            #expect(profile.contains(#"id="profile-points">2"#))
            #expect(profile.contains(#"id="profile-finished">1"#))
            #expect(!profile.contains("correct horse"))
        }
    }

    @Test func historyCoversOnlyThePlaySessionAndLeavingEndsIt() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            try await browser.register("historian")
            _ = try await browser.post("/quizzes/1/start", [])
            _ = try await browser.get("/play/1/questions/1")
            _ = try await browser.post("/play/1/questions/1", [("choice", "\(try await client.choiceId("Jupiter", question: 1))")])
            #expect(try await browser.get("/history").contains("Which planet is largest?"))
            _ = try await browser.get("/leaderboard")
            #expect(browser.cookies["quizbox_play"] == nil, "leaving quiz pages ends the play session")
            env.time.advance(by: 5)
            let fresh = try await browser.get("/history")
            #expect(fresh.contains(#"id="history-empty""#))
        }
    }

    @Test func hostileContentIsShownAsText() async throws {
        try await withApp { client, env in
            let evil = "<script>alert(1)</script>"
            _ = try await env.store.importBank(Bank(subjects: [BankSubject(name: "S\(evil)", topics: [BankTopic(name: "T", quizzes: [
                BankQuiz(title: "Quiz \(evil)", questions: [Question(text: "Q \(evil)?", body: .trueFalse(true))]),
            ])])]), at: env.time.now())
            env.time.advance(by: env.config.resolvedCacheLifetime + 1)
            let browser = TestBrowser(client)
            try await browser.register("mallory", first: evil, last: "\"><img src=x>")
            for path in ["/home", "/quizzes", "/profile", "/quizzes/2", "/subjects/2"] {
                let page = try await browser.get(path)
                #expect(page.status == .ok, "\(path)")
                #expect(!page.contains(evil), "\(path) must escape")
                #expect(!page.contains("<img src=x>"), "\(path) must escape")
            }
            #expect(try await browser.get("/profile").contains("&lt;script&gt;"))
            _ = try await browser.post("/quizzes/2/start", [])
            let question = try await browser.get("/play/1/questions/6")
            #expect(question.contains("Q &lt;script&gt;"))
        }
    }

    @Test func changingThePasswordNeedsTheOldOneAndLogsOutOtherDevices() async throws {
        try await withApp { client, _ in
            let laptop = TestBrowser(client)
            try await laptop.register("pat", password: "first password")
            let phone = TestBrowser(client)
            _ = try await phone.get("/login")
            _ = try await phone.post("/login", [("username", "pat"), ("password", "first password")])
            #expect(try await phone.get("/profile").status == .ok)

            let wrong = try await laptop.post("/profile/password", [("old_password", "nope nope"), ("new_password", "second password"),
                                                                    ("new_password_confirm", "second password")])
            #expect(wrong.contains("Your current password is not right."))
            // Every mistake at once, each next to its field.
            let all = try await laptop.post("/profile/password", [("old_password", "nope nope"), ("new_password", "short"),
                                                                  ("new_password_confirm", "shorter")])
            #expect(all.status == .unprocessableContent)
            for (id, message) in [("error-old-password", "Your current password is not right."),
                                  ("error-new-password", "Password must be at least 8 characters long."),
                                  ("error-new-password-confirm", "The two new passwords differ.")] {
                #expect(all.contains(#"id="\#(id)">\#(message)</p>"#), "\(id)")
            }
            #expect(all.html.components(separatedBy: #"aria-invalid="true""#).count == 4)
            let done = try await laptop.post("/profile/password", [("old_password", "first password"), ("new_password", "second password"),
                                                                   ("new_password_confirm", "second password")])
            #expect(done.contains("Your password has been changed"))
            #expect(try await laptop.get("/profile").status == .ok)
            #expect(try await phone.get("/profile").status == .seeOther)
        }
    }

    @Test func aLiveGameFormWithMistakesShowsEachAndKeepsWhatWasChosen() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("hostess")
            let page = try await browser.post("/live", [("quiz", "1"), ("secondsPerQuestion", "1"), ("teams", "9"),
                                                        ("shuffleAnswers", "true"), ("autoAdvance", "true"), ("points-2", "double")])
            #expect(page.status == .unprocessableContent)
            #expect(page.contains(#"id="error-seconds">Give a whole number of seconds from 5 to 240.</p>"#))
            #expect(page.contains(#"id="error-teams">Choose no teams, or 2 to 6.</p>"#))
            #expect(page.contains(#"name="secondsPerQuestion""#) && page.contains(#"value="1""#))
            #expect(page.contains(#"id="shuffle-answers" name="shuffleAnswers" value="true" checked"#))
            #expect(page.contains(#"id="auto-advance" name="autoAdvance" value="true" checked"#))
            #expect(!page.contains(#"id="streak-bonus" name="streakBonus" value="true" checked"#), "left unticked, it stays so")
            #expect(page.contains(#"<option value="double" selected>Double</option>"#))
        }
    }

    @Test func loggingOutEndsTheSession() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("leaver")
            let out = try await browser.post("/logout", [])
            #expect(out.location == "/login?loggedout=1")
            #expect(try await browser.follow(out).contains("You have logged out."))
            #expect(browser.cookies["quizbox_session"] == nil)
            #expect(try await browser.get("/home").status == .seeOther)
        }
    }

    @Test func contactShowsTheConfiguredOperator() async throws {
        try await withApp(configure: { $0.contactEmail = "quiz@school.example"; $0.contactURL = "https://school.example" }) { client, _ in
            let page = try await TestBrowser(client).get("/contact")
            #expect(page.contains(#"href="mailto:quiz@school.example""#))
            #expect(page.contains(#"id="contact-url" href="https://school.example""#))
            #expect(page.contains(#"id="contact-back" href="/""#))
        }
    }

    @Test func unknownPagesGetTheStyledNotFoundPage() async throws {
        try await withApp { client, _ in
            let page = try await TestBrowser(client).get("/no/such/page")
            #expect(page.status == .notFound)
            #expect(page.contains("Page not found"))
            #expect(page.contains("/static/app.css"))
            let api = try await client.call(.get, "/api/v1/no-such")
            #expect(api.errorCode == "not_found", "the API keeps answering JSON")
            let browser = TestBrowser(client)
            try await browser.register("lost")
            for path in ["/no/such/page", "/subjects/999", "/quizzes/999", "/play/999"] {
                let signedIn = try await browser.get(path)
                #expect(signedIn.status == .notFound, "\(path)")
                #expect(signedIn.contains("Signed in as <strong>lost</strong>"), "\(path) keeps the signed-in header")
                #expect(signedIn.contains(#"id="tab-home""#), "\(path)")
                #expect(!signedIn.contains(#"id="tab-manage""#), "a player has no Manage tab")
            }
        }
    }

    @Test func managingNeedsAnAuthorAndImportsAfterAPreviewAllOrNothing() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            try await browser.register("writer")
            let asPlayer = try await browser.get("/manage")
            #expect(asPlayer.status == .forbidden)
            #expect(asPlayer.contains(#"id="manage-requirement""#))
            #expect(try await browser.get("/manage/quizzes/1/export?format=gift").status == .forbidden)
            // As `quizbox user set-role` from another process: seen once the session cache lifetime passes.
            try await env.store.setRole(.author, username: "writer")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            #expect(try await browser.get("/manage").contains(#"id="import-form""#))

            let fields = [("subject", "Geo"), ("topic", "Seas"), ("quiz_title", "Oceans"), ("format", "")]
            let bad = try await browser.post("/manage/import", fields + [("csv", "Largest?,Pacific,Atlantic,,,Pacific\nBroken?,A,B,,,C\n")])
            #expect(bad.status == .unprocessableContent)
            #expect(bad.contains("line 2"))
            #expect(bad.contains("Largest?"), "the pasted file is kept")

            let gift = "Which ocean is largest? {=Pacific ~Atlantic}\n\nDescribe the sea. {}\n"
            let preview = try await browser.post("/manage/import", fields + [("csv", gift), ("action", "preview")])
            #expect(preview.contains("Read as gift: 1 question (1 single choice)"), "\(preview.html)")
            #expect(preview.contains("Left out: line 3"))
            #expect(preview.contains(#"id="import-button""#))
            #expect(try await env.store.subjects().count == 1, "a preview stores nothing")
            let stored = try await browser.post("/manage/import", fields + [("csv", gift), ("action", "import")])
            #expect(stored.contains("Imported 1 question into a new quiz."))
            #expect(try await env.store.subjects().map(\.name) == ["Science", "Geo"], "uncategorised GIFT uses the subject the form gave")

            let unreachable = try await browser.post("/manage/import", fields + [("url", "http://127.0.0.1:9/bank.gift")])
            #expect(unreachable.status == .unprocessableContent)
            #expect(unreachable.contains("Could not load it"))

            let download = try await browser.get("/manage/quizzes/1/export?format=gift")
            #expect(download.status == .ok)
            #expect(download.headers[.contentDisposition] == #"attachment; filename="quiz-1.gift""#)
            #expect(download.contains("Which planet is largest?"))
        }
    }

    /// What a phone downloads for a page: the page and every stylesheet and script it names, as
    /// sent to a browser that takes gzip (pictures aside).
    static func weight(of page: TestBrowser.Page, in browser: TestBrowser) async throws -> Int {
        var total = page.bytes
        let pattern = #"(?:href|src)="(/static/[a-z0-9.-]+\.(?:css|js))""#
        let regex = try NSRegularExpression(pattern: pattern)
        let html = page.html as NSString
        let assets = Set(regex.matches(in: page.html, range: NSRange(location: 0, length: html.length)).map { html.substring(with: $0.range(at: 1)) })
        for asset in assets {
            let file = try await browser.get(asset)
            #expect(file.status == .ok, "\(asset)")
            total += file.bytes
        }
        return total
    }

    @Test func everyPageWithItsStylesheetsAndScriptsStaysUnder60KB() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            browser.acceptEncoding = "gzip, deflate, br"
            try await browser.register("sizer")
            try await env.store.setRole(.author, username: "sizer")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            _ = try await browser.post("/quizzes/1/start", [])
            let hosted = try await browser.post("/live", [("quiz", "1"), ("secondsPerQuestion", "20"), ("teams", "0")])
            let host = try #require(hosted.location, "\(hosted.status) \(hosted.html)")
            var weighed = 0
            for path in ["/", "/home", "/subjects/1", "/quizzes", "/quizzes/1", "/play/1", "/play/1/questions/1", "/history",
                         "/leaderboard", "/profile", "/contact", "/manage", "/manage/catalog", "/manage/quizzes/1",
                         "/manage/questions/1", "/manage/questions/new?topic=1", "/practice", "/random", "/games",
                         "/feed", "/people", "/users/sizer", "/live", "/live/new?quiz=1", host, "/join", "/join/123456", "/articles",
                         "/manage/articles", "/questions/1"] {
                let page = try await browser.get(path)
                #expect(page.status == .ok, "\(path)")
                let weight = try await Self.weight(of: page, in: browser)
                #expect(weight < 60_000, "\(path): \(weight) bytes with its stylesheets and scripts")
                weighed = max(weighed, weight)
            }
            #expect(weighed > 5_000, "the pages and their files were weighed")
        }
    }

    @Test func staticFilesAreGzippedForBrowsersThatTakeItAndRevalidateByETag() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            let plain = try await browser.get("/static/app.css")
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.html.contains("prefers-color-scheme"))
            browser.acceptEncoding = "gzip;q=0, identity"
            #expect(try await browser.get("/static/app.css").headers[.contentEncoding] == nil)
            browser.acceptEncoding = "br, gzip"
            let packed = try await browser.get("/static/app.css")
            #expect(packed.headers[.contentEncoding] == "gzip")
            #expect(packed.headers[.vary] == "Accept-Encoding")
            #expect(packed.bytes * 3 < plain.bytes, "\(packed.bytes) of \(plain.bytes) bytes")
            #expect(packed.headers[.eTag] == plain.headers[.eTag])
            let tag = try #require(plain.headers[.eTag])
            let again = try await client.execute(uri: "/static/app.css", method: .get, headers: [.ifNoneMatch: tag]) { $0 }
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            // PNGs are already compressed: sent as they are.
            #expect(try await browser.get("/static/icon-192.png").headers[.contentEncoding] == nil)
        }
    }
}
