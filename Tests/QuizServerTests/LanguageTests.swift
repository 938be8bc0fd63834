import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import QuizText
import Testing

/// Finnish and English: chosen from the browser, switched on any page, remembered per user.
@Suite struct PageLanguageTests {
    let fi = Texts.of(.fi)

    func finnishBrowser(_ client: any TestClientProtocol) -> TestBrowser {
        let browser = TestBrowser(client)
        browser.acceptLanguage = "fi-FI,fi;q=0.9,en;q=0.8"
        return browser
    }

    @Test func theBrowsersLanguageChoosesThePagesLanguage() async throws {
        try await withApp { client, _ in
            let finnish = try await finnishBrowser(client).get("/login")
            #expect(finnish.contains(#"<html lang="fi">"#))
            #expect(finnish.contains(fi("Log in")))
            #expect(fi("Log in") != "Log in")
            let english = TestBrowser(client)
            english.acceptLanguage = "en-GB,en;q=0.9"
            let page = try await english.get("/login")
            #expect(page.contains(#"<html lang="en">"#))
            #expect(page.contains("Log in"))
            #expect(!page.contains(fi("Log in")))
            // Nothing we speak asked for: English.
            let german = TestBrowser(client)
            german.acceptLanguage = "de-DE,de;q=0.9"
            #expect(try await german.get("/login").contains(#"<html lang="en">"#))
        }
    }

