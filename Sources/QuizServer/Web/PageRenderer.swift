import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore
import QuizCore
import QuizText
import Synchronization

/// Renders the app's pages from the Mustache templates shipped with the server.
/// `{{value}}` escapes HTML, so user content never becomes markup.
struct PageRenderer: Sendable {
    struct MissingTemplates: Error, CustomStringConvertible {
        var description: String { "the page templates are missing from this build" }
    }

    /// The templates compiled once per language, their `[[English]]` marks already translated:
    /// a page costs the same in every language.
    let libraries: [Language: MustacheLibrary]
    let fragments = FragmentCache()
    let skeletons = SkeletonCache()

    /// The context key that says a page's language ("en", "fi"); `Pages.base` sets it.
    static let languageKey = "lang"

    /// A renderer with its own caches over the shipped templates, which are read and compiled
    /// once per process (a test run builds hundreds of servers).
    static func load() async throws -> PageRenderer {
        PageRenderer(libraries: try shipped.get())
    }

    private static let shipped: Result<[Language: MustacheLibrary], any Error> = Result {
        guard let folder = Bundle.module.resourceURL?.appendingPathComponent("templates") else { throw MissingTemplates() }
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mustache" }
        guard !files.isEmpty else { throw MissingTemplates() }
        var sources: [String: String] = [:]
        for file in files { sources[file.deletingPathExtension().lastPathComponent] = try String(contentsOf: file, encoding: .utf8) }
        return try PageRenderer.compile(sources)
    }

    init(libraries: [Language: MustacheLibrary]) {
        self.libraries = libraries
    }

    static func compile(_ sources: [String: String]) throws -> [Language: MustacheLibrary] {
        // One language a core: parsing the templates is most of the server's start (issue 35).
        let languages = Array(Language.allCases)
        let compiled = Mutex<[Language: Result<MustacheLibrary, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: languages.count) { index in
            let language = languages[index]
            let library = Result { try compile(sources, in: language) }
            compiled.withLock { $0[language] = library }
        }
        return try compiled.withLock { try $0.mapValues { try $0.get() } }
    }

    private static func compile(_ sources: [String: String], in language: Language) throws -> MustacheLibrary {
        let texts = Texts.of(language)
        var library = MustacheLibrary()
        for (name, source) in sources {
            var translated = texts.template(source)
            if translated.contains("<!--script-strings-->") {
                translated = translated.replacingOccurrences(
                    of: "<!--script-strings-->", with: texts.scriptStrings(StaticFile.scriptKeys(forTemplate: source)))
            }
            try library.register(translated, named: name)
        }
        return library
    }

    func library(_ language: Language) -> MustacheLibrary { libraries[language] ?? libraries[.en]! }

    static func language(of context: [String: Any]) -> Language {
        (context[languageKey] as? String).flatMap(Language.init(rawValue:)) ?? .en
    }

    /// The page header (template "top"); pages start with `{{{chrome}}}`.
    func chrome(_ chrome: PageChrome) -> String {
        fragment("top", key: chrome, language: chrome.language) {
            var context: [String: Any] = ["pageTitle": chrome.title, "signedIn": chrome.username != nil, Self.languageKey: chrome.language.rawValue]
            if let username = chrome.username { context["username"] = username }
            if chrome.canAuthor { context["canAuthor"] = true }
            if let tab = chrome.tab { context["tab" + tab] = true }
            if let notice = chrome.notice { context["notice"] = notice }
            return context
        }
    }

    /// The HTML of a part of a page that depends on nothing but `question`, rendered once.
    /// Keyed by the whole question value, so an edited question renders anew.
    func fragment(_ template: String, for question: Question, language: Language, _ context: () -> [String: Any]) -> String {
        // Found by id, then compared: cheaper than hashing every text of the question.
        let order = question.body.choices.reduce(UInt64(0)) { $0 &* 31 &+ UInt64(truncatingIfNeeded: $1.id) }
        let key = FragmentCache.QuestionKey(template: template, id: question.id ?? 0, order: order, language: language)
        if let entry = fragments.questions.withLock({ $0[key] }), entry.question == question { return entry.html }
        let html = library(language).render(context(), withTemplate: template) ?? ""
        fragments.questions.withLock { entries in
            if entries.count >= FragmentCache.maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[key] = (question, html)
        }
        return html
    }

    /// The HTML of `template` for a context that `key` determines completely, rendered once.
    func fragment(_ template: String, key: some Hashable & Sendable, language: Language, _ context: () -> [String: Any]) -> String {
        let key = FragmentCache.Key(template: template, value: AnyHashable(key), language: language)
        if let html = fragments.entries.withLock({ $0[key] }) { return html }
        let html = library(language).render(context(), withTemplate: template) ?? ""
        fragments.entries.withLock { entries in
            if entries.count >= FragmentCache.maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[key] = html
        }
        return html
    }

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; media-src 'self'; connect-src 'self'; manifest-src 'self'; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    func render(_ template: String, _ context: [String: Any], status: HTTPResponse.Status = .ok, cookies: [String] = []) -> Response {
        let html = self.html(template, context) ?? "<!doctype html><title>Quizbox</title><p>Page missing.</p>"
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The page's HTML: from its skeleton when the context is all strings, numbers and booleans.
    func html(_ template: String, _ context: [String: Any]) -> String? {
        let language = Self.language(of: context)
        if let shape = PageSkeleton.Shape(template: template, context: context, language: language),
           let skeleton = skeletons.skeleton(for: shape, library: library(language)) {
            return skeleton.render(context)
        }
        return directHTML(template, context)
    }

    /// Mustache alone, no skeleton.
    func directHTML(_ template: String, _ context: [String: Any]) -> String? {
        library(Self.language(of: context)).render(context, withTemplate: template)
    }

    static func redirect(to location: String, cookies: [String] = []) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// A file to save (`Content-Disposition: attachment`) under `name`, which must be plain ASCII.
    static func download(_ bytes: Data, type: String, name: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// Everything the page header shows.
struct PageChrome: Hashable, Sendable {
    var language: Language = .en
    var title: String
    var username: String?
    var canAuthor = false
    var tab: String? = nil
    var notice: String? = nil
}

/// Rendering was most of the question page's cost. A question's text and answer fields are the same
/// for every player, and a page's header depends only on its title, tab and who is signed in, so
/// they are kept as HTML.
final class FragmentCache: Sendable {
    /// `fragment(_:key:_:)` only accepts Sendable keys; AnyHashable just cannot say so.
    struct Key: Hashable, @unchecked Sendable {
        var template: String
        var value: AnyHashable
        var language: Language
    }

    struct QuestionKey: Hashable, Sendable {
        var template: String
        var id: Int64
        /// Choices are shuffled per attempt: each order a question is shown in is its own entry.
        var order: UInt64
        var language: Language
    }

    static let maxEntries = 5_000
    let entries = Mutex<[Key: String]>([:])
    let questions = Mutex<[QuestionKey: (question: Question, html: String)]>([:])
}

// Mustache prints other values with `String(describing:)` after several dynamic casts; rendering
// them as themselves skips that on every variable (a tenth of the question page's CPU time).
extension String: @retroactive MustacheCustomRenderable {
    public var renderText: String { self }
    public var isNull: Bool { false }
}

extension Int: @retroactive MustacheCustomRenderable {
    public var renderText: String { String(self) }
    public var isNull: Bool { false }
}

extension Int64: @retroactive MustacheCustomRenderable {
    public var renderText: String { String(self) }
    public var isNull: Bool { false }
}
