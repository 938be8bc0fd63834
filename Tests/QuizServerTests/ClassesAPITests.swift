import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
@testable import QuizServer
import QuizStore
import Testing

@Suite struct ClassesAPITests {
    @Test func aTeacherCreatesAClassStudentsJoinWithItsCodeAndOnlyTheTeacherSeesTheStudents() async throws {
        try await withApp { client, _ in
            let teacher = try await client.signUp("teacher")
            let ann = try await client.signUp("ann")
            let bob = try await client.signUp("bob")
            #expect(try await client.call(.post, "/api/v1/classes", json: ["name": "7B"]).status == .unauthorized)
            let bad = try await client.call(.post, "/api/v1/classes", token: teacher, json: ["name": "  "])
            #expect(bad.status == .unprocessableContent && bad.errorCode == "invalid_class" && bad.errorField == "name", "\(bad.raw)")
            let created = try await client.call(.post, "/api/v1/classes", token: teacher, json: ["name": " 7B maths "])
            #expect(created.status == .created, "\(created.raw)")
            let id = try #require(created["id"] as? Int)
            let code = try #require(created["code"] as? String)
            #expect(code.count == 6 && created["name"] as? String == "7B maths" && created["joinPath"] as? String == "/classes/join/\(code)")

            let joined = try await client.call(.post, "/api/v1/classes/join", token: ann, json: ["code": code])
            #expect(joined.status == .ok && joined["joinedNow"] as? Bool == true, "\(joined.raw)")
            #expect(try await client.call(.post, "/api/v1/classes/join", token: ann, json: ["code": code])["joinedNow"] as? Bool == false)
            let own = try await client.call(.post, "/api/v1/classes/join", token: teacher, json: ["code": code])
            #expect(own.status == .conflict && own.errorCode == "own_class")
            let wrong = try await client.call(.post, "/api/v1/classes/join", token: bob, json: ["code": code == "999999" ? "999998" : "999999"])
            #expect(wrong.status == .notFound && wrong.errorCode == "not_found")
            let long = try await client.call(.post, "/api/v1/classes/join", token: bob, json: ["code": String(repeating: "1", count: 40)])
            #expect(long.status == .notFound && long.errorCode == "not_found", "a code that cannot be one is looked up nowhere")

            let seen = try await client.call(.get, "/api/v1/classes/\(id)", token: teacher)
            #expect(seen["isOwner"] as? Bool == true)
            #expect((seen["members"] as? [[String: Any]])?.map { $0["username"] as? String } == ["ann"])
            let asStudent = try await client.call(.get, "/api/v1/classes/\(id)", token: ann)
            #expect(asStudent.status == .ok && asStudent["isOwner"] as? Bool == false)
            #expect((asStudent["members"] as? [Any])?.isEmpty == true, "a student sees no classmates")
            #expect((asStudent["class"] as? [String: Any])?["code"] as? String == "", "the code is the teacher's to hand out")
            #expect(try await client.call(.get, "/api/v1/classes/\(id)", token: bob).status == .notFound)
            let list = try await client.call(.get, "/api/v1/classes", token: ann)
            #expect((list["joined"] as? [[String: Any]])?.map { $0["id"] as? Int } == [id])
            #expect((list["taught"] as? [Any])?.isEmpty == true)

            let closed = try await client.call(.patch, "/api/v1/classes/\(id)", token: teacher, json: ["joiningOpen": false, "name": "7B"])
            #expect(closed["joiningOpen"] as? Bool == false && closed["name"] as? String == "7B", "\(closed.raw)")
            #expect(try await client.call(.patch, "/api/v1/classes/\(id)", token: ann, json: ["joiningOpen": true]).status == .notFound)
            let refused = try await client.call(.post, "/api/v1/classes/join", token: bob, json: ["code": code])
            #expect(refused.status == .conflict && refused.errorCode == "joining_closed")

            let annId = try await client.userId(ann)
            #expect(try await client.call(.delete, "/api/v1/classes/\(id)/members/\(annId)", token: bob).status == .notFound)
            #expect(try await client.call(.delete, "/api/v1/classes/\(id)/members/\(annId)", token: teacher).status == .noContent)
            let again = try await client.call(.delete, "/api/v1/classes/\(id)/members/\(annId)", token: teacher)
            #expect(again.status == .notFound && again.errorCode == "not_member")
            #expect(try await client.call(.get, "/api/v1/classes/\(id)", token: ann).status == .notFound)
        }
    }

