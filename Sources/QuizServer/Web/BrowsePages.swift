import Foundation
import Hummingbird
import QuizCore
import QuizText
import QuizUseCases

/// The pages for finding something to play: the courses (subjects), a subject's topics with their
/// quizzes, and every quiz.
struct BrowsePages: Sendable {
    let pages: Pages
    let browse: BrowseCatalog
    /// A student's due class assignments, on the home page.
    let classes: Classes

    func register(signedIn: some RouterMethods<SignedInContext>) {
        signedIn.get("/home") { _, context in try await home(context) }
        signedIn.get("/subjects/:id") { _, context in try await subject(context, id: context.pathID("id")) }
        signedIn.get("/quizzes") { _, context in try await quizzes(context) }
    }

    struct SubjectTile: Encodable {
        var id: Int64
        var name: String
        var description: String
        var topicCount: String
        var cover: CoverView
    }

    struct HomePage: Encodable {
        var subjects: [SubjectTile]
        var due: [DueLine]
        var hasDue: Bool
    }

    /// A class assignment on the home page: "due tomorrow at 14:00 UTC", done or not.
    struct DueLine: Encodable {
        var title: String
        var code: String
        var className: String
        var when: String
        var done: Bool
        var open: Bool
    }

    struct QuizLink: Encodable {
        var id: Int64
        var title: String
        var questionCount: String
        var cover: CoverView
    }

    struct TopicSection: Encodable {
        var name: String
        var description: String
        var quizzes: [QuizLink]
    }

    struct SubjectPage: Encodable {
        var subjectName: String
        var subjectDescription: String
        var topics: [TopicSection]
    }

    struct QuizLine: Encodable {
        var id: Int64
        var title: String
        var topic: String
        var subject: String
        var questionCount: String
        /// The news articles the quiz is about.
        var about: String?
        var cover: CoverView
    }

    struct QuizzesPage: Encodable {
        var quizzes: [QuizLine]
    }

    func home(_ context: SignedInContext) async throws -> Response {
        let t = context.visit.t
        let subjects = try await browse.subjects().map {
            SubjectTile(id: $0.id, name: $0.name, description: $0.description, topicCount: t.count($0.topicCount, "{count} topic", "{count} topics"),
                        cover: CoverView(name: $0.name, picture: $0.cover))
        }
        // The list is a courtesy on the home page: a database hiccup leaves it out, not the page.
        let due = (try? await classes.due(userId: context.user.id)) ?? []
        let now = pages.time.now()
        let lines = due.map { item in
            DueLine(title: item.assignment.title, code: item.assignment.code, className: item.className,
                    when: DueText.of(item.assignment, at: now, t: t), done: item.done, open: item.window == .open)
        }
        return pages.render("home", HomePage(subjects: subjects, due: lines, hasDue: !lines.isEmpty), visit: context.visit, title: t("Home"), tab: "Home")
    }

    func subject(_ context: SignedInContext, id: Int64) async throws -> Response {
        let subject: (subject: SubjectSummary, topics: [BrowseCatalog.Topic])
        do {
            subject = try await browse.subject(id: id)
        } catch is BrowseCatalog.Failure {
            throw HTTPError(.notFound)
        }
        let t = context.visit.t
        let topics = subject.topics.map { entry in
            TopicSection(name: entry.topic.name, description: entry.topic.description, quizzes: entry.quizzes.map {
                QuizLink(id: $0.id, title: $0.title, questionCount: t.count($0.questionCount, "{count} question", "{count} questions"),
                         cover: CoverView(name: $0.title, picture: $0.cover))
            })
        }
        let model = SubjectPage(subjectName: subject.subject.name, subjectDescription: subject.subject.description, topics: topics)
        return pages.render("subject", model, visit: context.visit, title: subject.subject.name, tab: "Home")
    }

    func quizzes(_ context: SignedInContext) async throws -> Response {
        let t = context.visit.t
        let quizzes = try await browse.quizzes().map { entry in
            QuizLine(id: entry.listing.quiz.id, title: entry.listing.quiz.title, topic: entry.listing.topicName,
                     subject: entry.listing.subjectName, questionCount: t.count(entry.listing.quiz.questionCount, "{count} question", "{count} questions"),
                     about: entry.articles.isEmpty ? nil : entry.articles.joined(separator: "; "),
                     cover: CoverView(name: entry.listing.quiz.title, picture: entry.listing.quiz.cover))
        }
        return pages.render("quizzes", QuizzesPage(quizzes: quizzes), visit: context.visit, title: t("Quizzes"), tab: "Quizzes")
    }
}
