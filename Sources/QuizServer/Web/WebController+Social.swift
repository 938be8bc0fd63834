import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizStore
import QuizUseCases

extension WebController {
    var posting: Posting { Posting(store: store, images: ImageFiles(dataDirectory: config.dataDirectory), time: time, limiter: limiter,
                                         limits: config.postLimits) }

    func registerSocial(on router: Router<AppRequestContext>) {
        router.get("/feed") { request, _ in
            try await page(request) {
                try await feed($0, cursor: request.uri.queryParameters["cursor"].map(String.init),
                               fragment: request.uri.queryParameters["fragment"] != nil)
            }
        }
        router.post("/feed/posts") { request, context in try await post(request, context) { try await createPost($0, $1) } }
        router.post("/posts/:id/delete") { request, context in
            try await post(request, context) { try await deletePost($0, $1, id: context.parameters.require("id", as: Int64.self)) }
        }
        router.get("/people") { request, _ in
            try await page(request) { try await people($0, query: request.uri.queryParameters["q"].map(String.init) ?? "") }
        }
        router.get("/users/:username") { request, context in
            try await page(request) {
                try await userPage($0, username: Self.pathName(try context.parameters.require("username")),
                                   cursor: request.uri.queryParameters["cursor"].map(String.init))
            }
        }
        router.post("/users/:username/follow") { request, context in
            try await post(request, context) { visit, _ in
                try await setFollowing(visit, true, username: Self.pathName(try context.parameters.require("username")))
            }
        }
        router.post("/users/:username/unfollow") { request, context in
            try await post(request, context) { visit, _ in
                try await setFollowing(visit, false, username: Self.pathName(try context.parameters.require("username")))
            }
        }
        let images = posting.images
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

    // MARK: - Feed

    func feed(_ visit: Visit, cursor token: String?, fragment: Bool, feedback: APIError? = nil, text: String = "") async throws -> Response {
        let user = try requireUser(visit, returnTo: "/feed")
        let cursor: FeedCursor?
        do { cursor = try Posting.cursor(token) } catch let error as APIError {
            return renderer.render("error", errorContext(visit, heading: "That page of the feed does not exist", message: error.message), status: .badRequest)
        }
        let page = try await store.feed(userId: user.id, after: cursor, limit: Posting.pageSize)
        let nextURL = page.next.map { "/feed?cursor=\($0.token)" }
        var context = base(visit, title: "Feed", tab: "Feed")
        context["itemsHtml"] = itemsHTML(page.items, visit: visit, viewer: user, returnTo: "/feed")
        context["hasItems"] = !page.items.isEmpty
        context["firstPage"] = cursor == nil
        if let nextURL { context["nextUrl"] = nextURL }
        if fragment {
            // For feed.js: just the next items, and where the page after them starts.
            var response = renderer.render("feed-items", context)
            if let nextURL { response.headers[HTTPField.Name("Quizbox-Next-Page")!] = nextURL }
            return response
        }
        context["postText"] = text
        var status: HTTPResponse.Status = .ok
        if let feedback {
            context["postFeedback"] = feedback.message
            status = feedback.status
        }
        return renderer.render("feed", context, status: status)
    }

    func createPost(_ visit: Visit, _ form: WebForm) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/feed")
        let text = form["text"] ?? ""
        let file = form.files["image"].flatMap { $0.data.isEmpty ? nil : $0.data }
        do {
            let post = try await posting.create(userId: user.id, text: text, image: file)
            return PageRenderer.redirect(to: "/feed#post-\(post.id)")
        } catch let error as APIError {
            return try await feed(visit, cursor: nil, fragment: false, feedback: error, text: String(text.prefix(PostText.maxCharacters * 2)))
        }
    }

