import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizText
import QuizStore
import QuizUseCases

/// The social pages: the feed with its post form, deleting a post, finding people, a person's page
/// with following, and the posts' pictures. Each form calls one use case and renders what it returns.
struct SocialPages: Sendable {
    let pages: Pages
    let postToFeed: PostToFeed
    let deletePost: DeletePost
    let following: Following
    let feed: Feed
    let people: People
    let images: ImageFiles

    var renderer: PageRenderer { pages.renderer }

    func register(on router: Router<AppRequestContext>, signedIn: some RouterMethods<SignedInContext>) {
        signedIn.get("/feed") { request, context in
            let query = request.uri.queryParameters
            return try await feedPage(context, cursor: query["cursor"].map(String.init), fragment: query["fragment"] != nil)
        }
        signedIn.post("/feed/posts", policy: RoutePolicy(body: .postPage, resendable: true), in: pages.routes) { _, context in try await createPost(context) }
        signedIn.post("/posts/:id/delete") { _, context in try await deletePost(context, id: context.pathID("id")) }
        signedIn.get("/people") { request, context in
            try await peoplePage(context, query: request.uri.queryParameters["q"].map(String.init) ?? "")
        }
        signedIn.get("/users/:username") { request, context in
            try await userPage(context, username: Self.pathName(try context.parameters.require("username")),
                               cursor: request.uri.queryParameters["cursor"].map(String.init))
        }
        signedIn.post("/users/:username/follow") { _, context in
            try await setFollowing(context, true, username: Self.pathName(try context.parameters.require("username")))
        }
        signedIn.post("/users/:username/unfollow") { _, context in
            try await setFollowing(context, false, username: Self.pathName(try context.parameters.require("username")))
        }
        SoundRoute.register(on: router, files: images)
        // Not a page: no visit to work out.
        router.get("/images/:file") { _, context -> Response in
            guard let image = images.image(named: try context.parameters.require("file")) else { throw HTTPError(.notFound) }
            var headers = HTTPFields()
            headers[.contentType] = image.type.mimeType
            // The name is the hash of the bytes: the same address always holds the same image.
            headers[.cacheControl] = "public, max-age=31536000, immutable"
            headers[.xContentTypeOptions] = "nosniff"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: image.data)))
        }
    }

    static func pathName(_ raw: String) -> String { raw.removingPercentEncoding ?? raw }

    // MARK: Models

    struct FeedPageModel: Encodable {
        var itemsHtml: PageHTML
        var hasItems: Bool
        var firstPage: Bool
        var nextUrl: String?
        var postText: String
        var postFeedback: String?
        /// Next to each field, what is wrong with it.
        var postTextError: String?
        var postImageError: String?
    }

    /// A post in a list (template "post").
    struct PostItem: Encodable, Sendable {
        var id: Int64
        var username: String
        var name: String
        var userUrl: String
        var body: String
        var hasBody: Bool
        var when: String
        var iso: String
        var isMine: Bool
        var returnTo: String
        var imageUrl: String?
        /// Only on the viewer's own posts, for their delete button.
        var csrf: String?
    }

    /// An article between the posts of the feed (template "news-card").
    struct NewsItem: Encodable {
        var articleId: Int64
        var title: String
        var summary: String
        var source: String
        var readUrl: String
        var quizUrl: String?
    }

    struct SearchResult: Encodable {
        var username: String
        var name: String
        var userUrl: String
        /// Follow or unfollow from the list, back to the same search; none for yourself.
        var canFollow: Bool
        var followed: Bool
    }

    struct PeoplePage: Encodable {
        var query: String
        var searchPath: String
        var searchFeedback: String?
        var searched: Bool
        var results: [SearchResult]
        var noResults: Bool
    }

    struct UserPage: Encodable {
        var profileUsername: String
        var name: String
        var followers: String
        var following: String
        var isMe: Bool
        var followed: Bool
        var userPath: String
        var itemsHtml: PageHTML
        var hasItems: Bool
        var nextUrl: String?
    }

    // MARK: Feed

    /// A post that was refused, shown again in the form with why.
    struct Refused {
        var text: String
        var message: String
        var status: HTTPResponse.Status
        var textError: String?
        var imageError: String?
    }

    func feedPage(_ context: SignedInContext, cursor: String?, fragment: Bool, refused: Refused? = nil) async throws -> Response {
        let visit = context.visit
        let t = visit.t
        let page: FeedPage
        do {
            page = try await feed.page(userId: context.user.id, cursor: cursor)
        } catch let failure as Feed.Failure {
            return pages.error(visit, heading: t("That page of the feed does not exist"), message: t(failure.message), status: .badRequest)
        }
        let nextURL = page.next.map { "/feed?cursor=\($0.token)" }
        let model = FeedPageModel(itemsHtml: PageHTML(itemsHTML(page.items, visit: visit, viewer: context.user, returnTo: "/feed")),
                             hasItems: !page.items.isEmpty, firstPage: cursor?.isEmpty ?? true, nextUrl: nextURL,
                             postText: refused?.text ?? "", postFeedback: refused?.message,
                             postTextError: refused?.textError, postImageError: refused?.imageError)
        if fragment {
            // For feed.js: just the next items, and where the page after them starts.
            var response = pages.render("feed-items", model, visit: visit, title: t("Feed"), tab: "Feed")
            if let nextURL { response.headers[HTTPField.Name("Quizbox-Next-Page")!] = nextURL }
            return response
        }
        return pages.render("feed", model, visit: visit, title: t("Feed"), tab: "Feed", status: refused?.status ?? .ok)
    }

    func createPost(_ context: SignedInContext) async throws -> Response {
        let t = context.visit.t
        let text = context.form["text"] ?? ""
        do {
            let post = try await postToFeed(userId: context.user.id, text: text, image: context.form.files["image"]?.data)
            return PageRenderer.redirect(to: "/feed#post-\(post.id)")
        } catch let failure as PostToFeed.Failure {
            let status: HTTPResponse.Status = switch failure {
            case .invalidText: .unprocessableContent
            case .tooManyPosts: .tooManyRequests
            case .imageTooLarge, .imageTooManyPixels, .imageQuotaExceeded: .contentTooLarge
            case .notAnImage: .unsupportedMediaType
            }
            var refused = Refused(text: String(text.prefix(PostText.maxCharacters * 2)), message: t(failure.message), status: status)
            switch failure {
            case .invalidText, .imageTooLarge, .imageTooManyPixels, .notAnImage:
                // Every mistake at once, each next to its field.
                let (textError, imageError) = PostToFeed.problems(text: text, image: context.form.files["image"]?.data)
                (refused.textError, refused.imageError) = (textError.map { t($0) }, imageError.map { t($0.message) })
                if refused.textError != nil && refused.imageError != nil { refused.message = t("Please fix the marked fields; nothing was posted.") }
                if refused.imageError == nil, context.form.files["image"]?.data.isEmpty == false {
                    refused.imageError = t("Choose the image again: nothing was posted, and a page cannot keep a file between tries.")
                }
            case .tooManyPosts, .imageQuotaExceeded:
                break
            }
            return try await feedPage(context, cursor: nil, fragment: false, refused: refused)
        }
    }

    func deletePost(_ context: SignedInContext, id: Int64) async throws -> Response {
        do {
            try await deletePost(postId: id, userId: context.user.id)
        } catch let failure as DeletePost.Failure {
            return pages.error(context.visit, heading: context.visit.t("That post could not be deleted"), message: context.visit.t(failure.message),
                               status: failure == .notFound ? .notFound : .forbidden)
        }
        return PageRenderer.redirect(to: Pages.safeNext(context.form["next"] ?? "/feed"))
    }

    /// Each post and card rendered on its own, from plain values, so each takes the skeleton path
    /// (a page of twenty posts through Mustache's lists cost several times the rest of the feed).
    func itemsHTML(_ items: [FeedItem], visit: Visit, viewer: User, returnTo: String) -> String {
        var html = ""
        for item in items {
            switch item {
            case .post(let post) where post.userId == viewer.id:
                var model = Self.postItem(post, viewer: viewer, returnTo: returnTo, language: visit.language)
                model.csrf = visit.csrf
                var context = MustacheEncoder.encode(model)
                context[PageRenderer.languageKey] = visit.language.rawValue
                html += renderer.html("post", context) ?? ""
            case .post(let post):
                // Posts are never edited and others' carry nothing of the viewer: rendered once
                // per content (the key is the whole post, names included).
                html += renderer.fragment("post", key: post, language: visit.language) { MustacheEncoder.encode(Self.postItem(post, viewer: viewer, returnTo: returnTo, language: visit.language)) }
            case .news(let card):
                // The same for every reader: rendered once per content, like others' posts.
                html += renderer.fragment("news-card", key: card, language: visit.language) { MustacheEncoder.encode(Self.newsItem(card)) }
            }
        }
        return html
    }

    static func postItem(_ post: Post, viewer: User, returnTo: String, language: Language = .en) -> PostItem {
        let date = postDate(post.createdAt, language: language)
        return PostItem(id: post.id, username: post.username, name: "\(post.firstName) \(post.lastName)",
                        userUrl: "/users/\(Pages.encode(post.username))", body: post.body, hasBody: !post.body.isEmpty,
                        when: date.shown, iso: date.iso, isMine: post.userId == viewer.id, returnTo: returnTo,
                        imageUrl: post.imageFileName.map { "/images/\($0)" })
    }

    static func newsItem(_ card: NewsCard) -> NewsItem {
        let summary = card.summary.count > 280 ? String(card.summary.prefix(279)) + "…" : card.summary
        return NewsItem(articleId: card.articleId, title: card.title, summary: summary, source: card.sourceName,
                        readUrl: "/articles/\(card.articleId)/read", quizUrl: card.quizId.map { "/quizzes/\($0)" })
    }

    /// "5 Mar 2027, 14:03 UTC" ("5.3.2027 klo 14.03 UTC" in Finnish) and its ISO 8601 form, by
    /// arithmetic: a formatter per post cost more than reading the feed.
    static func postDate(_ date: Date, language: Language = .en) -> (shown: String, iso: String) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let hour = two(inDay / 3_600), minute = two(inDay % 3_600 / 60), second = two(inDay % 60)
        let shown = switch language {
        case .en: "\(day) \(postMonthNames[Int(month) - 1]) \(year), \(hour):\(minute) UTC"
        case .fi: "\(day).\(month).\(year) klo \(inDay / 3_600).\(minute) UTC"
        }
        return (shown,
                "\(year)-\(two(month))-\(two(day))T\(hour):\(minute):\(second)Z")
    }

    // MARK: People

    func peoplePage(_ context: SignedInContext, query: String) async throws -> Response {
        let visit = context.visit
        let shown = String(query.prefix(People.maxQueryCharacters))
        var model = PeoplePage(query: shown, searchPath: "/people?q=\(Pages.encode(shown))", searched: false, results: [], noResults: false)
        do {
            if let found = try await people.search(query, viewerId: context.user.id) {
                model.searched = true
                model.results = found.map {
                    SearchResult(username: $0.username, name: "\($0.firstName) \($0.lastName)", userUrl: "/users/\(Pages.encode($0.username))",
                                 canFollow: $0.userId != context.user.id, followed: $0.followedByViewer)
                }
                model.noResults = found.isEmpty
            }
        } catch let failure as People.Failure {
            model.searchFeedback = visit.t(failure.message)
        }
        return pages.render("people", model, visit: visit, title: visit.t("Find people"), tab: "Feed")
    }

    func userPage(_ context: SignedInContext, username: String, cursor: String?) async throws -> Response {
        let t = context.visit.t
        let page: People.Page
        do {
            page = try await people.page(username: username, viewerId: context.user.id, cursor: cursor)
        } catch let failure as People.Failure {
            switch failure {
            case .noSuchUser: throw HTTPError(.notFound)
            case .invalidCursor, .queryTooLong:
                return pages.error(context.visit, heading: t("That did not work"), message: t(failure.message), status: .badRequest)
            }
        }
        let profile = page.profile
        let path = "/users/\(Pages.encode(profile.username))"
        let name = "\(profile.firstName) \(profile.lastName)"
        let model = UserPage(
            profileUsername: profile.username, name: name, followers: t.count(profile.followers, "{count} follower", "{count} followers"),
            following: t.count(profile.following, "{count} following", "{count} following"), isMe: page.isViewer, followed: profile.followedByViewer, userPath: path,
            itemsHtml: PageHTML(itemsHTML(page.posts.posts.map { .post($0) }, visit: context.visit, viewer: context.user, returnTo: path)),
            hasItems: !page.posts.posts.isEmpty, nextUrl: page.posts.next.map { "\(path)?cursor=\($0.token)" })
        return pages.render("user", model, visit: context.visit, title: name, tab: "Feed")
    }

    func setFollowing(_ context: SignedInContext, _ follow: Bool, username: String) async throws -> Response {
        do {
            let profile = follow ? try await following.follow(username, viewerId: context.user.id)
                : try await following.unfollow(username, viewerId: context.user.id)
            // From the search list: back to the same search; otherwise to their page.
            if let next = context.form["next"] { return PageRenderer.redirect(to: Pages.safeNext(next)) }
            return PageRenderer.redirect(to: "/users/\(Pages.encode(profile.username))")
        } catch let failure as Following.Failure {
            let status: HTTPResponse.Status = if case .noSuchUser = failure { .notFound } else { .unprocessableContent }
            let t = context.visit.t
            return pages.error(context.visit, heading: follow ? t("You cannot follow them") : t("You cannot unfollow them"),
                               message: t(failure.message), status: status)
        }
    }
}

private let postMonthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
