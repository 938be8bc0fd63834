import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Classes as a teacher and their students use them, against real SQL and a hand-moved clock.
@Suite struct ClassesTests {
    // MARK: Owning

    @Test func anyoneSignedInCreatesAClassWithASixDigitCodeAndOnlyTheOwnerManagesIt() async throws {
        try await withUseCases { env in
            let fixture = try await ClassFixture(env)
            let (sut, id, other) = (fixture.sut, fixture.schoolClass.id, fixture.ann)
            #expect(fixture.schoolClass.name == "7B", "trimmed")
            #expect(fixture.schoolClass.code.count == 6 && Int(fixture.schoolClass.code) != nil && fixture.schoolClass.joiningOpen)
            #expect(try await sut.taught(userId: fixture.teacher.id).map(\.members) == [2])
            #expect(try await sut.taught(userId: other.id).isEmpty)
            #expect(try await sut.joined(userId: other.id).map(\.id) == [id])
            await #expect(throws: Classes.Failure.classNotFound) { try await sut.rename(id: id, name: "Mine", userId: other.id) }
            await #expect(throws: Classes.Failure.classNotFound) { try await sut.setJoining(id: id, open: false, userId: other.id) }
            await #expect(throws: Classes.Failure.classNotFound) { try await sut.remove(userId: fixture.bob.id, from: id, ownerId: other.id) }
            #expect(try await sut.rename(id: id, name: "7B maths", userId: fixture.teacher.id).name == "7B maths")
            await #expect(throws: Classes.Failure.invalid([FieldError(field: "name", message: "is empty")])) {
                try await sut.create(name: "  ", user: other)
            }
            await #expect(throws: Classes.Failure.invalid([FieldError(field: "name", message: "is longer than 100 characters")])) {
                try await sut.rename(id: id, name: String(repeating: "x", count: 101), userId: fixture.teacher.id)
            }
        }
    }

    @Test func anOwnerHoldsAtMostTheClassesAllowed() async throws {
        try await withUseCases { env in
            let sut = env.classes()
            let teacher = try await env.register("teacher")
            for index in 0..<Classes.classesPerOwner { _ = try await sut.create(name: "Class \(index)", user: teacher) }
            await #expect(throws: Classes.Failure.tooManyClasses(Classes.classesPerOwner)) { try await sut.create(name: "One more", user: teacher) }
        }
    }

    // MARK: Joining

    @Test func aStudentJoinsWithTheCodeOnceAndNobodyNewOnceJoiningIsClosed() async throws {
        try await withUseCases { env in
            let fixture = try await ClassFixture(env)
            let (sut, code) = (fixture.sut, fixture.schoolClass.code)
            let cara = try await env.register("cara")
            let spaced = String(code.prefix(3)) + " " + String(code.suffix(3))
            #expect(try await sut.join(code: code, user: fixture.ann, address: "a").joinedNow == false, "a member already")
            await #expect(throws: Classes.Failure.ownClass) { try await sut.join(code: code, user: fixture.teacher, address: "a") }
            await #expect(throws: Classes.Failure.classNotFound) { try await sut.join(code: "12345x", user: cara, address: "a") }
            _ = try await sut.setJoining(id: fixture.schoolClass.id, open: false, userId: fixture.teacher.id)
            await #expect(throws: Classes.Failure.joiningClosed) { try await sut.join(code: code, user: cara, address: "a") }
            #expect(try await sut.join(code: code, user: fixture.bob, address: "a").joinedNow == false, "members stay")
            _ = try await sut.setJoining(id: fixture.schoolClass.id, open: true, userId: fixture.teacher.id)
            #expect(try await sut.join(code: spaced, user: cara, address: "a").joinedNow, "spaces typed in the code are ignored")
            try await sut.remove(userId: cara.id, from: fixture.schoolClass.id, ownerId: fixture.teacher.id)
            await #expect(throws: Classes.Failure.notMember) {
                try await sut.remove(userId: cara.id, from: fixture.schoolClass.id, ownerId: fixture.teacher.id)
            }
            try await sut.leave(id: fixture.schoolClass.id, userId: fixture.bob.id)
            #expect(try await sut.view(id: fixture.schoolClass.id, userId: fixture.teacher.id).members.map(\.username) == ["ann"])
        }
    }

    @Test func joinsAreCountedPerAddressSoCodesCannotBeGuessed() async throws {
        try await withUseCases { env in
            let fixture = try await ClassFixture(env, joinsPerMinute: 3)
            let cara = try await env.register("cara")
            // The fixture's two joins came from 192.0.2.9: one more is allowed there.
            await #expect(throws: Classes.Failure.classNotFound) { try await fixture.sut.join(code: "000000", user: cara, address: "192.0.2.9") }
            await #expect(throws: Classes.Failure.rateLimited) {
                try await fixture.sut.join(code: fixture.schoolClass.code, user: cara, address: "192.0.2.9")
            }
            #expect(try await fixture.sut.join(code: fixture.schoolClass.code, user: cara, address: "198.51.100.1").joinedNow)
            env.time.advance(by: 61)
            await #expect(throws: Classes.Failure.classNotFound) { try await fixture.sut.join(code: "000000", user: cara, address: "192.0.2.9") }
        }
    }

    // MARK: Class assignments

    @Test func aClassAssignmentTakesOnlyItsStudentsSignedInAndOnlyItsOwnerAssignsToIt() async throws {
        try await withUseCases { env in
            let fixture = try await ClassFixture(env)
            let assignment = try await fixture.assign("Week 1")
            let outsider = try await env.register("outsider")
            #expect(assignment.classId == fixture.schoolClass.id)
            let code = assignment.code
            await #expect(throws: Assignments.Failure.signInRequired) {
                try await fixture.assignments.join(code: code, nickname: "Zed", user: nil, address: "a")
            }
            await #expect(throws: Assignments.Failure.notInClass) {
                try await fixture.assignments.join(code: code, nickname: "", user: outsider, address: "a")
            }
            #expect(try await fixture.assignments.join(code: code, nickname: "", user: fixture.ann, address: "a").nickname == "ann")
            try await fixture.sut.remove(userId: fixture.bob.id, from: fixture.schoolClass.id, ownerId: fixture.teacher.id)
            await #expect(throws: Assignments.Failure.notInClass) {
                try await fixture.assignments.join(code: code, nickname: "", user: fixture.bob, address: "a")
            }
            await #expect(throws: Assignments.Failure.notInClass) {
                try await fixture.assignments.create(Assignments.Draft(quizId: fixture.bank.quiz.id, closesAt: env.time.now() + 60,
                                                                       classId: fixture.schoolClass.id), user: outsider)
            }
        }
    }

    // MARK: Gradebook

    @Test func theGradebookGradesEachStudentByEachAssignmentsRuleAndAStudentSeesOnlyTheirRow() async throws {
        try await withUseCases { env in
            let fixture = try await ClassFixture(env)
            let first = try await fixture.assign("Week 1", settings: AssignmentSettings(attemptsAllowed: 2, grading: .last))
            let second = try await fixture.assign("Week 2", closesIn: 3600)
            _ = try await fixture.assign("Week 3", closesIn: 7200)
            try await fixture.play(first, as: fixture.ann, right: [0, 1, 2, 3, 4])
            try await fixture.play(first, as: fixture.ann, right: [0])  // the last counts: 2 of 6 points
            try await fixture.play(first, as: fixture.bob, right: [1, 2, 3])  // 3 of 6
            try await fixture.play(second, as: fixture.bob, right: [0, 1, 2, 3, 4], finish: false)
            let id = fixture.schoolClass.id
            var book = try await fixture.sut.view(id: id, userId: fixture.teacher.id).gradebook
            #expect(book.columns.map(\.title) == ["Week 2", "Week 3", "Week 1"], "oldest close first")
            #expect(book.rows.map(\.username) == ["ann", "bob"])
            #expect(book.rows[0].cells == [nil, nil, 2.0 / 6])
            #expect(book.rows[1].cells == [nil, nil, 0.5], "an attempt in progress is no grade yet")
            #expect(book.columnAverages == [nil, nil, (2.0 / 6 + 0.5) / 2])
            #expect(book.rows[1].average == 0.5)
            env.time.advance(by: 3600)  // Week 2 closes: Bob's attempt is cut off and counts
            book = try await fixture.sut.view(id: id, userId: fixture.teacher.id).gradebook
            #expect(book.cell(userId: fixture.bob.id, assignmentId: second.id) == 1)
            #expect(book.rows[1].average == 0.75)
            let own = try await fixture.sut.view(id: id, userId: fixture.ann.id)
            #expect(!own.isOwner && own.members.isEmpty && own.assignments.count == 3)
            #expect(own.gradebook.rows.map(\.username) == ["ann"])
            #expect(own.gradebook.columnAverages == [nil, nil, nil], "the class's averages are not a student's to read")
            let outsider = try await env.register("outsider")
            await #expect(throws: Classes.Failure.classNotFound) { try await fixture.sut.view(id: id, userId: outsider.id) }
        }
    }

    @Test func theGradebookFilesDefuseFormulasAndWritePercentages() async throws {
        try await withUseCases { env in
            let fixture = try await ClassFixture(env)
            let assignment = try await fixture.assign("=HYPERLINK(\"x\")")
            try await fixture.play(assignment, as: fixture.ann, right: [0])
            let book = try await fixture.sut.view(id: fixture.schoolClass.id, userId: fixture.teacher.id).gradebook
            let lines = book.csv().split(separator: "\r\n").map(String.init)
            #expect(lines == ["username,\"'=HYPERLINK(\"\"x\"\")\",average_percent", "ann,33.3,33.3", "bob,,", "average,33.3,"])
            #expect(book.csv(separator: ";").hasPrefix("\u{FEFF}username;"))
            #expect(book.csv(separator: ";").contains("ann;33,3;33,3"))
            let workbook = book.workbook(sheet: "Gradebook", student: "Student", average: "Average")
            #expect(workbook.starts(with: [0x50, 0x4B]), "a ZIP archive")
        }
    }

    // MARK: Due list

    @Test func aStudentsDueListPutsWhatIsNotDoneFirstThenByClose() async throws {
        try await withUseCases { env in
            let fixture = try await ClassFixture(env)
            let done = try await fixture.assign("Done", closesIn: 600)
            let later = try await fixture.assign("Later", closesIn: 7200)
            let soon = try await fixture.assign("Soon", closesIn: 3600)
            let upcoming = try await fixture.assignments.create(Assignments.Draft(
                quizId: fixture.bank.quiz.id, title: "Upcoming", opensAt: env.time.now() + 600, closesAt: env.time.now() + 1800,
                classId: fixture.schoolClass.id), user: fixture.teacher)
            let missed = try await fixture.assign("Missed", closesIn: 60)
            try await fixture.play(done, as: fixture.ann, right: [])
            env.time.advance(by: 120)  // "Missed" closed unplayed
            var due = try await fixture.sut.due(userId: fixture.ann.id)
            #expect(due.map(\.assignment.id) == [soon.id, later.id, upcoming.id, missed.id, done.id],
                    "open, then not open yet, then missed, each by close; done last")
            #expect(due.map(\.window) == [.open, .open, .notOpen, .closed, .open])
            #expect(due.map(\.done) == [false, false, false, false, true])
            #expect(due.first?.className == "7B")
            env.time.advance(by: Classes.recentlyClosed)  // all closed; "Missed" a week ago
            due = try await fixture.sut.due(userId: fixture.ann.id)
            #expect(due.map(\.assignment.title) == ["Upcoming", "Soon", "Later", "Done"])
            #expect(try await fixture.sut.due(userId: fixture.teacher.id).isEmpty, "the teacher is no student of theirs")
        }
    }
}
