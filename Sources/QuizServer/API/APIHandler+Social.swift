import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

extension APIHandler {
    var posting: Posting { Posting(store: store, images: ImageFiles(dataDirectory: config.dataDirectory), time: time, limiter: limiter,
                                         limits: config.postLimits) }

    func searchUsers(_ input: Operations.SearchUsers.Input) async throws -> Operations.SearchUsers.Output {
        _ = try await requireUser()
        let query = input.query.q
        guard query.count <= 100 else { throw APIError(.unprocessableContent, "invalid_search", "Search for at most 100 characters.", field: "q") }
        let found = try await store.searchUsers(query, limit: try APIError.checked(input.query.limit, "limit", default: 20, in: 1...50))
        return .ok(.init(body: .json(.init(users: found.map(Components.Schemas.UserMatch.init)))))
    }

    func getUserPage(_ input: Operations.GetUserPage.Input) async throws -> Operations.GetUserPage.Output {
        let viewer = try await requireUser()
        let profile = try await posting.profile(input.path.username, viewerId: viewer.id)
        let page = try await store.posts(userId: profile.userId, after: try Posting.cursor(input.query.cursor), limit: Posting.pageSize)
        return .ok(.init(body: .json(.init(user: .init(profile), posts: page.posts.map(Components.Schemas.Post.init),
                                           nextCursor: page.next?.token))))
    }

    func followUser(_ input: Operations.FollowUser.Input) async throws -> Operations.FollowUser.Output {
        let viewer = try await requireUser()
        let profile = try await posting.setFollowing(true, username: input.path.username, viewerId: viewer.id)
        return .ok(.init(body: .json(.init(profile))))
    }

    func unfollowUser(_ input: Operations.UnfollowUser.Input) async throws -> Operations.UnfollowUser.Output {
        let viewer = try await requireUser()
        let profile = try await posting.setFollowing(false, username: input.path.username, viewerId: viewer.id)
        return .ok(.init(body: .json(.init(profile))))
    }

    func createPost(_ input: Operations.CreatePost.Input) async throws -> Operations.CreatePost.Output {
        let user = try await requireUser()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        var image: Data?
        if let encoded = body.image, !encoded.isEmpty {
            guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
                throw APIError(.badRequest, "invalid_image", "The image is not valid base64.", field: "image")
            }
            image = data
        }
        let post = try await posting.create(userId: user.id, text: body.text, image: image)
        return .created(.init(body: .json(.init(post))))
    }

    func deletePost(_ input: Operations.DeletePost.Input) async throws -> Operations.DeletePost.Output {
        let user = try await requireUser()
        try await posting.delete(postId: input.path.postId, userId: user.id)
        return .noContent(.init())
    }

    func getFeed(_ input: Operations.GetFeed.Input) async throws -> Operations.GetFeed.Output {
        let user = try await requireUser()
        let page = try await store.feed(userId: user.id, after: try Posting.cursor(input.query.cursor),
                                        limit: try APIError.checked(input.query.limit, "limit", default: Posting.pageSize, in: 1...50))
        let items = page.items.map { item -> Components.Schemas.FeedItem in
            switch item {
            case .post(let post): .init(kind: .post, post: .init(post))
            case .news(let card): .init(kind: .news, news: .init(card))
            }
        }
        return .ok(.init(body: .json(.init(items: items, nextCursor: page.next?.token))))
    }
}

extension Components.Schemas.UserMatch {
    init(_ match: UserMatch) {
        self.init(id: match.userId, username: match.username, firstName: match.firstName, lastName: match.lastName)
    }
}

extension Components.Schemas.SocialProfile {
    init(_ profile: SocialProfile) {
        self.init(id: profile.userId, username: profile.username, firstName: profile.firstName, lastName: profile.lastName,
                  followers: profile.followers, following: profile.following, followedByMe: profile.followedByViewer)
    }
}

extension Components.Schemas.Post {
    init(_ post: Post) {
        self.init(id: post.id, author: .init(id: post.userId, username: post.username, firstName: post.firstName, lastName: post.lastName),
                  text: post.body, imageUrl: post.imageFileName.map { "/images/\($0)" },
                  imageType: post.imageType.flatMap { ImageTypePayload(rawValue: $0.mimeType) }, createdAt: post.createdAt)
    }
}

extension Components.Schemas.NewsCard {
    init(_ card: NewsCard) {
        self.init(articleId: card.articleId, title: card.title, summary: card.summary, source: card.sourceName, url: card.url,
                  readUrl: "/articles/\(card.articleId)/read", quizId: card.quizId, quizUrl: card.quizId.map { "/quizzes/\($0)" })
    }
}
