import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import QuizStore
import Testing

@Suite struct ManagePageTests {
    /// Registers through the pages, then gets `role` as `quizbox user set-role` would give it.
    func signedIn(_ client: any TestClientProtocol, _ env: TestEnvironment, _ name: String, role: Role) async throws -> TestBrowser {
        let browser = TestBrowser(client)
        try await browser.register(name)
        if role != .player {
            try await env.store.setRole(role, username: name)
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        }
        return browser
    }

    @Test(arguments: ["/manage/catalog", "/manage/subjects/1", "/manage/topics/1", "/manage/quizzes/1", "/manage/questions/1",
                      "/manage/questions/new?topic=1", "/manage/users"])
    func playersAreToldTheyNeedTheAuthorRole(path: String) async throws {
        try await withApp { client, env in
            let player = try await signedIn(client, env, "player", role: .player)
            let page = try await player.get(path)
            #expect(page.status == .forbidden)
            #expect(page.contains(#"id="manage-requirement""#))
            #expect(!page.contains(#"id="tab-manage""#))
        }
    }

    @Test func playersCannotChangeAnythingByPosting() async throws {
        try await withApp { client, env in
            let player = try await signedIn(client, env, "player", role: .player)
            #expect(!(try await player.get("/home")).contains(#"id="tab-manage""#))
            #expect(try await player.post("/manage/subjects", [("name", "Sneaky")]).status == .forbidden)
            #expect(try await player.post("/manage/quizzes/1/delete", []).status == .forbidden)
            #expect(try await player.post("/manage/users/1/role", [("role", "admin")]).status == .forbidden)
            #expect(try await env.store.outline().map(\.name) == ["Science"])
            #expect(try await env.store.user(id: 1)?.role == .player)
        }
    }

    @Test func authorsAreToldThatRolesAreForAdmins() async throws {
        try await withApp { client, env in
            let author = try await signedIn(client, env, "writer", role: .author)
            let page = try await author.get("/manage/users")
            #expect(page.status == .forbidden)
            #expect(page.contains("Only admins manage roles"))
            #expect(try await author.post("/manage/users/1/role", [("role", "admin")]).status == .forbidden)
            #expect(try await env.store.user(id: 1)?.role == .author, "the author did not make themselves an admin")
        }
    }

    @Test func anAuthorWritesAQuizThatPlayersFindOnlyOncePublished() async throws {
        try await withApp { client, env in
            let author = try await signedIn(client, env, "writer", role: .author)
            let player = try await signedIn(client, env, "player", role: .player)
            #expect(try await author.get("/home").contains(#"id="tab-manage""#))
            #expect(try await author.get("/no/such/page").contains(#"id="tab-manage""#), "error pages keep the author's tabs")
            let manage = try await author.get("/manage")
            #expect(manage.contains(#"id="manage-catalog-link""#))
            #expect(!manage.contains(#"id="manage-users-link""#), "roles are for admins")

            let blank = try await author.post("/manage/subjects", [("name", " "), ("description", "Sounds and songs")])
            #expect(blank.status == .unprocessableContent)
            #expect(blank.contains(#"id="error-name""#))
            #expect(blank.contains("Sounds and songs"), "what was typed is kept")
            let created = try await author.post("/manage/subjects", [("name", "Music"), ("description", "Sounds and songs")])
            #expect(created.location == "/manage/catalog?done=created")
            let subjectId = try #require(try await env.store.outline().first { $0.name == "Music" }?.id)
            let topic = try await author.post("/manage/subjects/\(subjectId)/topics", [("name", "Opera"), ("description", "")])
            #expect(topic.location == "/manage/subjects/\(subjectId)?done=created")
            let topicId = try #require(try await env.store.outline().first { $0.id == subjectId }?.topics.first?.id)
            let quiz = try await author.post("/manage/topics/\(topicId)/quizzes", [("name", "Arias"), ("description", "")])
            let quizPath = try #require(quiz.location?.components(separatedBy: "?").first)
            let quizId = try #require(Int64(quizPath.components(separatedBy: "/").last ?? ""))
            #expect(try await author.follow(quiz).contains("Players cannot see this quiz yet."))

            let form = try await author.get("/manage/questions/new?topic=\(topicId)&quiz=\(quizId)")
            #expect(form.status == .ok)
            let question: [(String, String)] = [("topic", "\(topicId)"), ("quiz", "\(quizId)"), ("kind", "singleChoice"),
                                                ("text", "Who wrote Tosca?"), ("difficulty", "easy"), ("points", "2"),
                                                ("choice_text", "Puccini"), ("choice_correct", "0"), ("choice_text", "Verdi")]
            let twoRight = try await author.post("/manage/questions", question + [("choice_correct", "1")])
            #expect(twoRight.status == .unprocessableContent)
            #expect(twoRight.contains(#"id="error-choices""#))
            #expect(twoRight.contains("Needs exactly one correct choice, has 2."))
            #expect(twoRight.contains("Who wrote Tosca?"), "the question typed is kept")
            let saved = try await author.post("/manage/questions", question)
            #expect(saved.location == "/manage/quizzes/\(quizId)?done=created")
            let editor = try await author.follow(saved)
            #expect(editor.contains("Who wrote Tosca?"))
            #expect(editor.contains(#"id="preview""#))

            #expect(!(try await player.get("/quizzes")).contains("Arias"))
            #expect(try await player.get("/quizzes/\(quizId)").status == .notFound)
            #expect(!(try await player.get("/home")).contains("Music"))
            let published = try await author.post("/manage/quizzes/\(quizId)/publish", [("published", "true")])
            #expect(try await author.follow(published).contains("Published: players can find it now."))
            #expect(try await player.get("/quizzes").contains("Arias"))
            #expect(try await player.get("/home").contains("Music"))
            #expect(try await player.get("/subjects/\(subjectId)").contains("Arias"))
            let start = try await player.post("/quizzes/\(quizId)/start", [])
            #expect(try await player.follow(start).contains("Who wrote Tosca?"))
        }
    }

