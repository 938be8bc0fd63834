import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import QuizStore
import Testing

@Suite struct ManageAPITests {
    /// Registers someone with `role` (as `quizbox user set-role` would) and returns their token.
    func signUp(_ client: any TestClientProtocol, _ env: TestEnvironment, _ name: String, role: Role) async throws -> String {
        let token = try await client.signUp(name)
        try await env.store.setRole(role, username: name)
        // The role was set beside the server, as the CLI does: let its short-lived caches expire.
        env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        return token
    }

    static var singleChoice: [String: Any] { [
        "kind": "singleChoice", "text": "Which planet has rings?", "points": 2,
        "choices": [["text": "Saturn", "correct": true], ["text": "Mars", "correct": false]],
    ] }

    @Test func aPlayerInAQuizThatIsUnpublishedCanStillFinishIt() async throws {
        try await withApp { client, env in
            let author = try await signUp(client, env, "writer", role: .author)
            let player = try await client.signUp("ada")
            let (quizId, questions) = try await client.firstQuiz()
            let attempt = try #require(try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: player)["id"] as? Int)
            let hidden = try await client.call(.patch, "/api/v1/manage/quizzes/\(quizId)", token: author, json: ["published": false])
            #expect(hidden.status == .noContent, "\(hidden.raw)")
            #expect(try await client.call(.get, "/api/v1/quizzes/\(quizId)").status == .notFound)
            #expect(try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: player).status == .notFound)
            let answer = try await client.call(.post, "/api/v1/attempts/\(attempt)/answers", token: player,
                                               json: ["questionId": questions[0]["id"] as Any, "answer": ["choiceId": choiceId("Jupiter", in: questions[0])]])
            #expect(answer["verdict"] as? String == "correct")
            #expect(try await client.call(.post, "/api/v1/attempts/\(attempt)/finish", token: player)["points"] as? Int == 1)
        }
    }

    @Test func playersGet403AndAnonymousCallers401() async throws {
        try await withApp { client, env in
            let player = try await client.signUp("player")
            let author = try await signUp(client, env, "writer", role: .author)
            for (method, path) in [(HTTPRequest.Method.get, "/api/v1/manage/outline"), (.post, "/api/v1/manage/subjects"),
                                   (.delete, "/api/v1/manage/quizzes/1"), (.get, "/api/v1/manage/users")] {
                let body: [String: Any]? = method == .post ? ["name": "Sneaky"] : nil
                #expect(try await client.call(method, path, json: body).status == .unauthorized, "\(path)")
                let refused = try await client.call(method, path, token: player, json: body)
                #expect(refused.status == .forbidden, "\(path)")
                #expect(refused.errorCode == "forbidden")
            }
            #expect(try await client.call(.get, "/api/v1/manage/users", token: author).status == .forbidden, "roles are for admins")
            #expect(try await env.store.outline().map(\.name) == ["Science"])
        }
    }

