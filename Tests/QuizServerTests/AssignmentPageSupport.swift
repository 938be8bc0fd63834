import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import Testing

/// What the assignment page tests share: a teacher who assigns the sample quiz, players who join
/// with a nickname, and reading answers out of a question page as a browser's form would send them.
enum AssignmentPageSupport {
    /// A signed-in teacher (any account may assign a published quiz) and the sample quiz's id.
    static func teacher(_ client: any TestClientProtocol, _ env: TestEnvironment, username: String = "teacher") async throws -> (TestBrowser, Int) {
        let (quizId, _) = try await client.firstQuiz()
        let browser = TestBrowser(client)
        try await browser.register(username)
        return (browser, quizId)
    }

    /// `date` as a datetime-local field holds it, in UTC.
    static func local(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: date)
    }

    /// Posts the form as the page sends it; `changes` replace or add fields.
    static func post(_ teacher: TestBrowser, quizId: Int, env: TestEnvironment, _ changes: [String: String] = [:]) async throws -> TestBrowser.Page {
        _ = try await teacher.get("/assignments/new?quiz=\(quizId)")
        var fields: [String: String] = [
            "quiz": String(quizId), "title": "Planets homework", "opensAt": "", "opensAtOffset": "",
            "closesAt": local(env.time.now().addingTimeInterval(86_400)), "closesAtOffset": "0", "attemptsAllowed": "1",
            "grading": "highest", "timing": "none", "answersShown": "afterFinishing",
        ]
        for (name, value) in changes { fields[name] = value }
        return try await teacher.post("/assignments", fields.filter { $0.value != "-" }.map { ($0.key, $0.value) })
    }

    /// Creates one; its id and code.
    static func assign(_ teacher: TestBrowser, quizId: Int, env: TestEnvironment, _ changes: [String: String] = [:]) async throws -> (id: Int, code: String) {
        let created = try await post(teacher, quizId: quizId, env: env, changes)
        #expect(created.status == .seeOther, "\(created.html)")
        let location = try #require(created.location)
        let id = try #require(Int(location.replacingOccurrences(of: "/assignments/", with: "")))
        let page = try await teacher.get(location)
        return (id, try #require(first(#"id="assignment-code">(\d{6})<"#, in: page.html)))
    }

    /// A player without an account, joined under `nickname`.
    static func join(_ client: any TestClientProtocol, code: String, nickname: String) async throws -> TestBrowser {
        let player = TestBrowser(client)
        let page = try await player.get("/a/\(code)")
        #expect(page.contains(#"action="/a/\#(code)/join""#))
        let joined = try await player.post("/a/\(code)/join", [("nickname", nickname)])
        #expect(joined.status == .seeOther, "\(joined.html)")
        #expect(player.cookies["quizbox_a\(code)"] != nil)
        return player
    }

    static func first(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              match.numberOfRanges > 1, let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }

    static func all(_ pattern: String, in text: String) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
        }
    }

    /// The public id of the choice tile whose words are `text`.
    static func choice(_ text: String, in html: String) -> String? {
        let tile = html.components(separatedBy: "<label class=\"answer-tile").first { $0.contains("<span class=\"answer-text\">\(text)</span>") }
        return tile.flatMap { first(#"value="(\d+)""#, in: $0) }
    }

    /// Some answer each kind's fields take, as a browser sends it: the first choice, a word, a
    /// number in range, each item at its place, each prompt its first option, each gap filled.
    static func anyAnswer(_ html: String) -> [(String, String)] {
        let form = html.components(separatedBy: #"id="answer-form""#).last ?? html
        var fields: [(String, String)] = [("position", first(#"name="position" value="(\d+)""#, in: form) ?? "0")]
        if let id = first(#"name="choice" value="(\d+)""#, in: form) { fields.append(("choice", id)) }
        if let id = first(#"name="choices" value="(\d+)""#, in: form) { fields.append(("choices", id)) }
        if form.contains(#"name="value" value="true""#) { fields.append(("value", "true")) }
        if form.contains(#"name="text""#) { fields.append(("text", "anything")) }
        if form.contains(#"name="read" value="1""#) { fields.append(("read", "1")) }
        if form.contains(#"name="number""#) { fields.append(("number", first(#"name="number" type="number" min="([0-9.]+)""#, in: form) ?? "1")) }
        for (index, match) in all(#"name="place-(\d+)""#, in: form).enumerated() { fields.append(("place-\(match[0])", String(index + 1))) }
        for match in all(#"name="match-(\d+)"[^>]*><option value="">[^<]*</option><option value="(\d+)""#, in: form) {
            fields.append(("match-\(match[0])", match[1]))
        }
        for match in all(#"name="gapchoice-(\d+)"[^>]*>(?:<option value="">[^<]*</option>)?<option value="(\d+)""#, in: form) {
            fields.append(("gapchoice-\(match[0])", match[1]))
        }
        for match in all(#"name="gaptext-(\d+)""#, in: form) { fields.append(("gaptext-\(match[0])", "3")) }
        return fields
    }
}
