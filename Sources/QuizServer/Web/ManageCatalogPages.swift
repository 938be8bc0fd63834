import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizStore
import QuizText
import QuizUseCases

/// Where authors and admins arrange subjects, topics and quizzes and pick a quiz's questions
/// (`CatalogAuthoring`). Every change is a POST that redirects back with a short notice; a form
/// with a mistake is shown again, as typed.
struct ManageCatalogPages: Sendable {
    let pages: Pages
    let catalog: CatalogAuthoring

    func register(authors: some RouterMethods<AuthorContext>) {
        authors.get("/manage/catalog") { request, context in
            try await catalogPage(context, done: request.uri.queryParameters["done"].map(String.init))
        }
        authors.post("/manage/subjects") { _, context in try await createEntry(context, .subject, in: nil) }
        for level in [CatalogLevel.subject, .topic, .quiz] {
            let path = "/manage/\(Self.plural(level))/:id"
            if level != .quiz {
                authors.get(RouterPath(path)) { request, context in
                    try await entryPage(context, level, id: context.pathID("id"),
                                        done: request.uri.queryParameters["done"].map(String.init))
                }
            }
            authors.post(RouterPath(path)) { _, context in try await saveEntry(context, level, id: context.pathID("id")) }
            authors.post(RouterPath(path + "/move")) { _, context in
                try await moveEntry(context, level, id: context.pathID("id"))
            }
            authors.post(RouterPath(path + "/delete")) { _, context in
                try await deleteEntry(context, level, id: context.pathID("id"))
            }
        }
        authors.post("/manage/subjects/:id/topics") { _, context in
            try await createEntry(context, .topic, in: context.pathID("id"))
        }
        authors.post("/manage/topics/:id/quizzes") { _, context in
            try await createEntry(context, .quiz, in: context.pathID("id"))
        }
        authors.get("/manage/quizzes/:id") { request, context in
            try await quizPage(context, id: context.pathID("id"), done: request.uri.queryParameters["done"].map(String.init))
        }
        for level in [CatalogLevel.subject, .quiz] {
            authors.post(RouterPath("/manage/\(Self.plural(level))/:id/cover"), policy: .body(.picturePage), in: pages.routes) { _, context in
                try await saveCover(context, level, id: context.pathID("id"))
            }
        }
        authors.post("/manage/quizzes/:id/publish") { _, context in
            try await publishQuiz(context, id: context.pathID("id"))
        }
        authors.post("/manage/quizzes/:id/questions") { _, context in
            try await changeQuizQuestions(context, id: context.pathID("id"))
        }
    }

    // MARK: Models

    struct QuizRow: Encodable {
        var id: Int64
        var title: String
        var draft: Bool
        var questionCount: String
        var canUp: Bool
        var canDown: Bool
    }

    struct TopicRow: Encodable {
        var id: Int64
        var name: String
        var questionCount: String
        var canUp: Bool
        var canDown: Bool
        var quizzes: [QuizRow]
    }

    struct SubjectRow: Encodable {
        var id: Int64
        var name: String
        var description: String
        var canUp: Bool
        var canDown: Bool
        var topics: [TopicRow]
    }

    /// A subject, topic or quiz as its form was sent, and what is wrong with it.
    struct EntryForm {
        var name: String
        var description: String
        var errors: [String: String] = [:]
    }

    struct CatalogPage: Encodable {
        var subjects: [SubjectRow]
        var hasSubjects: Bool
        var name: String
        var description: String
        var nameError: String?
        var descriptionError: String?
    }

    struct ChildRow: Encodable {
        var id: Int64
        var name: String
        var href: String
        var draft: Bool?
    }

    struct BankRow: Encodable {
        var id: Int64
        var text: String
        var kind: String
    }

    struct EntryPage: Encodable {
        var id: Int64
        var kind: String
        var isSubject: Bool
        var action: String
        var name: String
        var description: String
        var nameError: String?
        var descriptionError: String?
        var children: [ChildRow]
        var childLabel: String
        var childName: String
        var childDescription: String
        var childNameError: String?
        var childDescriptionError: String?
        var createAction: String
        var hasBank: Bool
        var bank: [BankRow]
        var coverForm: CoverForm?
    }

