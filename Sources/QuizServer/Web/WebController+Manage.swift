import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizStore
import QuizUseCases

// Pages where authors and admins arrange subjects, topics and quizzes. Every change is a POST
// that redirects back with a short notice; a form with a mistake is shown again, as typed.
extension WebController {
    func registerManage(on router: Router<AppRequestContext>) {
        router.get("/manage/catalog") { request, _ in try await page(request) { try await catalogPage($0, done: request.uri.queryParameters["done"].map(String.init)) } }
        router.post("/manage/subjects") { request, context in try await post(request, context) { try await createEntry($0, $1, .subject, parent: nil) } }
        for level in [CatalogLevel.subject, .topic, .quiz] {
            let path = "/manage/\(Self.plural(level))/:id"
            if level != .quiz {
                router.get(RouterPath(path)) { request, context in
                    try await page(request) {
                        try await entryPage($0, level, id: context.parameters.require("id", as: Int64.self),
                                            done: request.uri.queryParameters["done"].map(String.init))
                    }
                }
            }
            router.post(RouterPath(path)) { request, context in
                try await post(request, context) { try await saveEntry($0, $1, level, id: context.parameters.require("id", as: Int64.self)) }
            }
            router.post(RouterPath(path + "/move")) { request, context in
                try await post(request, context) { try await moveEntry($0, $1, level, id: context.parameters.require("id", as: Int64.self)) }
            }
            router.post(RouterPath(path + "/delete")) { request, context in
                try await post(request, context) { visit, _ in try await deleteEntry(visit, level, id: context.parameters.require("id", as: Int64.self)) }
            }
        }
        router.post("/manage/subjects/:id/topics") { request, context in
            try await post(request, context) { try await createEntry($0, $1, .topic, parent: context.parameters.require("id", as: Int64.self)) }
        }
        router.post("/manage/topics/:id/quizzes") { request, context in
            try await post(request, context) { try await createEntry($0, $1, .quiz, parent: context.parameters.require("id", as: Int64.self)) }
        }
        registerQuizManagement(on: router)
        registerQuestionManagement(on: router)
        registerUserManagement(on: router)
    }

    /// The author or admin behind this visit; nil for a player, who is shown `needsAuthor`.
    /// Someone signed out is sent to log in and back.
    func requireAuthor(_ visit: Visit, returnTo path: String) async throws -> User? {
        let user = try requireUser(visit, returnTo: path)
        return user.role == .author || user.role == .admin ? user : nil
    }

    /// The /manage page, which explains what role is needed (403 for a signed-in player).
    func needsAuthor(_ visit: Visit) async throws -> Response {
        try await manage(visit, feedback: nil)
    }

    static func notice(_ done: String?) -> String? {
        switch done {
        case "created": "Created."
        case "saved": "Saved."
        case "deleted": "Deleted."
        case "moved": "Moved."
        case "published": "Published: players can find it now."
        case "unpublished": "Unpublished: it is a draft again, hidden from players."
        case "role": "Role changed."
        default: nil
        }
    }

