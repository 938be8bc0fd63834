import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import Testing

/// Assignments through the pages, as a teacher and players without accounts meet them: setting
/// one from a quiz (mistakes shown next to their fields), joining with a nickname, playing on the
/// solo play screens' pieces, leaving and coming back with the cookie or on another device with
/// the rejoin code, the window, feedback and answers only when the settings show them, and the
/// owner's report. Time is the test's clock.
@Suite struct AssignmentPagesTests {
    typealias S = AssignmentPageSupport

    @Test func aTeacherAssignsAQuizAndGetsItsCodeLinkAndQRCode() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let quiz = try await teacher.get("/quizzes/\(quizId)")
            #expect(quiz.contains(#"href="/assignments/new?quiz=\#(quizId)""#))
            let form = try await teacher.get("/assignments/new?quiz=\(quizId)")
            #expect(form.status == .ok)
            #expect(form.contains(#"name="title" maxlength="200" value="Planets""#), "the quiz's title by default")
            #expect(form.contains(#"name="closesAt" type="datetime-local" required"#))
            #expect(form.contains(#"<option value="afterFinishing" selected>"#))
            #expect(!form.contains(#"id="speed-points" name="speedPoints" value="true" checked"#), "speed points are off by default")
            #expect(!form.contains(#"name="leaderboardPoints" value="true" checked"#), "leaderboard points are off by default")
            #expect(form.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)