    func deletePost(_ visit: Visit, _ form: WebForm, id: Int64) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/feed")
        do {
            try await posting.delete(postId: id, userId: user.id)
        } catch let error as APIError {
            return renderer.render("error", errorContext(visit, heading: "That post could not be deleted", message: error.message), status: error.status)
        }
        return PageRenderer.redirect(to: Self.safeNext(form["next"] ?? "/feed"))
    }

    /// Each post and card rendered on its own, from plain values, so each takes the skeleton path
    /// (a page of twenty posts through Mustache's lists cost several times the rest of the feed).
    func itemsHTML(_ items: [FeedItem], visit: Visit, viewer: User, returnTo: String) -> String {
        var html = ""
        for item in items {
            switch item {
            case .post(let post) where post.userId == viewer.id:
                var context = postContext(post, viewer: viewer, returnTo: returnTo)
                context["csrf"] = visit.csrf
                html += renderer.html("post", context) ?? ""
            case .post(let post):
                // Posts are never edited and others' carry nothing of the viewer: rendered once
                // per content (the key is the whole post, names included).
                html += renderer.fragment("post", key: post) { postContext(post, viewer: viewer, returnTo: returnTo) }
            case .news(let card):
                html += renderer.html("news-card", newsContext(card)) ?? ""
            }
        }
        return html
    }

    func postContext(_ post: Post, viewer: User, returnTo: String) -> [String: Any] {
        let date = Self.postDate(post.createdAt)
        var context: [String: Any] = [
            "id": post.id, "username": post.username, "name": "\(post.firstName) \(post.lastName)",
            "userUrl": "/users/\(Self.encode(post.username))", "body": post.body, "hasBody": !post.body.isEmpty,
            "when": date.shown, "iso": date.iso,
            "isMine": post.userId == viewer.id, "returnTo": returnTo,
        ]
        if let name = post.imageFileName { context["imageUrl"] = "/images/\(name)" }
        return context
    }

    func newsContext(_ card: NewsCard) -> [String: Any] {
        let summary = card.summary.count > 280 ? String(card.summary.prefix(279)) + "…" : card.summary
        var context: [String: Any] = ["articleId": card.articleId, "title": card.title, "summary": summary, "source": card.sourceName,
                                      "readUrl": "/articles/\(card.articleId)/read"]
        if let quiz = card.quizId { context["quizUrl"] = "/quizzes/\(quiz)" }
        return context
    }

    /// "5 Mar 2027, 14:03 UTC" and its ISO 8601 form, by arithmetic: a formatter per post cost more
    /// than reading the feed.
    static func postDate(_ date: Date) -> (shown: String, iso: String) {
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
        return ("\(day) \(postMonthNames[Int(month) - 1]) \(year), \(hour):\(minute) UTC",
                "\(year)-\(two(month))-\(two(day))T\(hour):\(minute):\(second)Z")
    }

    // MARK: - People

    func people(_ visit: Visit, query: String) async throws -> Response {
        _ = try requireUser(visit, returnTo: "/people")
        var context = base(visit, title: "Find people", tab: "Feed")
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        context["query"] = String(query.prefix(100))
        if trimmed.count > 100 {
            context["searchFeedback"] = "Search for at most 100 characters."
        } else if !trimmed.isEmpty {
            let found = try await store.searchUsers(trimmed, limit: 20)
            context["searched"] = true
            context["results"] = found.map {
                ["username": $0.username, "name": "\($0.firstName) \($0.lastName)", "userUrl": "/users/\(Self.encode($0.username))"]
            }
            context["noResults"] = found.isEmpty
        }
        return renderer.render("people", context)
    }

    func userPage(_ visit: Visit, username: String, cursor token: String?) async throws -> Response {
        let viewer = try requireUser(visit, returnTo: "/users/\(Self.encode(username))")
        let profile = try await posting.profile(username, viewerId: viewer.id)
        let cursor = try Posting.cursor(token)
        let page = try await store.posts(userId: profile.userId, after: cursor, limit: Posting.pageSize)
        let path = "/users/\(Self.encode(profile.username))"
        var context = base(visit, title: "\(profile.firstName) \(profile.lastName)", tab: "Feed")
        context["profileUsername"] = profile.username
        context["name"] = "\(profile.firstName) \(profile.lastName)"
        context["followers"] = Self.count(profile.followers, "follower")
        context["following"] = "\(profile.following) following"
        context["isMe"] = profile.userId == viewer.id
        context["followed"] = profile.followedByViewer
        context["userPath"] = path
        context["itemsHtml"] = itemsHTML(page.posts.map { .post($0) }, visit: visit, viewer: viewer, returnTo: path)
        context["hasItems"] = !page.posts.isEmpty
        if let next = page.next { context["nextUrl"] = "\(path)?cursor=\(next.token)" }
        return renderer.render("user", context)
    }

    func setFollowing(_ visit: Visit, _ following: Bool, username: String) async throws -> Response {
        let viewer = try requireUser(visit, returnTo: "/users/\(Self.encode(username))")
        do {
            let profile = try await posting.setFollowing(following, username: username, viewerId: viewer.id)
            return PageRenderer.redirect(to: "/users/\(Self.encode(profile.username))")
        } catch let error as APIError {
            return renderer.render("error", errorContext(visit, heading: following ? "You cannot follow them" : "You cannot unfollow them",
                                                         message: error.message), status: error.status)
        }
    }
}

private let postMonthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
