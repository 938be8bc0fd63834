import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
@testable import QuizServer
import QuizStore
import Testing

@Suite struct ClassPageTests {
    private func userId(_ env: TestEnvironment, _ username: String) async throws -> Int64 {
        try #require(try await env.store.credentials(username: username)?.user.id)
    }

    /// Registers a teacher, creates "7B" and returns its id and code.
    private func teacherWithClass(_ teacher: TestBrowser) async throws -> (id: Int, code: String) {
        try await teacher.register("teacher")
        _ = try await teacher.get("/classes")
        let created = try await teacher.post("/classes", [("name", "7B <maths>")])
        #expect(created.status == .seeOther, "\(created.html)")
        let location = try #require(created.location)
        let id = try #require(Int(location.replacingOccurrences(of: "/classes/", with: "")))
        let page = try await teacher.get(location)
        let range = try #require(page.html.range(of: #"id="class-code">[0-9]{6}<"#, options: .regularExpression))
        let code = String(page.html[range].filter(\.isNumber))
        return (id, code)
    }

    @Test func aTeacherCreatesAClassAndSeesItsCodeLinkAndQRCodeAndItsStudents() async throws {
        try await withApp { client, _ in
            let teacher = TestBrowser(client)
            try await teacher.register("teacher")
            let empty = try await teacher.get("/classes")
            #expect(empty.status == .ok && empty.contains(#"id="no-taught-classes""#) && empty.contains(#"action="/classes""#))
            let refused = try await teacher.post("/classes", [("name", "   ")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.contains(#"id="error-name""#) && refused.contains("name is empty."))
            let created = try await teacher.post("/classes", [("name", "7B <maths>")])
            let page = try await teacher.follow(created)
            #expect(page.status == .ok)
            #expect(page.contains("7B &lt;maths&gt;") && !page.contains("7B <maths>"))
            let range = try #require(page.html.range(of: #"id="class-code">[0-9]{6}<"#, options: .regularExpression))
            let code = String(page.html[range].filter(\.isNumber))
            #expect(page.contains("/classes/join/\(code)"))
            #expect(page.contains("<svg"), "a QR code of the join link")
            #expect(page.contains(#"id="no-members""#) && page.contains(#"id="joining-button""#))

            let student = TestBrowser(client)
            try await student.register("ann")
            let form = try await student.get("/classes/join/\(code)")
            #expect(form.status == .ok && form.contains(#"value="\#(code)""#), "the link fills the code in")
            let joined = try await student.post("/classes/join", [("code", code)])
            #expect(joined.location == created.location, "\(joined.html)")
            let studentView = try await student.follow(joined)
            #expect(studentView.contains("Your grades") && !studentView.contains(#"id="class-code""#) && studentView.contains(#"id="leave-form""#))

            let withAnn = try await teacher.get(try #require(created.location))
            #expect(withAnn.contains(#"<span class="quiz-link">ann</span>"#))
            let list = try await teacher.get("/classes")
            #expect(list.contains("1 student") && list.contains("Code \(code)"))
            #expect(try await student.get("/classes").contains(#"href="\#(try #require(created.location))""#))
        }
    }

    @Test func theTeacherRemovesAStudentAndClosesJoining() async throws {
        try await withApp { client, env in
            let teacher = TestBrowser(client)
            let (id, code) = try await teacherWithClass(teacher)
            let student = TestBrowser(client)
            try await student.register("ann")
            _ = try await student.get("/classes/join")
            _ = try await student.post("/classes/join", [("code", code)])
            let annId = try await userId(env, "ann")
            #expect(try await teacher.get("/classes/\(id)").contains(#"action="/classes/\#(id)/members/\#(annId)/remove""#),
                    "each student has a remove button")
            let removed = try await teacher.post("/classes/\(id)/members/\(annId)/remove", [])
            #expect(removed.location == "/classes/\(id)")
            #expect(try await teacher.get("/classes/\(id)").contains(#"id="no-members""#))
            #expect(try await student.get("/classes/\(id)").status == .notFound, "a removed student sees the class no more")
            let stranger = TestBrowser(client)
            try await stranger.register("mallory")
            #expect(try await stranger.post("/classes/\(id)/members/\(annId)/remove", []).status == .notFound)
            #expect(try await stranger.get("/classes/\(id)/gradebook.csv").status == .notFound)

            _ = try await teacher.post("/classes/\(id)/joining", [("open", "0")])
            #expect(try await teacher.get("/classes/\(id)").contains("Joining is closed"))
            let closed = try await student.post("/classes/join", [("code", code)])
            #expect(closed.status == .conflict && closed.contains("This class is closed to new students"))
            let unknown = try await student.post("/classes/join", [("code", "12")])
            #expect(unknown.status == .notFound && unknown.contains(#"id="error-code""#))
            let noToken = try await student.post("/classes/join", [("code", code)], csrf: false)
            #expect(noToken.status == .forbidden, "forms carry a CSRF token")
        }
    }

    @Test func aJoinLinkOpenedSignedOutAsksToSignInAndComesBack() async throws {
        try await withApp { client, _ in
            let visitor = TestBrowser(client)
            let page = try await visitor.get("/classes/join/123456")
            #expect(page.status == .seeOther || page.status == .found)
            #expect(page.location?.hasPrefix("/login?next=") == true && page.location?.contains("classes") == true, "\(page.location ?? "")")
        }
    }

    @Test func theGradebookAndTheDueListShowGradesAndDueTimesInTheReadersLanguage() async throws {
        try await withApp { client, env in
            let teacher = TestBrowser(client)
            let (id, code) = try await teacherWithClass(teacher)
            for name in ["ann", "bob"] {
                let student = TestBrowser(client)
                try await student.register(name)
                _ = try await student.get("/classes/join")
                _ = try await student.post("/classes/join", [("code", code)])
            }
            let (teacherId, bobId) = (try await userId(env, "teacher"), try await userId(env, "bob"))
            // Due tomorrow: the manual clock starts at 2027-01-15 08:00 UTC.
            let tomorrow = env.time.now().timeIntervalSince(Pages.utcCalendar.startOfDay(for: env.time.now()))
            try await classAssignment(env, classId: Int64(id), owner: teacherId, code: "530001", title: "Fractions",
                                      closesIn: 86_400 - tomorrow + 14 * 3600, attempts: [(bobId, "bob", 3_000)])
            let book = try await teacher.get("/classes/\(id)")
            #expect(book.contains(#"id="gradebook""#) && book.contains("75\u{A0}%") && book.contains("href=\"/classes/\(id)/gradebook.xlsx\""))
            let assignmentId = try #require(try await env.store.assignment(code: "530001")?.id)
            #expect(book.contains(#"href="/assignments/\#(assignmentId)">Fractions</a>"#), "the teacher's line opens the report")
            #expect(book.contains(#"<span class="cell-meta">due "#))
            let csv = try await teacher.get("/classes/\(id)/gradebook.csv")
            #expect(csv.status == .ok && csv.html.contains("bob,75.0,75.0"))
            let xlsx = try await teacher.get("/classes/\(id)/gradebook.xlsx")
            #expect(xlsx.status == .ok && xlsx.html.hasPrefix("PK"))

            let ann = TestBrowser(client)
            _ = try await ann.get("/login")
            _ = try await ann.post("/login", [("username", "ann"), ("password", "correct horse")])
            let own = try await ann.get("/classes/\(id)")
            #expect(own.contains("<th scope=\"row\">ann</th>") && !own.contains("<th scope=\"row\">bob</th>"), "a student sees only their own row")
            #expect(!own.contains("gradebook.csv"))
            #expect(own.contains(#"href="/a/530001">Fractions</a>"#) && !own.contains(#"id="assign-to-class""#), "a student's opens the assignment")
            let home = try await ann.get("/home")
            #expect(home.contains(#"id="due-list""#) && home.contains(#"href="/a/530001""#))
            #expect(home.contains("due tomorrow at 14:00 UTC"), "\(home.html)")
            ann.acceptLanguage = "fi"
            let finnish = try await ann.get("/home")
            #expect(finnish.contains("huomenna klo 14.00 UTC"), "the due time in Finnish")

            // Closed early by the teacher: the gradebook's column says so, not "due".
            _ = try await teacher.get("/assignments/\(assignmentId)")
            _ = try await teacher.post("/assignments/\(assignmentId)/close", [])
            let closed = try await teacher.get("/classes/\(id)")
            #expect(closed.contains(#"<span class="cell-meta">closed "#) && !closed.contains(#"<span class="cell-meta">due "#), "\(closed.html)")
        }
    }

    @Test func theTeacherAssignsAQuizToTheClassFromItsPage() async throws {
        try await withApp { client, env in
            let teacher = TestBrowser(client)
            let (id, _) = try await teacherWithClass(teacher)
            let page = try await teacher.get("/classes/\(id)")
            #expect(page.contains(#"<form method="get" action="/assignments/new" class="inline-form" id="assign-to-class">"#))
            #expect(page.contains(#"<input type="hidden" name="class" value="\#(id)">"#))
            let quiz = try #require(try await env.store.allQuizzes().first)
            #expect(page.contains(#"<optgroup label="\#(quiz.subjectName)">"#))
            #expect(page.contains(#"<option value="\#(quiz.quiz.id)">\#(quiz.topicName) › \#(quiz.quiz.title)</option>"#), "\(page.html)")
            let form = try await teacher.get("/assignments/new?class=\(id)&quiz=\(quiz.quiz.id)")
            #expect(form.status == .ok && form.contains(#"<option value="\#(id)" selected>"#), "the class is chosen on the form")
        }
    }
}