    @Test func anAuthorBuildsADraftQuizThatPlayersSeeOnlyOncePublished() async throws {
        try await withApp { client, env in
            let author = try await signUp(client, env, "writer", role: .author)
            let player = try await client.signUp("player")
            func subjectNames() async throws -> [String]? {
                (try await client.call(.get, "/api/v1/subjects")["subjects"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            }
            #expect(try await subjectNames() == ["Science"])

            let subject = try await client.call(.post, "/api/v1/manage/subjects", token: author, json: ["name": "Music", "description": "Sounds"])
            #expect(subject.status == .created, "\(subject.raw)")
            let subjectId = try #require(subject["id"] as? Int)
            let topic = try await client.call(.post, "/api/v1/manage/subjects/\(subjectId)/topics", token: author, json: ["name": "Opera"])
            let topicId = try #require(topic["id"] as? Int)
            let quiz = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/quizzes", token: author, json: ["title": "Arias"])
            let quizId = try #require(quiz["id"] as? Int)
            let question = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: author, json: Self.singleChoice)
            #expect(question.status == .created, "\(question.raw)")
            let questionId = try #require(question["id"] as? Int)
            #expect((question["choices"] as? [[String: Any]])?.first?["correct"] as? Bool == true)
            let set = try await client.call(.put, "/api/v1/manage/quizzes/\(quizId)/questions", token: author, json: ["questionIds": [questionId]])
            #expect(set.status == .noContent, "\(set.raw)")

            #expect(try await subjectNames() == ["Science"], "drafts stay out of the catalog")
            #expect(try await client.call(.get, "/api/v1/quizzes/\(quizId)").status == .notFound)
            #expect(try await client.call(.get, "/api/v1/quizzes/\(quizId)/questions").status == .notFound)
            #expect(try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: player).status == .notFound)
            let preview = try await client.call(.get, "/api/v1/manage/quizzes/\(quizId)", token: author)
            #expect(preview["published"] as? Bool == false)
            #expect((preview["questions"] as? [[String: Any]])?.count == 1)

            let published = try await client.call(.patch, "/api/v1/manage/quizzes/\(quizId)", token: author, json: ["published": true])
            #expect(published.status == .noContent, "\(published.raw)")
            #expect(try await subjectNames() == ["Science", "Music"], "the cached catalog shows the change at once")
            let questions = try await client.call(.get, "/api/v1/quizzes/\(quizId)/questions")["questions"] as? [[String: Any]]
            #expect(questions?.first?["text"] as? String == "Which planet has rings?")
            let attempt = try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: player)
            #expect(attempt.status == .created, "\(attempt.raw)")
        }
    }