    @Test func quizQuestionsAreAddedRemovedAndReordered() async throws {
        try await withApp { client, env in
            let author = try await signedIn(client, env, "writer", role: .author)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            let quizId = try await env.store.create(.quiz, parent: topicId, name: "Short", description: "")
            let bank = try #require(try await env.store.topicQuestions(topicId: topicId))
            for question in bank.prefix(2) {
                _ = try await author.post("/manage/quizzes/\(quizId)/questions", [("op", "add"), ("question", "\(question.id!)")])
            }
            #expect(try await env.store.managedQuiz(id: quizId)?.questions.map(\.id) == [bank[0].id, bank[1].id])
            _ = try await author.post("/manage/quizzes/\(quizId)/questions", [("op", "up"), ("question", "\(bank[1].id!)")])
            #expect(try await env.store.managedQuiz(id: quizId)?.questions.map(\.id) == [bank[1].id, bank[0].id])
            _ = try await author.post("/manage/quizzes/\(quizId)/questions", [("op", "remove"), ("question", "\(bank[1].id!)")])
            #expect(try await env.store.managedQuiz(id: quizId)?.questions.map(\.id) == [bank[0].id])
            let page = try await author.get("/manage/quizzes/\(quizId)")
            #expect(page.contains(#"id="available-questions""#))
        }
    }

    @Test func anAdminChangesRolesAPageAtATimeButKeepsAnAdmin() async throws {
        try await withApp { client, env in
            let admin = try await signedIn(client, env, "root", role: .admin)
            for index in 1...21 { _ = try await env.store.createUser(NewUser(
                username: String(format: "user%02d", index), firstName: "U", lastName: "Ser", passwordHash: "x", role: .player, createdAt: env.time.now())) }
            #expect(try await admin.get("/manage").contains(#"id="manage-users-link""#))
            let first = try await admin.get("/manage/users")
            #expect(first.contains("22 users, page 1 of 2"))
            #expect(first.contains(#"id="next-page""#))
            #expect(try await admin.get("/manage/users?page=2").contains("user21"))
            let search = try await admin.get("/manage/users?search=USER0")
            #expect(search.contains("9 users, page 1 of 1"))

            let user01 = try #require(try await env.store.users(matching: "user01", offset: 0, limit: 1).users.first)
            let changed = try await admin.post("/manage/users/\(user01.id)/role", [("role", "author"), ("search", "user0")])
            #expect(changed.location == "/manage/users?search=user0&done=role")
            #expect(try await env.store.user(id: user01.id)?.role == .author)
            let rootId = try #require(try await env.store.users(matching: "root", offset: 0, limit: 1).users.first?.id)
            let refused = try await admin.post("/manage/users/\(rootId)/role", [("role", "player")])
            #expect(refused.status == .conflict)
            #expect(refused.contains("last admin"))
            #expect(try await env.store.users(matching: "root", offset: 0, limit: 1).users.first?.role == .admin)
        }
    }