    /// The cover section of a subject's or quiz's page: what its tile shows, and the form.
    struct CoverForm: Encodable {
        var cover: CoverView
        var coverAction: String
        var coverError: String?

        init(name: String, picture: CoverPicture?, action: String, error: String?) {
            cover = CoverView(name: name, picture: picture)
            coverAction = action
            coverError = error
        }
    }

    struct ChoiceRow: Encodable {
        var text: String
        var correct: Bool
    }

    struct QuestionRow: Encodable {
        var id: Int64
        var position: Int
        var text: String
        var kind: String
        var canUp: Bool
        var canDown: Bool
        var hasChoices: Bool
        var choices: [ChoiceRow]
        var correctAnswer: String
        var points: String
        var picture: ManageQuestionPages.PictureModel?
        var sound: ManageQuestionPages.SoundModel?
    }

    struct QuizPage: Encodable {
        var id: Int64
        var quizId: Int64
        var topicId: Int64
        var topicName: String
        var title: String
        var description: String
        var titleError: String?
        var descriptionError: String?
        var failure: String?
        var draft: Bool
        var questions: [QuestionRow]
        var hasQuestions: Bool
        var hasAvailable: Bool
        var available: [BankRow]
        /// "The topic's 2 name-them-all questions are played from Games, not in quizzes."
        var gamesNote: String?
        var coverForm: CoverForm
    }

    // MARK: Pages