    func catalogPage(_ visit: Visit, done: String?, values: [String: String] = [:], errors: [String: String] = [:]) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/catalog") != nil else { return try await needsAuthor(visit) }
        var context = base(visit, title: "Subjects, topics and quizzes", tab: "Manage", notice: Self.notice(done))
        let subjects = try await store.outline()
        context["subjects"] = subjects.enumerated().map { index, subject -> [String: Any] in
            ["id": subject.id, "name": subject.name, "description": subject.description,
             "canUp": index > 0, "canDown": index < subjects.count - 1,
             "topics": subject.topics.enumerated().map { index, topic -> [String: Any] in
                 ["id": topic.id, "name": topic.name, "questionCount": Self.count(topic.questionCount, "question"),
                  "canUp": index > 0, "canDown": index < subject.topics.count - 1,
                  "quizzes": topic.quizzes.enumerated().map { index, quiz -> [String: Any] in
                      ["id": quiz.id, "title": quiz.title, "draft": !quiz.isPublished, "questionCount": Self.count(quiz.questionCount, "question"),
                       "canUp": index > 0, "canDown": index < topic.quizzes.count - 1]
                  }]
             }]
        }
        context["hasSubjects"] = !subjects.isEmpty
        context["name"] = values["name"] ?? ""
        context["description"] = values["description"] ?? ""
        if let error = errors["name"] { context["nameError"] = error }
        if let error = errors["description"] { context["descriptionError"] = error }
        return renderer.render("manage-catalog", context, status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    /// Where a level's own page is; subjects and topics have one, quizzes their editor.
    static func managePath(of level: CatalogLevel, id: Int64) -> String { "/manage/\(plural(level))/\(id)" }

    static func plural(_ level: CatalogLevel) -> String {
        switch level {
        case .subject: "subjects"
        case .topic: "topics"
        case .quiz: "quizzes"
        }
    }

    func createEntry(_ visit: Visit, _ form: WebForm, _ level: CatalogLevel, parent: Int64?) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/catalog") != nil else { return try await needsAuthor(visit) }
        let name = form.text("name"), description = form.text("description")
        let errors = Self.fieldErrors(CatalogText.validationErrors(name: name, description: description))
        let back = parent.map { Self.managePath(of: level == .topic ? .subject : .topic, id: $0) } ?? "/manage/catalog"
        if !errors.isEmpty {
            let values = ["name": name, "description": description]
            guard let parent else { return try await catalogPage(visit, done: nil, values: values, errors: errors) }
            return try await entryPage(visit, level == .topic ? .subject : .topic, id: parent, done: nil, childValues: values, childErrors: errors)
        }
        do {
            let id = try await store.create(level, parent: parent, name: name, description: description)
            return PageRenderer.redirect(to: level == .quiz ? "/manage/quizzes/\(id)?done=created" : back + "?done=created")
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        }
    }

    /// Validation messages keyed by form field: "choices[2].text" → "choices".
    static func fieldErrors(_ errors: [Question.ValidationError]) -> [String: String] {
        var keyed: [String: String] = [:]
        for error in errors {
            let key = String(error.field.prefix { $0 != "[" && $0 != "." })
            let message = error.field == key ? error.message.capitalizedFirst : "\(error.field): \(error.message)"
            keyed[key] = keyed[key].map { "\($0) \(message)." } ?? "\(message)."
        }
        return keyed
    }

