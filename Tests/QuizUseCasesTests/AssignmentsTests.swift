import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Assignments as their owner and players use them, against real SQL and a hand-moved clock.
@Suite struct AssignmentsTests {
    // MARK: Owning

    @Test func anOwnerAssignsAQuizTheyMayHostAndNobodyElseMayTouchIt() async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env)
            let other = try await env.register("other")
            let (sut, id) = (fixture.sut, fixture.assignment.id)
            #expect(fixture.assignment.code.count == 6 && Int(fixture.assignment.code) != nil)
            #expect(fixture.assignment.title == "Europe", "the quiz's title by default")
            #expect(fixture.assignment.questionIds == fixture.bank.questions.compactMap(\.id))
            #expect(try await sut.mine(userId: fixture.teacher.id).map(\.assignment) == [fixture.assignment])
            #expect(try await sut.mine(userId: other.id).isEmpty)
            await #expect(throws: Assignments.Failure.assignmentNotFound) { try await sut.report(id: id, userId: other.id) }
            await #expect(throws: Assignments.Failure.assignmentNotFound) { try await sut.closeNow(id: id, userId: other.id) }
            await #expect(throws: Assignments.Failure.assignmentNotFound) {
                try await sut.extend(id: id, userId: other.id, closesAt: env.time.now() + 999_999)
            }
            await #expect(throws: Assignments.Failure.quizNotFound) {
                try await sut.create(Assignments.Draft(quizId: 999, closesAt: env.time.now() + 60), user: other)
            }
        }
    }

    @Test func aFormWithBrokenRulesIsRefusedWithEachField() async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env)
            let now = env.time.now()
            let draft = Assignments.Draft(quizId: fixture.bank.quiz.id, title: " ", closesAt: now - 1,
                                          settings: AssignmentSettings(attemptsAllowed: 0, speedPoints: true))
            let error = await #expect(throws: Assignments.Failure.self) { try await fixture.sut.create(draft, user: fixture.teacher) }
            guard case .invalid(let problems) = error else { Issue.record("not invalid: \(String(describing: error))"); return }
            #expect(problems.map(\.field) == ["title", "closesAt", "attemptsAllowed", "speedPoints"])
        }
    }

    // MARK: The window

    @Test func nothingIsTakenBeforeItOpensAndAnAttemptCutOffByTheCloseKeepsItsAnswers() async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env, opensIn: 60, closesIn: 600)
            let ann = try await fixture.join("Ann")
            await #expect(throws: Assignments.Failure.notOpen) { try await fixture.sut.start(ann.pass) }
            env.time.advance(by: 60)
            _ = try await fixture.sut.start(ann.pass)
            try await fixture.play(ann.pass, right: fixture.allIds, limit: 2)
            guard case .question(let third) = try await fixture.sut.next(ann.pass) else { Issue.record("no third question"); return }
            await #expect(throws: Assignments.Failure.notFinished) { try await fixture.sut.result(ann.pass) }
            env.time.advance(by: 540)  // at the close
            let question = try #require(fixture.bank.questions.first { $0.id == third.question.id })
            await #expect(throws: Assignments.Failure.closed) {
                try await fixture.sut.answer(env.rightAnswer(to: question), position: third.position, ann.pass)
            }
            await #expect(throws: Assignments.Failure.closed) { try await fixture.sut.next(ann.pass) }
            await #expect(throws: Assignments.Failure.closed) { try await fixture.join("Bob") }
            let result = try await fixture.sut.result(ann.pass)
            #expect(result.lines.compactMap(\.given).count == 2, "the answers before the close")
            // The first two questions are worth 2 + 1 of 6 points.
            #expect(result.grade == 0.5)
            let report = try await fixture.sut.report(id: fixture.assignment.id, userId: fixture.teacher.id)
            #expect(report.players.map(\.state) == [.finished])
            #expect(report.players.first?.grade == 0.5)
        }
    }

    @Test func theOwnerClosesEarlyAndAReopeningLetsTheAttemptCutOffCarryOn() async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env)
            let ann = try await fixture.join("Ann")
            _ = try await fixture.sut.start(ann.pass)
            try await fixture.play(ann.pass, right: fixture.allIds, limit: 1)
            env.time.advance(by: 5)
            let closed = try await fixture.sut.closeNow(id: fixture.assignment.id, userId: fixture.teacher.id)
            #expect(closed.closesAt == env.time.now())
            await #expect(throws: Assignments.Failure.closed) { try await fixture.sut.next(ann.pass) }
            await #expect(throws: Assignments.Failure.invalid([Assignment.Invalid(field: "closesAt", message: "is in the past")])) {
                try await fixture.sut.reopen(id: fixture.assignment.id, userId: fixture.teacher.id, closesAt: env.time.now())
            }
            env.time.advance(by: 10)
            _ = try await fixture.sut.reopen(id: fixture.assignment.id, userId: fixture.teacher.id, closesAt: env.time.now() + 3600)
            try await fixture.play(ann.pass, right: fixture.allIds)
            let result = try await fixture.sut.finish(ann.pass)
            #expect(result.number == 1, "the same attempt")
            #expect(result.grade == 1)
        }
    }

    // MARK: Attempts and grading

    @Test(arguments: [(AssignmentSettings.Grading.highest, 1.0), (.first, 1.0 / 6), (.last, 2.0 / 6), (.average, 0.5)])
    func attemptsAreLimitedAndGradedByTheRule(grading: AssignmentSettings.Grading, expected: Double) async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env, settings: AssignmentSettings(attemptsAllowed: 3, grading: grading))
            let ann = try await fixture.join("Ann")
            let q = fixture.bank.questions.compactMap(\.id)
            // Worth 1 (the true-or-false), all 6, then 2 (the first question).
            for right in [[q[2]], q, [q[0]]] {
                let attempt = try await fixture.sut.start(ann.pass)
                #expect(try await fixture.sut.start(ann.pass) == attempt, "one attempt at a time")
                await #expect(throws: Assignments.Failure.notFinished, "no result while an attempt is played") {
                    try await fixture.sut.result(ann.pass)
                }
                try await fixture.play(ann.pass, right: Set(right))
                _ = try await fixture.sut.finish(ann.pass)
            }
            await #expect(throws: Assignments.Failure.noAttemptsLeft) { try await fixture.sut.start(ann.pass) }
            let result = try await fixture.sut.result(ann.pass)
            let grades: [Double] = [1.0 / 6, 1, 2.0 / 6]
            #expect(result.attempts.map(\.grade) == grades)
            #expect(abs((result.grade ?? -1) - expected) < 1e-9)
            #expect(result.attemptsLeft == 0)
            #expect(try await fixture.sut.result(ann.pass, attempt: 2).lines.allSatisfy { $0.verdict == .correct })
            let report = try await fixture.sut.report(id: fixture.assignment.id, userId: fixture.teacher.id)
            #expect(abs((report.players.first?.grade ?? -1) - expected) < 1e-9)
            #expect(report.players.first?.attempts == 3)
        }
    }

    // MARK: Time

    @Test func aTimedQuestionRefusesAnAnswerAfterItsTimeAndIsPassedOver() async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env, settings: AssignmentSettings(timing: .questionsOwn))
            let ann = try await fixture.join("Ann")
            _ = try await fixture.sut.start(ann.pass)
            guard case .question(let first) = try await fixture.sut.next(ann.pass) else { Issue.record("no question"); return }
            #expect(first.deadline == env.time.now() + 30)
            #expect(first.secondsLeft == 30)
            env.time.advance(by: 10)
            guard case .question(let again) = try await fixture.sut.next(ann.pass) else { Issue.record("no question"); return }
            #expect(again.position == first.position && again.secondsLeft == 20, "a reload keeps the clock")
            env.time.advance(by: 20 + Assignments.grace + 0.001)
            let question = try #require(fixture.bank.questions.first { $0.id == first.question.id })
            await #expect(throws: Assignments.Failure.timeUp) {
                try await fixture.sut.answer(env.rightAnswer(to: question), position: first.position, ann.pass)
            }
            guard case .question(let second) = try await fixture.sut.next(ann.pass) else { Issue.record("no question"); return }
            #expect(second.position == first.position + 1)
        }
    }

    @Test func speedPointsGiveHalfAtTheLimitAndAccuracyOnlyGivesAll() async throws {
        try await withUseCases { env in
            let timed = AssignmentSettings(timing: .questionsOwn, speedPoints: true, answersShown: .afterEachQuestion)
            let fixture = try await AssignmentFixture(env, settings: timed)
            let ann = try await fixture.join("Ann")
            _ = try await fixture.sut.start(ann.pass)
            guard case .question(let view) = try await fixture.sut.next(ann.pass) else { Issue.record("no question"); return }
            env.time.advance(by: 15)
            let question = try #require(fixture.bank.questions.first { $0.id == view.question.id })
            let answered = try await fixture.sut.answer(env.rightAnswer(to: question), position: view.position, ann.pass)
            // Worth 2 points, a quarter off at half the time.
            #expect(answered.feedback?.marks == 1_500)
        }
    }

    // MARK: What players see

    @Test func aQuestionShownTellsNothingOfItsRightAnswer() async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env)
            let ann = try await fixture.join("Ann")
            await #expect(throws: Assignments.Failure.noAttempt) { try await fixture.sut.next(ann.pass) }
            _ = try await fixture.sut.start(ann.pass)
            var seen: [Question] = []
            while case .question(let view) = try await fixture.sut.next(ann.pass) {
                seen.append(view.question)
                let question = try #require(fixture.bank.questions.first { $0.id == view.question.id })
                _ = try await fixture.sut.answer(env.wrongAnswer(to: question), position: view.position, ann.pass)
            }
            #expect(seen.count == 5)
            #expect(seen.allSatisfy { $0.explanation == nil && $0.body.choices.allSatisfy { !$0.isCorrect && $0.fraction == nil } })
            #expect(seen.allSatisfy { $0.body.choices.allSatisfy { $0.id >= 100_000_000 } }, "public ids only")
            #expect(!seen.contains { if case .typedAnswer(let accepted, _) = $0.body { !accepted.isEmpty } else { false } })
            #expect(!seen.contains { if case .numeric(let value, _, _, _) = $0.body { value != 0 } else { false } })
        }
    }

    @Test(arguments: AssignmentSettings.AnswersShown.allCases)
    func theRightAnswersAreShownWhenTheSettingSays(shown: AssignmentSettings.AnswersShown) async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env, settings: AssignmentSettings(answersShown: shown), closesIn: 3600)
            let ann = try await fixture.join("Ann")
            _ = try await fixture.sut.start(ann.pass)
            let answered = try await fixture.play(ann.pass, right: fixture.allIds)
            #expect(answered.allSatisfy { ($0.feedback != nil) == (shown == .afterEachQuestion) })
            #expect(answered.first?.feedback?.verdict == (shown == .afterEachQuestion ? .correct : nil))
            let finished = try await fixture.sut.finish(ann.pass)
            #expect(finished.grade == 1, "the score is the player's at the end")
            #expect(finished.answersShown == (shown != .afterClose))
            #expect(finished.lines.allSatisfy { ($0.verdict != nil) == (shown != .afterClose) })
            let single = try #require(finished.lines.first?.question.body.choices)
            #expect(single.contains(where: \.isCorrect) == (shown != .afterClose))
            #expect(finished.lines.allSatisfy { $0.given != nil }, "their own answers, always")
            env.time.advance(by: 3600)
            let afterClose = try await fixture.sut.result(ann.pass)
            #expect(afterClose.answersShown && afterClose.lines.allSatisfy { $0.verdict == .correct })
        }
    }

    @Test(arguments: [false, true])
    func homeworkAddsLeaderboardPointsOnlyWhenTheOwnerSaysSo(leaderboardPoints: Bool) async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env, settings: AssignmentSettings(attemptsAllowed: 2, leaderboardPoints: leaderboardPoints))
            let student = try await env.register("student")
            let joined = try await fixture.sut.join(code: fixture.assignment.code, nickname: "", user: student, address: "192.0.2.1")
            for _ in 0..<2 {
                _ = try await fixture.sut.start(joined.pass)
                try await fixture.play(joined.pass, right: fixture.allIds)
                let result = try await fixture.sut.finish(joined.pass)
                #expect(result.pointsAdded == (leaderboardPoints && result.number == 1 ? 6 : 0), "the same score again adds nothing")
            }
            #expect(try await env.store.user(id: student.id)?.points == (leaderboardPoints ? 6 : 0))
        }
    }

    // MARK: Joining and coming back

    @Test func aPlayerComesBackWithTheSecretOrOnAnotherDeviceWithTheRejoinCode() async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env)
            let ann = try await fixture.join("Ann")
            let code = try #require(ann.code)
            _ = try await fixture.sut.start(ann.pass)
            try await fixture.play(ann.pass, right: fixture.allIds, limit: 2)
            let resumed = try await fixture.sut.resume(playerId: ann.playerId, secret: ann.secret, address: "192.0.2.1")
            #expect(resumed.nickname == "Ann" && resumed.code == nil)
            await #expect(throws: Assignments.Failure.notResumable) {
                try await fixture.sut.resume(playerId: ann.playerId, secret: "guess", address: "192.0.2.1")
            }
            await #expect(throws: Assignments.Failure.badRejoin) {
                try await fixture.sut.rejoin(code: fixture.assignment.code, nickname: "Ann", rejoinCode: "AAAAAA", address: "192.0.2.9")
            }
            let phone = try await fixture.sut.rejoin(code: fixture.assignment.code, nickname: "ann", rejoinCode: " \(code.lowercased()) ",
                                                     address: "192.0.2.9")
            #expect(phone.playerId == ann.playerId && phone.secret != ann.secret)
            await #expect(throws: Assignments.Failure.notResumable) { try await fixture.sut.next(ann.pass) }
            guard case .question(let view) = try await fixture.sut.next(phone.pass) else { Issue.record("no question"); return }
            #expect(view.position == 2, "where they were")
        }
    }

    @Test func aSignedInPlayerPlaysUnderTheirUsernameAndIsOnePlayerHoweverOftenTheyJoin() async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env)
            let student = try await env.register("student")
            _ = try await fixture.join("STUDENT")
            let first = try await fixture.sut.join(code: fixture.assignment.code, nickname: "ignored", user: student, address: "192.0.2.1")
            #expect(first.nickname == "student (2)", "a look-alike nickname came first")
            let again = try await fixture.sut.join(code: fixture.assignment.code, nickname: "x", user: student, address: "192.0.2.2")
            #expect(again.playerId == first.playerId)
            let pass = Assignments.Pass.user(student.id)
            _ = try await fixture.sut.start(pass, assignmentId: fixture.assignment.id)
            await #expect(throws: Assignments.Failure.notResumable) { try await fixture.sut.start(pass) }
            let other = try await env.register("other")
            await #expect(throws: Assignments.Failure.notResumable) {
                try await fixture.sut.next(.user(other.id), assignmentId: fixture.assignment.id)
            }
        }
    }

    @Test func nicknamesFollowTheLiveGamesRulesAndJoiningIsRateLimitedPerAddress() async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env, joinsPerMinute: 4)
            _ = try await fixture.join("Ann")
            await #expect(throws: Assignments.Failure.nicknameTaken) { try await fixture.join("ÄNN") }
            await #expect(throws: Assignments.Failure.nicknameInvalid) { try await fixture.join("   ") }
            await #expect(throws: Assignments.Failure.assignmentNotFound) {
                try await fixture.sut.join(code: "000000", nickname: "Guess", user: nil, address: "192.0.2.1")
            }
            await #expect(throws: Assignments.Failure.rateLimited) { try await fixture.join("Bob") }
            _ = try await fixture.join("Bob", address: "198.51.100.7")
            env.time.advance(by: 60)
            _ = try await fixture.join("Cy")
        }
    }

    @Test func shuffledQuestionsKeepTheirOrderForTheAttempt() async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env, settings: AssignmentSettings(shuffleQuestions: true, shuffleAnswers: true))
            let ann = try await fixture.join("Ann")
            let attempt = try await fixture.sut.start(ann.pass)
            #expect(Set(attempt.questionIds) == fixture.allIds)
            guard case .question(let first) = try await fixture.sut.next(ann.pass),
                  case .question(let again) = try await fixture.sut.next(ann.pass) else { Issue.record("no question"); return }
            #expect(first == again)
            #expect(first.question.id == attempt.questionIds[0])
        }
    }

    // MARK: The report

    @Test func theReportHasEachPlayersGradeAndEachQuestionsCommonWrongAnswers() async throws {
        try await withUseCases { env in
            let fixture = try await AssignmentFixture(env)
            let q = fixture.bank.questions.compactMap(\.id)
            for (name, right) in [("Ann", Set(q)), ("Bob", Set(q.dropFirst())), ("=Cy", [])] {
                let player = try await fixture.join(name)
                _ = try await fixture.sut.start(player.pass)
                try await fixture.play(player.pass, right: right)
                _ = try await fixture.sut.finish(player.pass)
            }
            _ = try await fixture.join("Dee")
            let eve = try await fixture.join("Eve")
            _ = try await fixture.sut.start(eve.pass)
            try await fixture.play(eve.pass, right: Set(q), limit: 2)
            let report = try await fixture.sut.report(id: fixture.assignment.id, userId: fixture.teacher.id)
            #expect(report.players.map(\.nickname) == ["Ann", "Bob", "=Cy", "Dee", "Eve"])
            #expect(report.players.map(\.state) == [.finished, .finished, .finished, .joined, .playing])
            #expect(report.players.map(\.answeredNow) == [nil, nil, nil, nil, 2], "the assignment fills up as it runs")
            let grades: [Double?] = [1, 4.0 / 6, 0, nil, nil]
            #expect(report.players.map(\.grade) == grades)
            #expect(report.players[1].credits[q[0]] == Credit.none && report.players[1].credits[q[1]] == .full)
            let first = try #require(report.questionRows.first)
            #expect((first.answered, first.right) == (4, 2), "answers in progress count too")
            #expect(first.commonWrongAnswers == [Assignments.WrongAnswer(answer: "Lyon", count: 2)])
            #expect(report.questionRows[3].commonWrongAnswers == [Assignments.WrongAnswer(answer: "Rotterdam", count: 1)])
            let csv = report.csv()
            let lines = csv.split(separator: "\r\n").map(String.init)
            #expect(lines[0] == "nickname,signed_in,state,attempts,grade_percent,seconds,q1_percent,q2_percent,q3_percent,q4_percent,q5_percent")
            #expect(lines[2] == "Bob,no,finished,1,66.7,0,0.0,100.0,100.0,100.0,100.0")
            #expect(lines[3].hasPrefix("'=Cy,"), "a nickname is never a formula")
            #expect(lines[4] == "Dee,no,joined,0,,,,,,,")
            let json = try JSONSerialization.jsonObject(with: try report.json()) as? [String: Any]
            let players = try #require(json?["players"] as? [[String: Any]])
            #expect(players.map { $0["nickname"] as? String } == ["Ann", "Bob", "=Cy", "Dee", "Eve"])
            let questions = try #require(json?["questions"] as? [[String: Any]])
            #expect(questions.first?["right"] as? Int == 2)
        }
    }
}