    /// A player gets the /manage explanation, a missing entry a 404; other failures are the
    /// caller's to show next to the form.
    private func refusing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch CatalogAuthoring.Failure.notAuthor {
            throw PageRefusal.needsAuthor
        } catch CatalogAuthoring.Failure.notFound {
            throw HTTPError(.notFound)
        }
    }

    func catalogPage(_ context: AuthorContext, done: String?, form: EntryForm? = nil) async throws -> Response {
        let t = context.visit.t
        let subjects = try await refusing { try await catalog.outline(by: context.user) }
        let model = CatalogPage(
            subjects: subjects.enumerated().map { index, subject in
                SubjectRow(id: subject.id, name: subject.name, description: subject.description,
                           canUp: index > 0, canDown: index < subjects.count - 1,
                           topics: subject.topics.enumerated().map { index, topic in
                               TopicRow(id: topic.id, name: topic.name, questionCount: t.count(topic.questionCount, "{count} question", "{count} questions"),
                                        canUp: index > 0, canDown: index < subject.topics.count - 1,
                                        quizzes: topic.quizzes.enumerated().map { index, quiz in
                                            QuizRow(id: quiz.id, title: quiz.title, draft: !quiz.isPublished,
                                                    questionCount: t.count(quiz.questionCount, "{count} question", "{count} questions"),
                                                    canUp: index > 0, canDown: index < topic.quizzes.count - 1)
                                        })
                           })
            },
            hasSubjects: !subjects.isEmpty, name: form?.name ?? "", description: form?.description ?? "",
            nameError: form?.errors["name"], descriptionError: form?.errors["description"])
        return pages.render("manage-catalog", model, visit: context.visit, title: t("Subjects, topics and quizzes"), tab: "Manage",
                            notice: ManageText.notice(done, t), status: form == nil ? .ok : .unprocessableContent)
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

    /// The name field's message under "name", whatever the level calls it.
    static func entryErrors(_ errors: [Question.ValidationError], _ t: Texts) -> [String: String] {
        var keyed = ManageText.fieldErrors(errors, t)
        if let title = keyed.removeValue(forKey: "title") { keyed["name"] = title }
        return keyed
    }

    func createEntry(_ context: AuthorContext, _ level: CatalogLevel, in parent: Int64?) async throws -> Response {
        let form = EntryForm(name: context.form.text("name"), description: context.form.text("description"))
        do {
            let id = try await refusing {
                try await catalog.create(level, in: parent, name: form.name, description: form.description, by: context.user)
            }
            let back = parent.map { Self.managePath(of: level == .topic ? .subject : .topic, id: $0) } ?? "/manage/catalog"
            return PageRenderer.redirect(to: level == .quiz ? "/manage/quizzes/\(id)?done=created" : back + "?done=created")
        } catch CatalogAuthoring.Failure.invalid(let errors) {
            var form = form
            form.errors = Self.entryErrors(errors, context.visit.t)
            guard let parent else { return try await catalogPage(context, done: nil, form: form) }
            return try await entryPage(context, level == .topic ? .subject : .topic, id: parent, done: nil, child: form)
        }
    }

    func entryPage(_ context: AuthorContext, _ level: CatalogLevel, id: Int64, done: String?,
                   form: EntryForm? = nil, child: EntryForm? = nil, coverError: String? = nil,
                   status: HTTPResponse.Status? = nil) async throws -> Response {
        let t = context.visit.t
        let entry: (name: String, description: String, children: [ChildRow], bank: [Question]?)
        switch level {
        case .subject:
            let subject = try await refusing { try await catalog.subject(id, by: context.user) }
            entry = (subject.name, subject.description,
                     subject.topics.map { ChildRow(id: $0.id, name: $0.name, href: "/manage/topics/\($0.id)") }, nil)
        case .topic:
            let topic = try await refusing { try await catalog.topic(id, by: context.user) }
            entry = (topic.topic.name, topic.topic.description,
                     topic.topic.quizzes.map { ChildRow(id: $0.id, name: $0.title, href: "/manage/quizzes/\($0.id)", draft: !$0.isPublished) },
                     topic.questions)
        case .quiz:
            throw Redirect(location: "/manage/quizzes/\(id)")
        }
        let model = EntryPage(
            id: id, kind: level.rawValue, isSubject: level == .subject, action: Self.managePath(of: level, id: id),
            name: form?.name ?? entry.name, description: form?.description ?? entry.description,
            nameError: form?.errors["name"], descriptionError: form?.errors["description"],
            children: entry.children, childLabel: level == .subject ? "topic" : "quiz",
            childName: child?.name ?? "", childDescription: child?.description ?? "",
            childNameError: child?.errors["name"], childDescriptionError: child?.errors["description"],
            createAction: level == .subject ? "/manage/subjects/\(id)/topics" : "/manage/topics/\(id)/quizzes",
            hasBank: entry.bank != nil, bank: (entry.bank ?? []).map { BankRow($0, t: t) },
            coverForm: level == .subject
                ? CoverForm(name: entry.name, picture: try await refusing { try await catalog.cover(level, id, by: context.user) },
                            action: Self.managePath(of: level, id: id) + "/cover", error: coverError)
                : nil)
        let failed = form != nil || child != nil || coverError != nil
        return pages.render("manage-entry", model, visit: context.visit, title: entry.name, tab: "Manage",
                            notice: ManageText.notice(done, t), status: status ?? (failed ? .unprocessableContent : .ok))
    }

    func saveEntry(_ context: AuthorContext, _ level: CatalogLevel, id: Int64) async throws -> Response {
        let form = EntryForm(name: context.form.text(level == .quiz ? "title" : "name"), description: context.form.text("description"))
        do {
            try await refusing {
                try await catalog.update(level, id, CatalogChange(name: form.name, description: form.description), by: context.user)
            }
        } catch CatalogAuthoring.Failure.invalid(let errors) {
            var form = form
            form.errors = Self.entryErrors(errors, context.visit.t)
            if level == .quiz { return try await quizPage(context, id: id, done: nil, form: form) }
            return try await entryPage(context, level, id: id, done: nil, form: form)
        }
        return PageRenderer.redirect(to: Self.managePath(of: level, id: id) + "?done=saved")
    }

    /// Up or down one place among its siblings; back to the catalog.
    func moveEntry(_ context: AuthorContext, _ level: CatalogLevel, id: Int64) async throws -> Response {
        try await refusing { try await catalog.move(level, id, context.form["direction"] == "up" ? .up : .down, by: context.user) }
        return PageRenderer.redirect(to: "/manage/catalog?done=moved")
    }

    func deleteEntry(_ context: AuthorContext, _ level: CatalogLevel, id: Int64) async throws -> Response {
        do {
            try await refusing { try await catalog.delete(level, id, by: context.user) }
        } catch let failure as CatalogAuthoring.Failure {
            let t = context.visit.t
            if level == .quiz { return try await quizPage(context, id: id, done: nil, failure: t(failure.message)) }
            return pages.error(context.visit, heading: t("It was not deleted"), message: t(failure.message), status: .conflict)
        }
        return PageRenderer.redirect(to: "/manage/catalog?done=deleted")
    }

    /// A quiz's editor: its title, draft or published, and which of its topic's questions it holds.
    func quizPage(_ context: AuthorContext, id: Int64, done: String?, form: EntryForm? = nil, failure: String? = nil,
                  coverError: String? = nil, coverStatus: HTTPResponse.Status = .unprocessableContent) async throws -> Response {
        let t = context.visit.t
        let editor = try await refusing { try await catalog.quizEditor(id, by: context.user) }
        let cover = try await refusing { try await catalog.cover(.quiz, id, by: context.user) }
        let quiz = editor.quiz.quiz
        let questions = editor.quiz.questions
        let model = QuizPage(
            id: quiz.id, quizId: quiz.id, topicId: quiz.topicId, topicName: editor.topicName,
            title: form?.name ?? quiz.title, description: form?.description ?? quiz.description,
            titleError: form?.errors["name"], descriptionError: form?.errors["description"], failure: failure,
            draft: !quiz.isPublished,
            questions: questions.enumerated().map { index, question in
                QuestionRow(id: question.id ?? 0, position: index + 1, text: question.text, kind: ManageText.kindLabel(question.kind, t),
                            canUp: index > 0, canDown: index < questions.count - 1, hasChoices: !question.body.choices.isEmpty,
                            choices: question.body.choices.map { ChoiceRow(text: $0.text, correct: $0.isCorrect) },
                            correctAnswer: QuestionFragments.correct(question, t: t),
                            points: t.count(question.points, "{count} point", "{count} points"), picture: question.picture.map(ManageQuestionPages.PictureModel.init),
                            sound: question.audio.map(ManageQuestionPages.SoundModel.init))
            },
            hasQuestions: !questions.isEmpty, hasAvailable: !editor.available.isEmpty, available: editor.available.map { BankRow($0, t: t) },
            gamesNote: editor.games == 0 ? nil : editor.games == 1
                ? t("This topic's name-them-all question is played on its own from Games, so it is not offered here.")
                : t("This topic's {count} name-them-all questions are played on their own from Games, so they are not offered here.", ["count": t.number(editor.games)]),
            coverForm: CoverForm(name: quiz.title, picture: cover, action: "/manage/quizzes/\(id)/cover", error: coverError))
        let status: HTTPResponse.Status = failure != nil ? .conflict : form != nil ? .unprocessableContent : coverError != nil ? coverStatus : .ok
        return pages.render("manage-quiz", model, visit: context.visit, title: quiz.title, tab: "Manage",
                            notice: ManageText.notice(done, t), status: status)
    }

    /// A new cover from the form's file, or none with "remove"; back to the page, or the page with
    /// the reason next to the field.
    func saveCover(_ context: AuthorContext, _ level: CatalogLevel, id: Int64) async throws -> Response {
        let remove = context.form["remove"] != nil
        let upload = context.form.files["cover"]?.data ?? Data()
        func again(_ message: String, _ status: HTTPResponse.Status = .unprocessableContent) async throws -> Response {
            level == .quiz ? try await quizPage(context, id: id, done: nil, coverError: message, coverStatus: status)
                : try await entryPage(context, level, id: id, done: nil, coverError: message, status: status)
        }
        let t = context.visit.t
        if !remove && upload.isEmpty { return try await again(t("Choose a picture first.")) }
        do {
            try await refusing { try await catalog.setCover(level, id, remove ? nil : upload, by: context.user) }
        } catch let failure as CatalogAuthoring.Failure {
            return try await again(t(failure.message), failure == .tooManyPictures ? .tooManyRequests : .unprocessableContent)
        }
        return PageRenderer.redirect(to: Self.managePath(of: level, id: id) + (remove ? "?done=cover-removed" : "?done=cover"))
    }

    func publishQuiz(_ context: AuthorContext, id: Int64) async throws -> Response {
        let publish = context.form["published"] == "true"
        try await refusing { try await catalog.update(.quiz, id, CatalogChange(published: publish), by: context.user) }
        return PageRenderer.redirect(to: "/manage/quizzes/\(id)?done=\(publish ? "published" : "unpublished")")
    }

    /// One change to the quiz's list: add a question of its topic, remove one, or move one up or down.
    func changeQuizQuestions(_ context: AuthorContext, id: Int64) async throws -> Response {
        guard let questionId = context.form["question"].flatMap(Int64.init) else { throw HTTPError(.badRequest, message: "Which question?") }
        let change: CatalogAuthoring.QuestionListChange? = switch context.form["op"] {
        case "add": .add(questionId)
        case "remove": .remove(questionId)
        case "up": .moveUp(questionId)
        case "down": .moveDown(questionId)
        default: nil
        }
        do {
            guard let change, try await refusing({ try await catalog.changeQuestions(ofQuiz: id, change, by: context.user) }) else {
                return PageRenderer.redirect(to: "/manage/quizzes/\(id)")
            }
        } catch let failure as CatalogAuthoring.Failure {
            return try await quizPage(context, id: id, done: nil, failure: context.visit.t(failure.message))
        }
        return PageRenderer.redirect(to: "/manage/quizzes/\(id)?done=saved")
    }
}

