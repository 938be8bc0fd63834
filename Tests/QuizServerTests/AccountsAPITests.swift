import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import QuizUseCases
import Testing

@Suite struct AccountsAPITests {
    @Test func registeringReturnsTheProfileWithoutThePassword() async throws {
        try await withApp { client, _ in
            let response = try await client.call(.post, "/api/v1/users", json: [
                "username": "ada.lovelace", "firstName": "Ada", "lastName": "Lovelace", "password": "analytical engine",
            ])
            #expect(response.status == .created)
            #expect(response["username"] as? String == "ada.lovelace")
            #expect(response["role"] as? String == "player")
            #expect(!response.raw.contains("analytical"))
            #expect(!response.raw.lowercased().contains("password"))
        }
    }

    @Test func aTakenUsernameInAnyCaseIsAConflict() async throws {
        try await withApp { client, _ in
            _ = try await client.signUp("Grace")
            let response = try await client.call(.post, "/api/v1/users", json: [
                "username": "grace", "firstName": "G", "lastName": "H", "password": "another password",
            ])
            #expect(response.status == .conflict)
            #expect(response.errorCode == "username_taken")
            #expect(response.errorField == "username")
        }
    }

    @Test(arguments: [
        ("ab", "good password", "username"),
        ("has space", "good password", "username"),
        ("<script>", "good password", "username"),
        (String(repeating: "x", count: 33), "good password", "username"),
        ("valid_name", "short", "password"),
        ("valid_name", "", "password"),
    ])
    func invalidRegistrationsNameTheField(username: String, password: String, field: String) async throws {
        try await withApp { client, _ in
            let response = try await client.call(.post, "/api/v1/users", json: [
                "username": username, "firstName": "A", "lastName": "B", "password": password,
            ])
            #expect(response.status == .unprocessableContent)
            #expect(response.errorField == field)
            #expect((response.json["error"] as? [String: Any])?["message"] as? String != nil)
        }
    }

    @Test func theMinimumPasswordLengthIsConfigurableButEmptyIsAlwaysRefused() async throws {
        try await withApp(configure: { $0.minimumPasswordLength = 3 }) { client, _ in
            let short = try await client.call(.post, "/api/v1/users", json: [
                "username": "shorty", "firstName": "A", "lastName": "B", "password": "abc",
            ])
            #expect(short.status == .created)
        }
        try await withApp(configure: { $0.minimumPasswordLength = 0 }) { client, _ in
            let empty = try await client.call(.post, "/api/v1/users", json: [
                "username": "empty", "firstName": "A", "lastName": "B", "password": "",
            ])
            #expect(empty.status == .unprocessableContent)
            #expect(empty.errorField == "password")
        }
    }

    @Test func logInGivesATokenAndAnHttpOnlySameSiteCookie() async throws {
        try await withApp { client, _ in
            _ = try await client.signUp("linus")
            let response = try await client.call(.post, "/api/v1/sessions", json: ["username": "LINUS", "password": "correct horse"])
            #expect(response.status == .ok)
            let token = try #require(response["token"] as? String)
            #expect(token.count == 43)
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.contains("quizbox_session=\(token)"))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(!cookie.contains("Secure"))
            #expect((response["user"] as? [String: Any])?["username"] as? String == "linus")
        }
    }

    @Test func wrongUsernameAndWrongPasswordGetTheSameAnswer() async throws {
        try await withApp { client, _ in
            _ = try await client.signUp("margaret")
            let wrongPassword = try await client.call(.post, "/api/v1/sessions", json: ["username": "margaret", "password": "nope nope"])
            let wrongUser = try await client.call(.post, "/api/v1/sessions", json: ["username": "nobody", "password": "nope nope"])
            #expect(wrongPassword.status == .unauthorized)
            #expect(wrongPassword.raw == wrongUser.raw)
            #expect(wrongUser.errorCode == "invalid_credentials")
        }
    }

    @Test func theProfileWorksWithTokenOrCookieAndShowsPointsAndRank() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("barbara")
            let byToken = try await client.call(.get, "/api/v1/me", token: token)
            #expect(byToken.status == .ok)
            #expect(byToken["points"] as? Int == 0)
            #expect(byToken["rank"] as? Int == 1)
            #expect(byToken["quizzesFinished"] as? Int == 0)
            let byCookie = try await client.call(.get, "/api/v1/me", cookie: "quizbox_session=\(token)")
            #expect(byCookie["username"] as? String == "barbara")
        }
    }

    @Test func missingForgedExpiredAndRevokedCredentialsAreRefusedClearly() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("ken")
            #expect(try await client.call(.get, "/api/v1/me").errorCode == "unauthenticated")
            #expect(try await client.call(.get, "/api/v1/me", token: "forged").errorCode == "invalid_token")
            let lookalike = String(repeating: "A", count: 43)
            #expect(try await client.call(.get, "/api/v1/me", token: lookalike).errorCode == "invalid_token")

            let logOut = try await client.call(.delete, "/api/v1/sessions/current", token: token)
            #expect(logOut.status == .noContent)
            #expect(logOut.headers[.setCookie]?.contains("Max-Age=0") == true)
            let revoked = try await client.call(.get, "/api/v1/me", token: token)
            #expect(revoked.status == .unauthorized)
            #expect(revoked.errorCode == "invalid_token")

            let session = try await client.call(.post, "/api/v1/sessions", json: ["username": "ken", "password": "correct horse"])
            let fresh = try #require(session["token"] as? String)
            env.time.advance(by: env.config.sessionLifetime + 1)
            let expired = try await client.call(.get, "/api/v1/me", token: fresh)
            #expect(expired.status == .unauthorized)
            #expect(expired.errorCode == "session_expired")
        }
    }
}