    func entryPage(
        _ visit: Visit, _ level: CatalogLevel, id: Int64, done: String?, values: [String: String]? = nil, errors: [String: String] = [:],
        childValues: [String: String] = [:], childErrors: [String: String] = [:]
    ) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: Self.managePath(of: level, id: id)) != nil else { return try await needsAuthor(visit) }
        let subjects = try await store.outline()
        let entry: (name: String, description: String, children: [[String: Any]], bank: [Question]?)
        switch level {
        case .subject:
            guard let subject = subjects.first(where: { $0.id == id }) else { throw HTTPError(.notFound) }
            entry = (subject.name, subject.description, subject.topics.map { ["id": $0.id, "name": $0.name, "href": "/manage/topics/\($0.id)"] }, nil)
        case .topic:
            guard let topic = subjects.flatMap(\.topics).first(where: { $0.id == id }) else { throw HTTPError(.notFound) }
            entry = (topic.name, topic.description,
                     topic.quizzes.map { ["id": $0.id, "name": $0.title, "href": "/manage/quizzes/\($0.id)", "draft": !$0.isPublished] },
                     try await store.topicQuestions(topicId: id))
        case .quiz:
            throw Redirect(location: "/manage/quizzes/\(id)")
        }
        var context = base(visit, title: entry.name, tab: "Manage", notice: Self.notice(done))
        context["id"] = id
        context["kind"] = level.rawValue
        context["isSubject"] = level == .subject
        context["action"] = Self.managePath(of: level, id: id)
        context["name"] = values?["name"] ?? entry.name
        context["description"] = values?["description"] ?? entry.description
        if let error = errors["name"] { context["nameError"] = error }
        if let error = errors["description"] { context["descriptionError"] = error }
        context["children"] = entry.children
        context["childLabel"] = level == .subject ? "topic" : "quiz"
        context["childName"] = childValues["name"] ?? ""
        context["childDescription"] = childValues["description"] ?? ""
        if let error = childErrors["name"] { context["childNameError"] = error }
        if let error = childErrors["description"] { context["childDescriptionError"] = error }
        context["createAction"] = level == .subject ? "/manage/subjects/\(id)/topics" : "/manage/topics/\(id)/quizzes"
        if let bank = entry.bank {
            context["hasBank"] = true
            context["bank"] = bank.map { ["id": $0.id ?? 0, "text": $0.text, "kind": Self.kindLabel($0.kind)] as [String: Any] }
        }
        let failed = !errors.isEmpty || !childErrors.isEmpty
        return renderer.render("manage-entry", context, status: failed ? .unprocessableContent : .ok)
    }

    func saveEntry(_ visit: Visit, _ form: WebForm, _ level: CatalogLevel, id: Int64) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: Self.managePath(of: level, id: id)) != nil else { return try await needsAuthor(visit) }
        let name = form.text(level == .quiz ? "title" : "name"), description = form.text("description")
        let errors = Self.fieldErrors(CatalogText.validationErrors(name: name, description: description))
        if !errors.isEmpty {
            if level == .quiz {
                return try await quizPage(visit, id: id, done: nil, values: ["title": name, "description": description],
                                          errors: ["title": errors["name"], "description": errors["description"]].compactMapValues { $0 })
            }
            return try await entryPage(visit, level, id: id, done: nil, values: ["name": name, "description": description], errors: errors)
        }
        do {
            try await store.rename(level, id: id, name: name, description: description)
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        }
        return PageRenderer.redirect(to: Self.managePath(of: level, id: id) + "?done=saved")
    }

    /// Up or down one place among its siblings; back to the page it was moved from.
    func moveEntry(_ visit: Visit, _ form: WebForm, _ level: CatalogLevel, id: Int64) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/catalog") != nil else { return try await needsAuthor(visit) }
        let subjects = try await store.outline()
        let siblings: [Int64] = switch level {
        case .subject: subjects.map(\.id)
        case .topic: subjects.first { $0.topics.contains { $0.id == id } }?.topics.map(\.id) ?? []
        case .quiz: subjects.flatMap(\.topics).first { $0.quizzes.contains { $0.id == id } }?.quizzes.map(\.id) ?? []
        }
        guard let index = siblings.firstIndex(of: id) else { throw HTTPError(.notFound) }
        try await store.move(level, id: id, to: index + 1 + (form["direction"] == "up" ? -1 : 1))
        return PageRenderer.redirect(to: "/manage/catalog?done=moved")
    }

    func deleteEntry(_ visit: Visit, _ level: CatalogLevel, id: Int64) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/catalog") != nil else { return try await needsAuthor(visit) }
        do {
            try await store.delete(level, id: id)
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        } catch let error as AuthoringError {
            let message = APIError(authoring: error).message
            if level == .quiz { return try await quizPage(visit, id: id, done: nil, failure: message) }
            let context = errorContext(visit, heading: "It was not deleted", message: message)
            return renderer.render("error", context, status: .conflict)
        }
        return PageRenderer.redirect(to: "/manage/catalog?done=deleted")
    }

    static func kindLabel(_ kind: QuestionKind) -> String {
        switch kind {
        case .singleChoice: "Single choice"
        case .multipleChoice: "Multiple choice"
        case .trueFalse: "True or false"
        case .typedAnswer: "Typed answer"
        case .numeric: "Number"
        case .nameAll: "Name them all"
        }
    }
}

extension String {
    /// "is empty" → "Is empty", for messages shown on their own next to a field.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