            let (id, code) = try await S.assign(teacher, quizId: quizId, env: env)
            let page = try await teacher.get("/assignments/\(id)")
            #expect(page.contains(#"href="http://"#) && page.contains("/a/\(code)</a>"), "the player link is absolute")
            #expect(page.contains("<svg"), "a QR code of the link")
            #expect(page.contains(#"id="window-state">Open<"#))
            #expect(page.contains(#"id="no-players""#))
            let list = try await teacher.get("/assignments")
            #expect(list.contains(#"href="/assignments/\#(id)">Planets homework</a>"#))
            #expect(list.contains("Planets · Code \(code)"))
            #expect(list.contains("0 started · 0 finished"))
        }
    }

    @Test func mistakesInTheFormAreShownNextToTheirFieldsAndNothingIsAssigned() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let page = try await S.post(teacher, quizId: quizId, env: env, [
                "title": "  ", "closesAt": "not a time", "attemptsAllowed": "11", "speedPoints": "true",
            ])
            #expect(page.status == .unprocessableContent)
            #expect(page.contains(#"id="error-title">Give the assignment a title.<"#), "\(page.html)")
            #expect(page.contains(#"id="error-closes">Choose the date and time it closes.<"#))
            #expect(page.contains(#"id="error-attempts">Choose from 1 to 10 attempts.<"#))
            #expect(page.contains(#"id="error-speed">Speed points need a time per question"#))
            #expect(page.contains(#"value="11""#), "what was typed is kept")
            let past = try await S.post(teacher, quizId: quizId, env: env, ["closesAt": S.local(env.time.now().addingTimeInterval(-60))])
            #expect(past.contains(#"id="error-closes">That time has passed: choose a later one.<"#))
            #expect(try await teacher.get("/assignments").contains(#"id="no-assignments""#))
        }
    }

    @Test func timesAreReadInTheBrowsersTimeZoneAndUTCWithoutIt() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            // Helsinki in winter: local 12:00 is 10:00 UTC; the script sends getTimezoneOffset() = -120.
            let (zoned, _) = try await S.assign(teacher, quizId: quizId, env: env, ["closesAt": "2030-01-01T12:00", "closesAtOffset": "-120"])
            #expect(try await teacher.get("/assignments/\(zoned)").contains(#"datetime="2030-01-01T10:00:00Z""#))
            let (plain, _) = try await S.assign(teacher, quizId: quizId, env: env, ["closesAt": "2030-01-01T12:00", "closesAtOffset": ""])
            let page = try await teacher.get("/assignments/\(plain)")
            #expect(page.contains(#"datetime="2030-01-01T12:00:00Z" data-local id="closes-at">1 Jan 2030, 12:00 UTC<"#))
        }
    }

    @Test func aPlayerJoinsWithANicknamePlaysLeavesAndComesBackWhereTheyWere() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let (_, code) = try await S.assign(teacher, quizId: quizId, env: env)
            let ann = try await S.join(client, code: code, nickname: "Ann")
            let hub = try await ann.get("/a/\(code)")
            #expect(hub.contains(#"id="player-nickname">Ann<"#))
            let rejoin = try #require(S.first(#"id="rejoin-code">([A-Z0-9]{6})<"#, in: hub.html), "the rejoin code is shown after joining")
            #expect(hub.contains(#"id="start-assignment""#))
            #expect(try await ann.post("/a/\(code)/start", []).location == "/a/\(code)/play")
            let first = try await ann.get("/a/\(code)/play")
            #expect(first.contains("Which planet is largest?"))
            #expect(first.contains(#"aria-label="Question 1 of 5""#))
            let jupiter = try #require(S.choice("Jupiter", in: first.html))
            let answered = try await ann.post("/a/\(code)/answer", [("position", "0"), ("choice", jupiter)])
            #expect(answered.location == "/a/\(code)/play", "no verdict after each question by default")
            // Leaves; the cookie brings them back to the question they were on.
            let back = try await ann.get("/a/\(code)")
            #expect(back.location == "/a/\(code)/play")
            #expect(try await ann.get("/a/\(code)/play").contains("Which are gas giants?"))
            #expect(ann.cookies["quizbox_a\(code)"]?.hasSuffix(".\(rejoin)") == true)
        }
    }

    @Test func anotherDeviceContinuesWithTheNicknameAndRejoinCodeAndTheFirstOneStops() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let (_, code) = try await S.assign(teacher, quizId: quizId, env: env)
            let phone = try await S.join(client, code: code, nickname: "Ben")
            let rejoin = try #require(S.first(#"id="rejoin-code">([A-Z0-9]{6})<"#, in: try await phone.get("/a/\(code)").html))
            _ = try await phone.post("/a/\(code)/start", [])
            let question = try await phone.get("/a/\(code)/play")
            _ = try await phone.post("/a/\(code)/answer", [("position", "0"), ("choice", try #require(S.choice("Mars", in: question.html)))])

            let laptop = TestBrowser(client)
            _ = try await laptop.get("/a/\(code)")
            let wrong = try await laptop.post("/a/\(code)/rejoin", [("nickname", "Ben"), ("rejoinCode", "AAAAAA")])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.contains(#"id="error-rejoin""#))
            let rejoined = try await laptop.post("/a/\(code)/rejoin", [("nickname", "Ben"), ("rejoinCode", rejoin.lowercased())])
            #expect(rejoined.location == "/a/\(code)")
            #expect(try await laptop.follow(rejoined).location == "/a/\(code)/play")
            #expect(try await laptop.get("/a/\(code)/play").contains("Which are gas giants?"), "where they were on the phone")
            // The phone's secret was replaced: it is asked to join again.
            let stale = try await phone.get("/a/\(code)/play")
            #expect(stale.contains(#"id="join-form""#))
            #expect(phone.cookies["quizbox_a\(code)"] == nil)
        }
    }

    @Test func theWindowShowsAWaitingPageThenTheAssignmentThenAClosedPage() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let (_, code) = try await S.assign(teacher, quizId: quizId, env: env, [
                "opensAt": S.local(env.time.now().addingTimeInterval(3600)), "opensAtOffset": "0",
                "closesAt": S.local(env.time.now().addingTimeInterval(7200)),
            ])
            let early = try await S.join(client, code: code, nickname: "Cy")
            let waiting = try await early.get("/a/\(code)")
            #expect(waiting.contains(#"id="waiting-message">It opens"#))
            #expect(!waiting.contains(#"id="start-assignment""#))
            #expect(try await early.post("/a/\(code)/start", []).location == "/a/\(code)")
            env.time.advance(by: 3600)
            #expect(try await early.get("/a/\(code)").contains(#"id="start-assignment""#))
            env.time.advance(by: 3600)
            let closed = try await early.get("/a/\(code)")
            #expect(closed.contains(#"id="closed-message">This assignment closed"#))
            #expect(closed.contains("there is no result"))
            let late = TestBrowser(client)
            _ = try await late.get("/a/\(code)")
            let refused = try await late.post("/a/\(code)/join", [("nickname", "Dee")])
            #expect(refused.status == .gone)
            #expect(refused.contains("This assignment is closed"))
            #expect(try await late.get("/a/999999").status == .ok, "the join form tells nothing about the code")
            let unknown = try await late.post("/a/999999/join", [("nickname", "Dee")])
            #expect(unknown.status == .notFound)
            #expect(unknown.contains("No assignment with this code"))
        }
    }

    @Test func theVerdictFollowsEachAnswerOnlyWhenTheSettingsShowIt() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let (_, code) = try await S.assign(teacher, quizId: quizId, env: env, ["answersShown": "afterEachQuestion"])
            let player = try await S.join(client, code: code, nickname: "Eve")
            _ = try await player.post("/a/\(code)/start", [])
            let question = try await player.get("/a/\(code)/play")
            let verdict = try await player.post("/a/\(code)/answer", [("position", "0"), ("choice", try #require(S.choice("Jupiter", in: question.html)))])
            #expect(verdict.status == .ok)
            #expect(verdict.contains("Right! +1 point"))
            #expect(verdict.contains(#"id="correct-answer">Correct answer: <strong>Jupiter</strong>"#))
            #expect(verdict.contains("Jupiter is the largest planet."), "the explanation")
            #expect(verdict.contains(#"href="/a/\#(code)/play""#))
            let second = try await player.get("/a/\(code)/play")
            let wrong = try await player.post("/a/\(code)/answer", [("position", "1"), ("choices", try #require(S.choice("Venus", in: second.html)))])
            #expect(wrong.contains("Not quite."))
            let again = try await player.post("/a/\(code)/answer", [("position", "1"), ("choices", "1")])
            #expect(again.location == "/a/\(code)/play", "the first answer stands")
        }
    }

    @Test func theResultShowsTheRightAnswersOnlyOnceTheSettingsAllow() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let (_, code) = try await S.assign(teacher, quizId: quizId, env: env, ["answersShown": "afterClose", "attemptsAllowed": "2"])
            let player = try await S.join(client, code: code, nickname: "Fay")
            _ = try await player.post("/a/\(code)/start", [])
            let first = try await player.get("/a/\(code)/play")
            _ = try await player.post("/a/\(code)/answer", [("position", "0"), ("choice", try #require(S.choice("Jupiter", in: first.html)))])
            let done = try await player.get("/a/\(code)/play")
            #expect(!done.contains(#"id="finish-assignment""#), "four questions are left")
            #expect(try await player.post("/a/\(code)/finish", []).location == "/a/\(code)/result")
            let result = try await player.get("/a/\(code)/result")
            #expect(result.contains(#"<strong class="big-number">12.5 %</strong>"#), "\(result.html)")
            #expect(result.contains(#"id="attempt-points">1 of 8 points<"#))
            #expect(result.contains(#"id="answers-later""#))
            #expect(!result.contains("Correct answer"))
            #expect(result.contains(#"id="try-again""#))
            #expect(result.contains(#"id="attempts-left">1 attempt left<"#))
            env.time.advance(by: 86_400)
            let after = try await player.get("/a/\(code)/result")
            #expect(after.contains("Correct answer: <strong>Paris</strong>"))
            #expect(!after.contains(#"id="try-again""#))
            #expect(after.contains(#"id="closed-message""#))
            #expect(try await player.get("/a/\(code)").location == "/a/\(code)/result", "a closed assignment shows their result")
        }
    }

    @Test func theReportAndItsFilesMatchWhatWasPlayedAndOnlyTheOwnerSeesThem() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let (id, code) = try await S.assign(teacher, quizId: quizId, env: env)
            let gil = try await S.join(client, code: code, nickname: "Gil")
            let hal = try await S.join(client, code: code, nickname: "Hal")
            _ = try await gil.post("/a/\(code)/start", [])
            for _ in 0..<5 {
                let page = try await gil.get("/a/\(code)/play")
                var fields = S.anyAnswer(page.html)
                if page.contains("Which planet is largest?"), let jupiter = S.choice("Jupiter", in: page.html) { fields = fields.filter { $0.0 == "position" } + [("choice", jupiter)] }
                _ = try await gil.post("/a/\(code)/answer", fields)
            }
            #expect(try await gil.get("/a/\(code)/play").contains(#"id="finish-assignment""#))
            _ = try await gil.post("/a/\(code)/finish", [])
            _ = try await hal.post("/a/\(code)/start", [])
            let page = try await teacher.get("/assignments/\(id)")
            #expect(page.contains(#"data-refresh="10""#), "the report reads itself again while it is open")
            #expect(page.contains("Gil</th>") && page.contains("Hal</th>"))
            #expect(page.contains(#"<td class="player-state">Finished</td>"#))
            #expect(page.contains(#"<td class="player-state">Playing <span class="meta">(0 answered so far)</span></td>"#))
            #expect(page.contains(#"<td class="cell cell-right">100 %</td>"#))
            #expect(page.contains("1 of 1 right"))
            #expect(page.contains(#"id="reteach""#), "the questions Gil got wrong")
            #expect(page.contains("Most common wrong answers:"))

            let csv = try await teacher.get("/assignments/\(id)/report.csv")
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            let rows = csv.html.split(whereSeparator: \.isNewline).map(String.init)
            #expect(rows.first == "nickname,signed_in,state,attempts,grade_percent,seconds,q1_percent,q2_percent,q3_percent,q4_percent,q5_percent")
            #expect(rows.contains { $0.hasPrefix("Gil,no,finished,1,") && $0.contains(",100.0,") })
            #expect(rows.contains { $0.hasPrefix("Hal,no,playing,1,,") })
            let json = try await teacher.get("/assignments/\(id)/report.json")
            let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.html.utf8)) as? [String: Any])
            #expect((decoded["players"] as? [[String: Any]])?.map { $0["nickname"] as? String } == ["Gil", "Hal"])
            let workbook = try await teacher.get("/assignments/\(id)/report.xlsx")
            #expect(workbook.status == .ok)
            #expect(workbook.html.hasPrefix("PK"))

            let other = TestBrowser(client)
            try await other.register("someone")
            for path in ["/assignments/\(id)", "/assignments/\(id)/report.csv", "/assignments/\(id)/report.json", "/assignments/\(id)/report.xlsx"] {
                #expect(try await other.get(path).status == .notFound, "\(path)")
            }
            #expect(try await other.post("/assignments/\(id)/close", []).status == .notFound)
            #expect(try await other.post("/assignments/\(id)/extend", [("closesAt", "2099-01-01T00:00")]).status == .notFound)
            #expect(!(try await other.get("/assignments")).contains("Planets homework"))
        }
    }

    @Test func theTeacherClosesExtendsAndReopens() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let (id, code) = try await S.assign(teacher, quizId: quizId, env: env)
            let player = try await S.join(client, code: code, nickname: "Ida")
            #expect(try await teacher.post("/assignments/\(id)/close", []).location == "/assignments/\(id)?moved=closed")
            let closed = try await teacher.get("/assignments/\(id)?moved=closed")
            #expect(closed.contains(#"id="window-state">Closed<"#))
            #expect(closed.contains(#"id="reopen""#))
            #expect(!closed.contains("data-refresh"))
            #expect(try await player.post("/a/\(code)/start", []).location == "/a/\(code)")
            #expect(try await player.get("/a/\(code)").contains(#"id="closed-message""#))
            let past = try await teacher.post("/assignments/\(id)/extend", [("closesAt", S.local(env.time.now().addingTimeInterval(-60))),
                                                                             ("closesAtOffset", "0")])
            #expect(past.status == .unprocessableContent)
            #expect(past.contains(#"id="error-new-close">That time has passed"#))
            let reopened = try await teacher.post("/assignments/\(id)/extend", [("closesAt", S.local(env.time.now().addingTimeInterval(3600))),
                                                                                 ("closesAtOffset", "0")])
            #expect(reopened.location == "/assignments/\(id)?moved=extended")
            #expect(try await teacher.get("/assignments/\(id)").contains(#"id="window-state">Open<"#))
            #expect(try await player.post("/a/\(code)/start", []).location == "/a/\(code)/play")
        }
    }

    @Test func everyKindRendersAndAnswersAsInSoloPlayWithoutGivingItsAnswerAway() async throws {
        try await withApp { client, env in
            var questions = QuestionKindsAPITests.questions
            questions += [
                ["kind": "typedAnswer", "text": "Largest ocean?", "answers": ["Pacific"], "explanation": "SECRET-EXPLANATION"],
                ["kind": "numeric", "text": "Sides of a hexagon?", "value": 6, "tolerance": 0],
                ["kind": "trueFalse", "text": "Water is wet.", "answer": true],
                ["kind": "multipleChoice", "text": "Primes?", "choices": [["text": "2", "correct": true], ["text": "4", "correct": false]]],
                ["kind": "slide", "text": "Read this first."],
            ]
            let (quizId, _) = try await QuestionKindsAPITests().publishedQuiz(client, env, questions: questions)
            let teacher = TestBrowser(client)
            try await teacher.register("kinds-teacher")
            let (_, code) = try await S.assign(teacher, quizId: quizId, env: env, ["timing": "questionsOwn"])
            let player = try await S.join(client, code: code, nickname: "Kim")
            _ = try await player.post("/a/\(code)/start", [])
            var seen: [String] = []
            for _ in 0..<questions.count {
                let page = try await player.get("/a/\(code)/play")
                #expect(page.status == .ok)
                for giveaway in ["Pacific", "SECRET-EXPLANATION", "1969", "is-correct", "Correct answer", "50 %"] {
                    #expect(!page.contains(giveaway), "\(giveaway) before answering:\n\(page.html)")
                }
                if page.contains("flows through") { #expect(!page.contains("Paris"), "a typed gap's answer") }
                if page.contains("Finland") { #expect(page.contains(#"name="match-1""#) && !page.contains("selected")) }
                let text = S.first(#"<h1[^>]*>([^<]+)<"#, in: page.html) ?? S.first(#"class="qtext"[^>]*>([^<]+)<"#, in: page.html) ?? ""
                seen.append(text)
                if !page.contains("Read this first.") { #expect(page.contains(#"id="countdown""#), "each question has its clock") }
                let answered = try await player.post("/a/\(code)/answer", S.anyAnswer(page.html))
                #expect(answered.location == "/a/\(code)/play", "\(answered.status) \(answered.html)")
            }
            #expect(try await player.get("/a/\(code)/play").contains(#"id="finish-assignment""#), "\(seen)")
            _ = try await player.post("/a/\(code)/finish", [])
            let result = try await player.get("/a/\(code)/result")
            #expect(result.contains("Correct answer: <strong>Pacific</strong>"))
            #expect(!result.contains("Not answered"), "every kind took its answer")
        }
    }

    @Test func aTimedOutAnswerIsToldAndTheNextQuestionFollows() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let (_, code) = try await S.assign(teacher, quizId: quizId, env: env, ["timing": "questionsOwn"])
            let player = try await S.join(client, code: code, nickname: "Lou")
            _ = try await player.post("/a/\(code)/start", [])
            let page = try await player.get("/a/\(code)/play")
            #expect(page.contains(#"data-seconds="30""#))
            env.time.advance(by: 60)
            let late = try await player.post("/a/\(code)/answer", [("position", "0"), ("choice", try #require(S.choice("Jupiter", in: page.html)))])
            #expect(late.location == "/a/\(code)/play?late=1")
            let next = try await player.follow(late)
            #expect(next.contains(#"id="late-notice""#))
            #expect(next.contains("Which are gas giants?"))
        }
    }

    @Test func aSignedInPlayerJoinsUnderTheirUsernameAndFinnishPagesAreFinnish() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let (_, code) = try await S.assign(teacher, quizId: quizId, env: env)
            let student = TestBrowser(client)
            student.acceptLanguage = "fi-FI,fi;q=0.9"
            try await student.register("student")
            let join = try await student.get("/a/\(code)")
            #expect(join.contains("Liity nimellä student"))
            #expect(!join.contains(#"id="rejoin-form""#))
            _ = try await student.post("/a/\(code)/join", [])
            let hub = try await student.get("/a/\(code)")
            #expect(hub.contains(#"id="player-nickname">student<"#))
            #expect(hub.contains(#"id="start-assignment""#))
            #expect(!hub.contains(#"id="rejoin-code""#), "a signed-in player signs in elsewhere instead")
            // On a second device, signed in as well: joining again is the same player, and the
            // first device, whose secret that replaced, carries on under the account.
            let tablet = TestBrowser(client)
            _ = try await tablet.get("/login")
            #expect(try await tablet.post("/login", [("username", "student"), ("password", "correct horse")]).status == .seeOther)
            _ = try await tablet.get("/a/\(code)")
            _ = try await tablet.post("/a/\(code)/join", [])
            #expect(try await tablet.post("/a/\(code)/start", []).location == "/a/\(code)/play")
            #expect(try await student.get("/a/\(code)").location == "/a/\(code)/play")
            #expect(try await student.get("/a/\(code)/play").contains("Which planet is largest?"))
            #expect(try await TestBrowser(client).get("/").contains(#"href="/a" id="assignment-entry-link""#), "the way in without an account")
            let entry = try await TestBrowser(client).get("/a?code=12%2034%205")
            #expect(entry.status == .unprocessableContent)
            #expect(try await TestBrowser(client).get("/a?code=\(code)").location == "/a/\(code)")
            #expect(try await TestBrowser(client).get("/a/12345").status == .notFound)
        }
    }

    @Test func tooManyJoinsFromOneAddressGetATooManyRequestsPage() async throws {
        try await withApp(configure: { $0.liveJoinsPerAddressPerMinute = 2 }) { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let (_, code) = try await S.assign(teacher, quizId: quizId, env: env)
            for name in ["Mo", "Ned"] { _ = try await S.join(client, code: code, nickname: name) }
            let browser = TestBrowser(client)
            _ = try await browser.get("/a/\(code)")
            let third = try await browser.post("/a/\(code)/join", [("nickname", "Oz")])
            #expect(third.status == .tooManyRequests)
            #expect(third.contains("Too many tries"))
        }
    }

    @Test func aTeacherSetsItForTheirClassAndOnlyItsStudentsJoinSignedIn() async throws {
        try await withApp { client, env in
            let (teacher, quizId) = try await S.teacher(client, env)
            let plain = try await teacher.get("/assignments/new?quiz=\(quizId)")
            #expect(!plain.contains(#"name="class""#), "no class chooser for a teacher without classes")
            let made = try await teacher.post("/classes", [("name", "7B")])
            let classLocation = try #require(made.location)
            let classId = try #require(Int(classLocation.replacingOccurrences(of: "/classes/", with: "")))
            let classPage = try await teacher.get("/classes/\(classId)")
            let classCode = try #require(S.first(#"id="class-code">(\d{6})<"#, in: classPage.html))
            let form = try await teacher.get("/assignments/new?quiz=\(quizId)&class=\(classId)")
            #expect(form.contains(#"<option value="\#(classId)" selected>7B</option>"#), "the class it came from is chosen")
            let (_, code) = try await S.assign(teacher, quizId: quizId, env: env, ["class": String(classId)])

            let student = TestBrowser(client)
            try await student.register("ann")
            _ = try await student.post("/classes/join", [("code", classCode)])
            let home = try await student.get("/home")
            #expect(home.contains("/a/\(code)"), "on the student's due list")
            let joined = try await student.post("/a/\(code)/join", [("nickname", "ignored")])
            #expect(joined.status == .seeOther && joined.location == "/a/\(code)", "\(joined.html)")

            let stranger = TestBrowser(client)
            _ = try await stranger.get("/a/\(code)")
            let asked = try await stranger.post("/a/\(code)/join", [("nickname", "Cy")])
            #expect(asked.status == .seeOther && asked.location == "/login?next=/a/\(code)", "signed out: sign in first and come back")
            try await stranger.register("bob")
            let outsider = try await stranger.post("/a/\(code)/join", [("nickname", "bob")])
            #expect(outsider.status == .forbidden && outsider.contains("Not in this class"), "\(outsider.html)")
        }
    }
}