    @Test func theGradebookGivesTheTeacherEveryRowAndAStudentOnlyTheirOwn() async throws {
        try await withApp { client, env in
            let teacher = try await client.signUp("teacher")
            let ann = try await client.signUp("ann")
            let bob = try await client.signUp("bob")
            let created = try await client.call(.post, "/api/v1/classes", token: teacher, json: ["name": "7B"])
            let id = try #require(created["id"] as? Int)
            let code = try #require(created["code"] as? String)
            for token in [ann, bob] { _ = try await client.call(.post, "/api/v1/classes/join", token: token, json: ["code": code]) }
            let (teacherId, annId, bobId) = (try await client.userId(teacher), try await client.userId(ann), try await client.userId(bob))
            try await classAssignment(env, classId: Int64(id), owner: teacherId, code: "510001", title: "=Week 1",
                                      attempts: [(annId, "ann", 4_000), (bobId, "bob", 1_000)])

            let book = try await client.call(.get, "/api/v1/classes/\(id)/gradebook", token: teacher)
            #expect(book.status == .ok, "\(book.raw)")
            let rows = try #require(book["rows"] as? [[String: Any]])
            #expect(rows.map { $0["username"] as? String } == ["ann", "bob"])
            #expect(rows.map { ($0["cells"] as? [[String: Any]])?.first?["grade"] as? Double } == [1, 0.25])
            #expect((book["columns"] as? [[String: Any]])?.first?["average"] as? Double == 0.625)

            let mine = try await client.call(.get, "/api/v1/classes/\(id)/gradebook", token: bob)
            let own = try #require(mine["rows"] as? [[String: Any]])
            #expect(own.map { $0["username"] as? String } == ["bob"], "a student sees only their own row")
            #expect((mine["columns"] as? [[String: Any]])?.first?["average"] == nil, "nor the class's average")
            let outsider = try await client.signUp("outsider")
            #expect(try await client.call(.get, "/api/v1/classes/\(id)/gradebook", token: outsider).status == .notFound)

            let csv = try await client.call(.get, "/api/v1/classes/\(id)/gradebook/export", token: teacher)
            #expect(csv.status == .ok && csv.headers[.contentType]?.hasPrefix("text/csv") == true, "\(csv.raw)")
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"gradebook-\(id).csv\"")
            #expect(csv.raw.split(separator: "\r\n") == ["username,'=Week 1,average_percent", "ann,100.0,100.0", "bob,25.0,25.0", "average,62.5,"])
            let semicolon = try await client.call(.get, "/api/v1/classes/\(id)/gradebook/export?separator=semicolon", token: bob)
            #expect(semicolon.raw == "\u{FEFF}username;'=Week 1;average_percent\r\nbob;25,0;25,0\r\n")
            let workbook = try await client.call(.get, "/api/v1/classes/\(id)/gradebook/export?format=xlsx", token: teacher)
            #expect(workbook.status == .ok && workbook.headers[.contentType] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
            #expect(workbook.raw.hasPrefix("PK"))
        }
    }

    @Test func aStudentsDueListHasTheirClassesAssignmentsNotDoneFirst() async throws {
        try await withApp { client, env in
            let teacher = try await client.signUp("teacher")
            let ann = try await client.signUp("ann")
            let created = try await client.call(.post, "/api/v1/classes", token: teacher, json: ["name": "7B"])
            let id = try #require(created["id"] as? Int)
            _ = try await client.call(.post, "/api/v1/classes/join", token: ann, json: ["code": try #require(created["code"] as? String)])
            let (teacherId, annId) = (try await client.userId(teacher), try await client.userId(ann))
            try await classAssignment(env, classId: Int64(id), owner: teacherId, code: "520001", title: "Done", closesIn: 600,
                                      attempts: [(annId, "ann", 2_000)])
            try await classAssignment(env, classId: Int64(id), owner: teacherId, code: "520002", title: "To do", closesIn: 7200, attempts: [])
            let due = try await client.call(.get, "/api/v1/me/due-assignments", token: ann)
            let items = try #require(due["assignments"] as? [[String: Any]], "\(due.raw)")
            #expect(items.map { $0["title"] as? String } == ["To do", "Done"])
            #expect(items.map { $0["done"] as? Bool } == [false, true])
            #expect(items.first?["playPath"] as? String == "/a/520002" && items.first?["className"] as? String == "7B")
            #expect(items.first?["window"] as? String == "open")
            let theirs = try await client.call(.get, "/api/v1/me/due-assignments", token: teacher)
            #expect((theirs["assignments"] as? [Any])?.isEmpty == true)
        }
    }
}