extension ManageCatalogPages.BankRow {
    init(_ question: Question, t: Texts) {
        self.init(id: question.id ?? 0, text: question.text, kind: ManageText.kindLabel(question.kind, t))
    }
}

/// What the authoring pages say alike: the notice after a change, the messages next to fields,
/// the names of question kinds.
enum ManageText {
    static func notice(_ done: String?, _ t: Texts) -> String? {
        switch done {
        case "created": t("Created.")
        case "saved": t("Saved.")
        case "deleted": t("Deleted.")
        case "moved": t("Moved.")
        case "published": t("Published: players can find it now.")
        case "unpublished": t("Unpublished: it is a draft again, hidden from players.")
        case "role": t("Role changed.")
        case "cover": t("The cover is set: players see it on the tile.")
        case "cover-removed": t("The cover is removed: the tile shows one drawn from the name.")
        default: nil
        }
    }

    /// Validation messages keyed by form field: "choices[2].text" → "choices".
    static func fieldErrors(_ errors: [Question.ValidationError], _ t: Texts) -> [String: String] {
        var keyed: [String: String] = [:]
        for var error in errors {
            // The alt text has a field of its own on the form.
            if error.field == "picture.alt" { error.field = "pictureAlt" }
            if error.field == "audio.description" { error.field = "soundDescription" }
            if error.field == "audio" { error.field = "sound" }
            let key = String(error.field.prefix { $0 != "[" && $0 != "." })
            let said = t(error.message)
            let message = error.field == key ? said.capitalizedFirst : "\(error.field): \(said)"
            keyed[key] = keyed[key].map { "\($0) \(message)." } ?? "\(message)."
        }
        return keyed
    }

    static func kindLabel(_ kind: QuestionKind, _ t: Texts) -> String {
        switch kind {
        case .singleChoice: t("Single choice")
        case .multipleChoice: t("Multiple choice")
        case .trueFalse: t("True or false")
        case .typedAnswer: t("Typed answer")
        case .numeric: t("Number")
        case .nameAll: t("Name them all")
        case .ordering: t("Ordering")
        case .matching: t("Matching")
        case .gapFill: t("Gap fill")
        case .poll: t("Poll")
        case .wordCloud: t("Word cloud")
        case .estimate: t("Estimate")
        case .slide: t("Slide")
        }
    }
}

extension String {
    /// "is empty" → "Is empty", for messages shown on their own next to a field.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
