import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real binary, started as a newcomer would, played over HTTP.
@Suite(.serialized) struct ServeCommandTests {
    @Test func aNewcomerCanRegisterPlayAQuizAndSeeTheirPoints() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try RunningServer(arguments: [], environment: ["QUIZBOX_BCRYPT_COST": "4"], in: directory)

        let (healthStatus, health) = try await server.request("GET", "/health")
        #expect(healthStatus == 200)
        #expect(health["status"] as? String == "ok")

        let (created, _) = try await server.request("POST", "/api/v1/users", json: [
            "username": "newcomer", "firstName": "New", "lastName": "Comer", "password": "first day here",
        ])
        #expect(created == 201)
        let (_, session) = try await server.request("POST", "/api/v1/sessions", json: ["username": "newcomer", "password": "first day here"])
        let token = try #require(session["token"] as? String)

        // The starter bank is there, ready to play.
        let (_, subjects) = try await server.request("GET", "/api/v1/subjects")
        let subjectList = try #require(subjects["subjects"] as? [[String: Any]])
        #expect(subjectList.count >= 3)
        let (_, topics) = try await server.request("GET", "/api/v1/subjects/\(subjectList[0]["id"] as? Int ?? 0)/topics")
        let topicId = try #require((topics["topics"] as? [[String: Any]])?.first?["id"] as? Int)
        let (_, quizzes) = try await server.request("GET", "/api/v1/topics/\(topicId)/quizzes")
        let quizId = try #require((quizzes["quizzes"] as? [[String: Any]])?.first?["id"] as? Int)
        let (_, questionList) = try await server.request("GET", "/api/v1/quizzes/\(quizId)/questions")
        let questions = try #require(questionList["questions"] as? [[String: Any]])
        #expect(questions.count >= 10)

        let (_, attempt) = try await server.request("POST", "/api/v1/quizzes/\(quizId)/attempts", token: token)
        let attemptId = try #require(attempt["id"] as? Int)
        // Find a right answer the way a player would: answer, read the revealed answer, and
        // use it on the same question in a second attempt.
        var earned = 0
        for question in questions where question["kind"] as? String == "trueFalse" {
            let (_, result) = try await server.request("POST", "/api/v1/attempts/\(attemptId)/answers", token: token,
                                                        json: ["questionId": question["id"] as? Int ?? 0, "answer": ["value": true]])
            #expect(["correct", "wrong"].contains(result["verdict"] as? String))
            earned += result["pointsAwarded"] as? Int ?? 0
        }
        let (_, finish) = try await server.request("POST", "/api/v1/attempts/\(attemptId)/finish", token: token)
        #expect(finish["points"] as? Int == earned)
        #expect(finish["userPoints"] as? Int == earned)

        let (_, board) = try await server.request("GET", "/api/v1/leaderboard", token: token)
        #expect((board["me"] as? [String: Any])?["points"] as? Int == earned)
        #expect((board["me"] as? [String: Any])?["rank"] as? Int == 1)

        let stopped = server.stop()
        #expect(stopped.status == 0, "\(stopped.log)")
        #expect(stopped.log.contains("database closed"))

        // Restarting on the same file keeps everything and does not load the starter bank twice.
        let again = try RunningServer(arguments: [], environment: ["QUIZBOX_BCRYPT_COST": "4"], in: directory)
        let (_, me) = try await again.request("GET", "/api/v1/me", token: token)
        #expect(me["points"] as? Int == earned)
        let (_, subjectsAgain) = try await again.request("GET", "/api/v1/subjects")
        #expect((subjectsAgain["subjects"] as? [Any])?.count == subjectList.count)
        #expect(again.stop().status == 0)
    }

    @Test func anUnopenableDatabaseIsAClearErrorAndANonZeroExit() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try QuizboxProcess.run(["serve", "--port", "0", "--database", "/no/such/folder/q.sqlite"], in: directory)
        #expect(result.status != 0)
        #expect(result.output.contains("/no/such/folder"))
    }

    /// A port another program holds: one start in four used to crash (a SQLite connection closed
    /// twice while the failed start shut down) instead of saying so.
    @Test func aPortAlreadyInUseIsOneClearLineAndANonZeroExitEveryTime() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let taken = try TakenPort()
        defer { taken.release() }
        for _ in 1...20 {
            let result = try QuizboxProcess.run(["serve", "--port", "\(taken.port)"], in: directory)
            #expect(result.status == 1, "\(result.output)")
            #expect(result.output.contains(
                "Port \(taken.port) is already in use. Stop the other server or choose another port with --port or QUIZBOX_PORT."),
                "\(result.output)")
            for noise in ["crashed", "CancellationError", "housekeeping failed", "bind(descriptor", "errno"] {
                #expect(!result.output.contains(noise), "\(result.output)")
            }
        }
    }
}

/// A listening socket on 127.0.0.1, as another server would hold it.
struct TakenPort {
    let descriptor: Int32
    let port: Int

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 1) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        let failure = errno
        try #require(descriptor >= 0 && bound, "cannot hold a port: errno \(failure)")
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func release() { close(descriptor) }
}