    @Test func anInvalidQuestionIs422WithEveryProblemAndNothingStored() async throws {
        try await withApp { client, env in
            let author = try await signUp(client, env, "writer", role: .author)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            let before = try await env.store.topicQuestions(topicId: topicId)?.count
            let twoCorrect: [String: Any] = [
                "kind": "singleChoice", "text": "  ",
                "choices": [["text": "Saturn", "correct": true], ["text": "saturn", "correct": true]],
            ]
            let refused = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: author, json: twoCorrect)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "invalid_question")
            #expect(refused.errorField == "text")
            let problems = ((refused["error"] as? [String: Any])?["problems"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
            #expect(problems == ["text", "choices[1].text", "choices"])
            let noAnswer = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: author,
                                                 json: ["kind": "trueFalse", "text": "The Sun is hot."])
            #expect(noAnswer.errorField == "answer")
            let badName = try await client.call(.post, "/api/v1/manage/subjects", token: author, json: ["name": ""])
            #expect(badName.status == .unprocessableContent)
            #expect(badName.errorCode == "invalid_name")
            #expect(try await env.store.topicQuestions(topicId: topicId)?.count == before)
        }
    }

    @Test func editingAnAnsweredQuestionKeepsThePlayersScore() async throws {
        try await withApp { client, env in
            let author = try await signUp(client, env, "writer", role: .author)
            let player = try await client.signUp("player")
            let (quizId, questions) = try await client.firstQuiz()
            let first = try #require(questions.first?["id"] as? Int)
            let attempt = try #require(try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: player)["id"] as? Int)
            _ = try await client.call(.post, "/api/v1/attempts/\(attempt)/answers", token: player, json: ["questionId": first, "answer": ["choiceId": choiceId("Jupiter", in: questions[0])]])
            let finished = try await client.call(.post, "/api/v1/attempts/\(attempt)/finish", token: player)
            #expect(finished["points"] as? Int == 1)

            var edited = try await client.call(.get, "/api/v1/manage/questions/\(first)", token: author).json
            edited["points"] = 40
            edited["choices"] = [["text": "Mars", "correct": true], ["text": "Jupiter", "correct": false]]
            let saved = try await client.call(.put, "/api/v1/manage/questions/\(first)", token: author, json: edited)
            #expect(saved.status == .ok, "\(saved.raw)")
            #expect(saved["points"] as? Int == 40)
            edited["kind"] = "trueFalse"
            edited["answer"] = true
            let retyped = try await client.call(.put, "/api/v1/manage/questions/\(first)", token: author, json: edited)
            #expect(retyped.status == .conflict)
            #expect(retyped.errorCode == "kind_locked")
            let deleted = try await client.call(.delete, "/api/v1/manage/questions/\(first)", token: author)
            #expect(deleted.status == .noContent)

            let again = try await client.call(.post, "/api/v1/attempts/\(attempt)/finish", token: player)
            #expect(again["points"] as? Int == 1)
            #expect(again["totalPoints"] as? Int == 8)
            #expect(again["questionCount"] as? Int == 5)
            #expect(try await client.call(.get, "/api/v1/me", token: player)["points"] as? Int == 1)
            let refused = try await client.call(.delete, "/api/v1/manage/quizzes/\(quizId)", token: author)
            #expect(refused.status == .conflict)
            #expect(refused.errorCode == "quiz_has_attempts")
        }
    }

    @Test func adminsChangeRolesButNeverRemoveTheLastAdmin() async throws {
        try await withApp { client, env in
            let admin = try await signUp(client, env, "root", role: .admin)
            _ = try await client.signUp("ada")
            let found = try await client.call(.get, "/api/v1/manage/users?search=AD&limit=1", token: admin)
            #expect(found["total"] as? Int == 1)
            let ada = try #require((found["users"] as? [[String: Any]])?.first)
            #expect(ada["username"] as? String == "ada")
            let long = try await client.call(.get, "/api/v1/manage/users?search=\(String(repeating: "a", count: 65))", token: admin)
            #expect(long.status == .unprocessableContent)
            #expect(long.errorField == "search")
            let adaId = try #require(ada["id"] as? Int)
            let promoted = try await client.call(.put, "/api/v1/manage/users/\(adaId)/role", token: admin, json: ["role": "author"])
            #expect(promoted["role"] as? String == "author")
            #expect(try await env.store.user(id: Int64(adaId))?.role == .author)

            let rootId = try #require(try await env.store.users(matching: "root", offset: 0, limit: 1).users.first?.id)
            let last = try await client.call(.put, "/api/v1/manage/users/\(rootId)/role", token: admin, json: ["role": "player"])
            #expect(last.status == .conflict)
            #expect(last.errorCode == "last_admin")
            let badRole = try await client.call(.put, "/api/v1/manage/users/\(adaId)/role", token: admin, json: ["role": "king"])
            #expect(badRole.status == .badRequest)
            #expect(try await client.call(.put, "/api/v1/manage/users/999/role", token: admin, json: ["role": "author"]).status == .notFound)
        }
    }

    @Test func catalogLevelsAreRenamedReorderedAndDeletedOnlyWhenEmpty() async throws {
        try await withApp { client, env in
            let author = try await signUp(client, env, "writer", role: .author)
            let music = try #require(try await client.call(.post, "/api/v1/manage/subjects", token: author, json: ["name": "Music"])["id"] as? Int)
            let moved = try await client.call(.patch, "/api/v1/manage/subjects/\(music)", token: author, json: ["position": 1, "name": "Sound"])
            #expect(moved.status == .noContent, "\(moved.raw)")
            let outline = try await client.call(.get, "/api/v1/manage/outline", token: author)["subjects"] as? [[String: Any]]
            #expect(outline?.compactMap { $0["name"] as? String } == ["Sound", "Science"])
            let science = try #require(outline?.last?["id"] as? Int)
            let full = try await client.call(.delete, "/api/v1/manage/subjects/\(science)", token: author)
            #expect(full.status == .conflict)
            #expect(full.errorCode == "not_empty")
            #expect(try await client.call(.delete, "/api/v1/manage/subjects/\(music)", token: author).status == .noContent)
            #expect(try await client.call(.delete, "/api/v1/manage/subjects/\(music)", token: author).status == .notFound)
        }
    }

    @Test func everyKindOfQuestionIsWrittenAndReadBackWithItsAnswers() async throws {
        try await withApp { client, env in
            let author = try await signUp(client, env, "writer", role: .author)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            let before = try await env.store.topicQuestions(topicId: topicId)?.count ?? 0
            let kinds: [[String: Any]] = [
                Self.singleChoice,
                ["kind": "multipleChoice", "text": "Gas giants?", "choices": [["text": "Jupiter", "correct": true],
                                                                              ["text": "Saturn", "correct": true], ["text": "Mars", "correct": false]]],
                ["kind": "trueFalse", "text": "The Moon is a planet.", "answer": false, "difficulty": "easy", "timeLimitSeconds": 10],
                ["kind": "typedAnswer", "text": "Closest star?", "answers": ["the Sun", "Sol"], "explanation": "It is 8 light-minutes away.",
                 "partial": [["text": "Alpha Centauri", "fraction": 0.25]]],
                ["kind": "numeric", "text": "Moons of Mars?", "value": 2, "tolerance": 0, "unit": "moons", "points": 3,
                 "units": [["name": "pairs of moons", "multiplier": 0.5]]],
                ["kind": "nameAll", "text": "Name the gas giants", "items": [["answer": "Jupiter"], ["answer": "Saturn", "alternates": ["Saturne"]]],
                 "timeLimitSeconds": 60, "typoTolerance": true],
            ]
            for body in kinds {
                let created = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: author, json: body)
                #expect(created.status == .created, "\(created.raw)")
            }
            let listed = try await client.call(.get, "/api/v1/manage/topics/\(topicId)/questions", token: author)["questions"] as? [[String: Any]] ?? []
            let added = Array(listed.dropFirst(before))
            #expect(added.compactMap { $0["kind"] as? String } == ["singleChoice", "multipleChoice", "trueFalse", "typedAnswer", "numeric", "nameAll"])
            #expect((added[1]["choices"] as? [[String: Any]])?.compactMap { $0["correct"] as? Bool } == [true, true, false])
            #expect(added[2]["answer"] as? Bool == false)
            #expect(added[2]["timeLimitSeconds"] as? Int == 10)
            #expect(added[3]["timeLimitSeconds"] == nil)
            #expect(added[5]["timeLimitSeconds"] as? Int == 60)
            #expect(added[3]["answers"] as? [String] == ["the Sun", "Sol"])
            #expect(added[3]["explanation"] as? String == "It is 8 light-minutes away.")
            #expect(added[4]["value"] as? Double == 2)
            #expect(added[4]["unit"] as? String == "moons")
            #expect((added[3]["partial"] as? [[String: Any]])?.first?["fraction"] as? Double == 0.25)
            #expect((added[4]["units"] as? [[String: Any]])?.first?["name"] as? String == "pairs of moons")
            #expect((added[4]["units"] as? [[String: Any]])?.first?["multiplier"] as? Double == 0.5)
            #expect(added[4]["points"] as? Int == 3)
            #expect((added[5]["items"] as? [[String: Any]])?.last?["alternates"] as? [String] == ["Saturne"])
            #expect(added[5]["typoTolerance"] as? Bool == true)
            #expect(try await client.call(.get, "/api/v1/manage/topics/999/questions", token: author).status == .notFound)
        }
    }

    @Test func aQuestionsOwnTimeOutsideFiveTo240SecondsIsRefusedAtItsField() async throws {
        try await withApp { client, env in
            let author = try await signUp(client, env, "writer", role: .author)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            let before = try await env.store.topicQuestions(topicId: topicId)?.count ?? 0
            let refused = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: author,
                                                json: ["kind": "trueFalse", "text": "Quick?", "answer": true, "timeLimitSeconds": 241])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "invalid_question")
            #expect(refused.errorField == "timeLimitSeconds", "\(refused.raw)")
            #expect(try await env.store.topicQuestions(topicId: topicId)?.count == before)
        }
    }
}
