import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import Testing

/// `next` sends people back where they were, and only to a page of this site.
@Suite struct RedirectTests {
    /// What an attacker puts in `next`, as it reads after the query or form is decoded once.
    static let bypasses = [
        "/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "\\evil.example", "/\\evil.example", "/\\/evil.example",
        "//evil.example", "%2f%2fevil.example", "/%2f%2fevil.example", "/%2F/evil.example", "https://evil.example", "https:evil.example",
        "javascript:alert(1)", "/\u{3000}/evil.example", "/\u{200B}/evil.example", "/%09/evil.example", "/%5Cevil.example", " /home",
        "evil.example", "",
    ]

    static func query(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    @Test func aSignedInVisitorIsNeverSentOffTheSiteFromTheLoginPage() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            for next in Self.bypasses {
                let page = try await browser.get("/login?next=\(Self.query(next))")
                #expect(page.status == .seeOther, "\(next.debugDescription)")
                #expect(page.location == "/home", "\(next.debugDescription) went to \(page.location ?? "nil")")
            }
            // The issue's reproduction, as typed in the address bar.
            #expect(try await browser.get("/login?next=/%09/evil.example").location == "/home")
        }
    }

    @Test func loggingInNeverSendsThePersonOffTheSite() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            try await browser.post("/logout", [])
            for next in Self.bypasses {
                let form = try await browser.get("/login?next=\(Self.query(next))")
                #expect(form.contains(#"name="next" value="/home""#), "\(next.debugDescription)")
                let page = try await browser.post("/login", [("username", "ada"), ("password", "correct horse"), ("next", next)])
                #expect(page.location == "/home", "\(next.debugDescription) went to \(page.location ?? "nil")")
                try await browser.post("/logout", [])
                env.time.advance(by: 7)  // within the log-in limit
            }
        }
    }

    @Test func creatingAnAccountFromTheLogInPageComesBackToWhereSigningInWasAsked() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            // A class's join link, opened by a student without an account yet.
            let login = try await browser.get("/login?next=\(Self.query("/classes/join/123456"))")
            #expect(login.contains(#"id="create-account-link" href="/register?next=/classes/join/123456""#), "\(login.html)")
            let form = try await browser.get("/register?next=\(Self.query("/classes/join/123456"))")
            #expect(form.contains(#"name="next" value="/classes/join/123456""#))
            let fields = [("first_name", "Ann"), ("last_name", "Lee"), ("password", "correct horse"), ("password_confirm", "correct horse")]
            let mistyped = try await browser.post("/register", fields.dropLast() + [("password_confirm", "other"), ("username", "ann"),
                                                                                    ("next", "/classes/join/123456")])
            #expect(mistyped.status == .unprocessableContent && mistyped.contains(#"name="next" value="/classes/join/123456""#), "kept")
            let made = try await browser.post("/register", fields + [("username", "ann"), ("next", "/classes/join/123456")])
            #expect(made.location == "/classes/join/123456")
            // Without a `next`, and with one off the site: home, as before.
            try await browser.post("/logout", [])
            #expect(try await browser.get("/login").contains(#"id="create-account-link" href="/register""#))
            for (index, next) in Self.bypasses.prefix(8).enumerated() {
                let page = try await browser.post("/register", fields + [("username", "bo\(index)"), ("next", next)])
                #expect(page.location == "/home", "\(next.debugDescription) went to \(page.location ?? "nil")")
                try await browser.post("/logout", [])
            }
        }
    }

    @Test func deletingAPostNeverSendsThePersonOffTheSite() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            for next in Self.bypasses.prefix(8) {
                let posted = try await browser.postToFeed("hello \(next.count)", image: nil)
                let id = try #require(posted.location?.split(separator: "-").last)
                let page = try await browser.post("/posts/\(id)/delete", [("next", next)])
                #expect(page.location == "/home", "\(next.debugDescription) went to \(page.location ?? "nil")")
            }
        }
    }

    @Test func sameSitePathsAreKeptWithTheirQueryAndFragment() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            #expect(try await browser.get("/login?next=\(Self.query("/quizzes/1?x=1#top"))").location == "/quizzes/1?x=1#top")
            // A name outside ASCII stays the same page, percent-encoded for the header.
            #expect(try await browser.get("/login?next=\(Self.query("/users/äiti"))").location == "/users/%C3%A4iti")
        }
    }
}