    @Test func everyPageOffersTheOtherLanguageAndComesBackToItself() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("aino")
            let board = try await browser.get("/leaderboard")
            #expect(board.contains(#"action="/language""#))
            #expect(board.contains(#"value="/leaderboard""#), "the switcher comes back to this page")
            #expect(board.contains(#"<button type="submit" name="language" value="fi" lang="fi">Suomi</button>"#))
            let switched = try await browser.post("/language", [("language", "fi"), ("next", "/leaderboard")])
            #expect(switched.status == .seeOther)
            #expect(switched.location == "/leaderboard")
            let cookie = switched.headers.first { $0.name == .setCookie && $0.value.hasPrefix("quizbox_lang=fi") }?.value
            #expect(cookie?.contains("HttpOnly") == true && cookie?.contains("SameSite=Lax") == true)
            let finnish = try await browser.follow(switched)
            #expect(finnish.contains(#"<html lang="fi">"#))
            #expect(finnish.contains(fi("Leaderboard")))
            #expect(finnish.contains(#"value="en" lang="en">English</button>"#))
        }
    }

    @Test func theChoiceFollowsTheUserToAnotherDevice() async throws {
        try await withApp { client, env in
            let phone = TestBrowser(client)
            try await phone.register("eino", password: "correct horse")
            _ = try await phone.post("/language", [("language", "fi"), ("next", "/home")])
            // A new browser that says English: once signed in, the user's choice wins.
            let laptop = TestBrowser(client)
            laptop.acceptLanguage = "en-US,en;q=0.9"
            _ = try await laptop.get("/login")
            #expect(try await laptop.get("/login").contains(#"<html lang="en">"#))
            let signedIn = try await laptop.post("/login", [("username", "eino"), ("password", "correct horse")])
            #expect(signedIn.status == .seeOther)
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let home = try await laptop.get("/home")
            #expect(home.contains(#"<html lang="fi">"#))
            // And back: English on the laptop is English on the phone.
            _ = try await laptop.post("/language", [("language", "en"), ("next", "/home")])
            phone.dropCookie("quizbox_lang")
            #expect(try await phone.get("/home").contains(#"<html lang="en">"#))
        }
    }

    @Test func theSwitcherStaysOnThisSiteAndIgnoresUnknownLanguages() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            _ = try await browser.get("/login")
            let away = try await browser.post("/language", [("language", "fi"), ("next", "//evil.example/")])
            #expect(away.location == "/home")
            let unknown = try await browser.post("/language", [("language", "xx"), ("next", "/login")])
            #expect(unknown.status == .seeOther)
            #expect(!unknown.headers.contains { $0.name == .setCookie && $0.value.hasPrefix("quizbox_lang=xx") })
            // Without the form's token nothing changes.
            let forged = try await browser.post("/language", [("language", "fi"), ("next", "/login")], csrf: false)
            #expect(forged.status == .forbidden)
        }
    }

    @Test func formMistakesAreExplainedInTheLanguage() async throws {
        try await withApp { client, _ in
            let browser = finnishBrowser(client)
            _ = try await browser.get("/register")
            let page = try await browser.post("/register", [("first_name", "Aino"), ("last_name", "Aalto"), ("username", "a"),
                                                            ("password", "short"), ("password_confirm", "other")])
            #expect(page.status == .unprocessableContent)
            let tooShort = "Username must be 3 to 32 characters long."
            #expect(fi(tooShort) != tooShort)
            #expect(page.contains(fi(tooShort)))
            #expect(!page.contains(tooShort))
            #expect(page.contains(#"value="Aino""#), "what was typed stays")
        }
    }

    @Test func aQuestionIsShownInEachReadersLanguage() async throws {
        try await withApp { client, _ in
            // The question's HTML is cached: a Finnish reader after an English one must not get English.
            for language in [nil, "fi"] {
                let browser = TestBrowser(client)
                browser.acceptLanguage = language
                try await browser.register("reader\(language ?? "en")")
                let started = try await browser.post("/quizzes/1/start", [])
                var page = try await browser.follow(started)
                if page.location != nil { page = try await browser.follow(page) }
                let submit = language == nil ? "Submit" : fi("Submit")
                #expect(page.contains(submit), "\(language ?? "en"): \(page.html.prefix(300))")
                #expect(page.contains("Which planet is largest?"), "the bank's own text is never translated")
                if language == "fi" { #expect(!page.contains(">Submit<")) }
                // The badge a picked tile shows is a word of the page, not of the stylesheet.
                let chosen = #"<span class="chosen" aria-hidden="true">\#(language == nil ? "Chosen" : fi("Chosen"))</span>"#
                #expect(page.contains(chosen), "\(language ?? "en")")
            }
        }
    }

    @Test func apiErrorsKeepTheirCodeAndSpeakTheRequestsLanguage() async throws {
        try await withApp { client, _ in
            var headers = HTTPFields()
            headers[.acceptLanguage] = "fi"
            let (status, body) = try await client.execute(uri: "/api/v1/quizzes/999999", method: .get, headers: headers) {
                ($0.status, String(buffer: $0.body))
            }
            #expect(status == .unauthorized || status == .notFound)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            let error = try #require(json["error"] as? [String: Any])
            let message = try #require(error["message"] as? String)
            let code = try #require(error["code"] as? String)
            #expect(["unauthenticated", "not_found"].contains(code))
            let english = code == "unauthenticated" ? "Log in first: send a bearer token or the session cookie." : "No quiz with that id."
            #expect(fi(english) != english)
            #expect(message == fi(english))
        }
    }

    @Test func importProblemsThroughTheAPIAreExplainedInFinnish() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("kirjoittaja")
            try await env.store.setRole(.author, username: "kirjoittaja")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let broken = "question,option1,option2,option3,option4,answer\nBad?,A,B,,,C\n"
            func firstProblem(_ language: String?) async throws -> (code: String?, message: String, description: String) {
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(token)"
                headers[.contentType] = "application/octet-stream"
                if let language { headers[.acceptLanguage] = language }
                let body = try await client.execute(uri: "/api/v1/imports?fileName=bank.csv", method: .post, headers: headers,
                                                    body: ByteBuffer(string: broken)) { String(buffer: $0.body) }
                let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
                let error = try #require(json["error"] as? [String: Any])
                let problem = try #require((error["problems"] as? [[String: Any]])?.first)
                return (error["code"] as? String, try #require(problem["message"] as? String), try #require(problem["description"] as? String))
            }
            let english = try await firstProblem(nil)
            let finnish = try await firstProblem("fi-FI")
            #expect(english.code == "invalid_bank" && finnish.code == "invalid_bank", "codes stay")
            #expect(english.description.hasPrefix("line 2"))
            #expect(finnish.message == fi(english.message))
            #expect(finnish.message != english.message)
            #expect(finnish.description.hasPrefix("rivi 2"), "\(finnish.description)")
        }
    }

    /// Every page a player, an author and an admin open, in Finnish: no English text the catalog
    /// does not know may reach them (each one is noted as missing when asked for).
    @Test func aWalkThroughEveryPageInFinnishMeetsNoUntranslatedText() async throws {
        try await withApp { client, env in
            let browser = finnishBrowser(client)
            for path in ["/", "/login", "/register", "/contact", "/join", "/no-such-page"] { _ = try await browser.get(path) }
            try await browser.register("ylla")
            try await env.store.setRole(.admin, username: "ylla")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let paths = ["/home", "/quizzes", "/subjects/1", "/quizzes/1", "/leaderboard", "/feed", "/articles", "/people?q=yl",
                         "/users/ylla", "/profile", "/history", "/games", "/practice", "/random", "/live", "/live/new?quiz=1",
                         "/manage", "/manage/catalog", "/manage/subjects/1", "/manage/topics/1", "/manage/quizzes/1",
                         "/manage/questions/1", "/manage/questions/new?topic=1", "/manage/users", "/manage/articles"]
            for path in paths {
                let page = try await browser.get(path)
                #expect(page.status == .ok, "\(path): \(page.status)")
            }
            let started = try await browser.follow(try await browser.post("/quizzes/1/start", []))
            let question = started.location != nil ? try await browser.follow(started) : started
            #expect(question.status == .ok)
            // Mistakes on forms, in Finnish.
            _ = try await browser.post("/profile/password", [("current_password", "nope"), ("new_password", "x"), ("new_password_confirm", "y")])
            _ = try await browser.post("/feed/posts", [("body", "")])
            _ = try await browser.post("/manage/subjects", [("name", "")])
            let missing = Localization.missingTexts
            #expect(missing.isEmpty, "English shown to a Finnish reader: \(missing.sorted().prefix(30))")
        }
    }
}
