import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

/// People, following, posts and the feed (`People`, `Following`, `PostToFeed`, `DeletePost`,
/// `Feed`): signed-in callers only.
struct SocialAPI: Sendable {
    let people: People
    let following: Following
    let postToFeed: PostToFeed
    let postDeletion: DeletePost
    let feed: Feed

    func searchUsers(_ input: Operations.SearchUsers.Input, by _: SignedInCaller) async throws -> Operations.SearchUsers.Output {
        let limit = try APIError.checked(input.query.limit, "limit", default: People.searchResults, in: 1...50)
        do {
            let found = try await people.search(input.query.q, limit: limit) ?? []
            return .ok(.init(body: .json(.init(users: found.map(Components.Schemas.UserMatch.init)))))
        } catch let failure as People.Failure {
            throw APIError(failure)
        }
    }

    func getUserPage(_ input: Operations.GetUserPage.Input, by caller: SignedInCaller) async throws -> Operations.GetUserPage.Output {
        do {
            let page = try await people.page(username: input.path.username, viewerId: caller.user.id, cursor: input.query.cursor)
            return .ok(.init(body: .json(.init(user: .init(page.profile), posts: page.posts.posts.map(Components.Schemas.Post.init),
                                               nextCursor: page.posts.next?.token))))
        } catch let failure as People.Failure {
            throw APIError(failure)
        }
    }

    func followUser(_ input: Operations.FollowUser.Input, by caller: SignedInCaller) async throws -> Operations.FollowUser.Output {
        do {
            return .ok(.init(body: .json(.init(try await following.follow(input.path.username, viewerId: caller.user.id)))))
        } catch let failure as Following.Failure {
            throw APIError(failure)
        }
    }

    func unfollowUser(_ input: Operations.UnfollowUser.Input, by caller: SignedInCaller) async throws -> Operations.UnfollowUser.Output {
        do {
            return .ok(.init(body: .json(.init(try await following.unfollow(input.path.username, viewerId: caller.user.id)))))
        } catch let failure as Following.Failure {
            throw APIError(failure)
        }
    }

    func createPost(_ input: Operations.CreatePost.Input, by caller: SignedInCaller) async throws -> Operations.CreatePost.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        var image: Data?
        if let encoded = body.image, !encoded.isEmpty {
            guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
                throw APIError(.badRequest, "invalid_image", "The image is not valid base64.", field: "image")
            }
            image = data
        }
        do {
            return .created(.init(body: .json(.init(try await postToFeed(userId: caller.user.id, text: body.text, image: image)))))
        } catch let failure as PostToFeed.Failure {
            throw APIError(failure)
        }
    }

    func deletePost(_ input: Operations.DeletePost.Input, by caller: SignedInCaller) async throws -> Operations.DeletePost.Output {
        do {
            try await postDeletion(postId: input.path.postId, userId: caller.user.id)
            return .noContent(.init())
        } catch let failure as DeletePost.Failure {
            throw APIError(failure)
        }
    }

    func getFeed(_ input: Operations.GetFeed.Input, by caller: SignedInCaller) async throws -> Operations.GetFeed.Output {
        let limit = try APIError.checked(input.query.limit, "limit", default: Feed.pageSize, in: 1...50)
        let page: FeedPage
        do {
            page = try await feed.page(userId: caller.user.id, cursor: input.query.cursor, limit: limit)
        } catch let failure as Feed.Failure {
            throw APIError(failure)
        }
        let items = page.items.map { item -> Components.Schemas.FeedItem in
            switch item {
            case .post(let post): .init(kind: .post, post: .init(post))
            case .news(let card): .init(kind: .news, news: .init(card))
            }
        }
        return .ok(.init(body: .json(.init(items: items, nextCursor: page.next?.token))))
    }
}

extension APIError {
    init(_ failure: PostToFeed.Failure) {
        switch failure {
        case .invalidText:
            self.init(.unprocessableContent, "invalid_post", failure.message, field: "text")
        case .tooManyPosts:
            self.init(.tooManyRequests, "too_many_posts", failure.message)
            retryAfter = PostToFeed.retryAfter
        case .imageTooLarge, .imageTooManyPixels:
            self.init(.contentTooLarge, "image_too_large", failure.message, field: "image")
        case .notAnImage:
            self.init(.unsupportedMediaType, "unsupported_image", failure.message, field: "image")
        case .imageQuotaExceeded:
            self.init(.contentTooLarge, "image_quota_exceeded", failure.message, field: "image")
        }
    }

    init(_ failure: DeletePost.Failure) {
        switch failure {
        case .notFound: self.init(.notFound, "not_found", failure.message)
        case .notYours: self.init(.forbidden, "forbidden", failure.message)
        }
    }

    init(_ failure: Following.Failure) {
        switch failure {
        case .noSuchUser: self.init(.notFound, "not_found", failure.message)
        case .cannotFollowSelf: self.init(.unprocessableContent, "cannot_follow_self", failure.message)
        case .tooManyFollows: self.init(.unprocessableContent, "too_many_follows", failure.message)
        }
    }

    init(_ failure: Feed.Failure) {
        switch failure {
        case .invalidCursor: self = .invalidCursor
        }
    }

    init(_ failure: People.Failure) {
        switch failure {
        case .noSuchUser: self.init(.notFound, "not_found", failure.message)
        case .invalidCursor: self = .invalidCursor
        case .queryTooLong: self.init(.unprocessableContent, "invalid_search", failure.message, field: "q")
        }
    }

    static var invalidCursor: APIError { APIError(.badRequest, "invalid_cursor", Feed.invalidCursorMessage, field: "cursor") }
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