    @Test func editingAnAnsweredQuestionKeepsTheFormHonestAndTheScoreUnchanged() async throws {
        try await withApp { client, env in
            let author = try await signedIn(client, env, "writer", role: .author)
            let player = try await client.signUp("player")
            let attempt = try #require(try await client.call(.post, "/api/v1/quizzes/1/attempts", token: player)["id"] as? Int)
            _ = try await client.call(.post, "/api/v1/attempts/\(attempt)/answers", token: player, json: ["questionId": 1, "answer": ["choiceId": try await client.choiceId("Jupiter", question: 1)]])
            _ = try await client.call(.post, "/api/v1/attempts/\(attempt)/finish", token: player)

            let form = try await author.get("/manage/questions/1?quiz=1")
            #expect(form.contains("Which planet is largest?"))
            #expect(form.contains(#"value="Jupiter" maxlength="500" aria-label="Choice 2">"#))
            #expect(form.contains(#"value="1" aria-label="Choice 2 is correct" checked"#), "the correct choice is ticked")
            let fields: [(String, String)] = [("quiz", "1"), ("text", "Which planet is the largest?"), ("difficulty", "easy"),
                                              ("choice_text", "Mars"), ("choice_text", "Jupiter"), ("choice_correct", "1")]
            let unreadable = try await author.post("/manage/questions/1", fields + [("kind", "singleChoice"), ("points", "lots")])
            #expect(unreadable.status == .unprocessableContent)
            #expect(unreadable.contains("Points must be a whole number."))
            #expect(unreadable.contains(#"value="lots""#), "the points typed are kept")
            let retyped = try await author.post("/manage/questions/1", fields + [("kind", "trueFalse"), ("tf_answer", "true"), ("points", "1")])
            #expect(retyped.status == .unprocessableContent)
            #expect(retyped.contains(#"id="error-kind""#))
            let withoutToken = try await author.post("/manage/questions/1", fields + [("kind", "singleChoice"), ("points", "9")], csrf: false)
            #expect(withoutToken.status == .forbidden)
            #expect(try await env.store.managedQuestion(id: 1)?.question.points == 1, "a form without its token changes nothing")

            let saved = try await author.post("/manage/questions/1", fields + [("kind", "singleChoice"), ("points", "9")])
            #expect(saved.location == "/manage/quizzes/1?done=saved")
            #expect(try await env.store.managedQuiz(id: 1)?.questions.first?.text == "Which planet is the largest?")
            let deleted = try await author.post("/manage/questions/1/delete", [("quiz", "1")])
            #expect(deleted.location == "/manage/quizzes/1?done=deleted")
            #expect(try await env.store.managedQuiz(id: 1)?.questions.count == 4)

            let score = try await client.call(.post, "/api/v1/attempts/\(attempt)/finish", token: player)
            #expect(score["points"] as? Int == 1)
            #expect(score["questionCount"] as? Int == 5)
            #expect(try await client.call(.get, "/api/v1/me", token: player)["points"] as? Int == 1)
        }
    }

    @Test func theFormWritesNumbersAndNameThemAllQuestions() async throws {
        try await withApp { client, env in
            let author = try await signedIn(client, env, "writer", role: .author)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            let numeric = try await author.post("/manage/questions", [
                ("topic", "\(topicId)"), ("kind", "numeric"), ("text", "Moons of Mars?"), ("points", "2"),
                ("value", "2"), ("tolerance", "0,5"), ("unit", "moons"),
            ])
            #expect(numeric.location == "/manage/topics/\(topicId)?done=created")
            let nameAll = try await author.post("/manage/questions", [
                ("topic", "\(topicId)"), ("kind", "nameAll"), ("text", "Name the gas giants"), ("points", "1"),
                ("items", "Jupiter\nSaturn | Saturne\n\n"), ("time_limit", "60"), ("typo_tolerance", "on"),
            ])
            #expect(nameAll.status == .seeOther, "\(nameAll.html)")
            let bank = try #require(try await env.store.topicQuestions(topicId: topicId))
            #expect(bank.suffix(2).map(\.body) == [
                .numeric(value: 2, tolerance: 0.5, unit: "moons"),
                .nameAll(items: [NameAllItem(answer: "Jupiter"), NameAllItem(answer: "Saturn", alternates: ["Saturne"])],
                         timeLimitSeconds: 60, typoTolerance: true),
            ])
            let noValue = try await author.post("/manage/questions", [("topic", "\(topicId)"), ("kind", "numeric"), ("text", "How many?")])
            #expect(noValue.status == .unprocessableContent)
            #expect(noValue.contains(#"id="error-value""#))
            let page = try await author.get("/manage/topics/\(topicId)")
            #expect(page.contains("Name the gas giants"), "the topic's bank lists it")
        }
    }

    @Test func subjectsAreMovedRenamedAndOnlyEmptyOnesDeleted() async throws {
        try await withApp { client, env in
            let author = try await signedIn(client, env, "writer", role: .author)
            _ = try await author.post("/manage/subjects", [("name", "Music"), ("description", "")])
            let music = try #require(try await env.store.outline().last?.id)
            let moved = try await author.post("/manage/subjects/\(music)/move", [("direction", "up")])
            #expect(moved.location == "/manage/catalog?done=moved")
            #expect(try await env.store.outline().map(\.name) == ["Music", "Science"])
            let renamed = try await author.post("/manage/subjects/\(music)", [("name", "Sound"), ("description", "Songs")])
            #expect(renamed.location == "/manage/subjects/\(music)?done=saved")
            let tooLong = try await author.post("/manage/subjects/\(music)", [("name", String(repeating: "x", count: 201)), ("description", "")])
            #expect(tooLong.status == .unprocessableContent)
            #expect(tooLong.contains("Is longer than 200 characters."))
            #expect(try await env.store.outline().first?.name == "Sound")

            let science = try #require(try await env.store.outline().last?.id)
            let refused = try await author.post("/manage/subjects/\(science)/delete", [])
            #expect(refused.status == .conflict)
            #expect(refused.contains("It still holds quizzes or questions"))
            let deleted = try await author.post("/manage/subjects/\(music)/delete", [])
            #expect(deleted.location == "/manage/catalog?done=deleted")
            #expect(try await env.store.outline().map(\.name) == ["Science"])
        }
    }
}
