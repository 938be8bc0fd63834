import Foundation
import QuizCore

/// A post as shown: its text, its image (by content hash) and who wrote it.
public struct Post: Sendable, Hashable {
    public var id: Int64
    public var userId: Int64
    public var username: String
    public var firstName: String
    public var lastName: String
    public var body: String
    /// The SHA-256 (hex) of the image's bytes; the file is `images/<hash>.<ext>` under the data directory.
    public var imageHash: String?
    public var imageType: PostImageType?
    public var createdAt: Date

    public init(id: Int64, userId: Int64, username: String, firstName: String, lastName: String, body: String,
                imageHash: String?, imageType: PostImageType?, createdAt: Date) {
        self.id = id
        self.userId = userId
        self.username = username
        self.firstName = firstName
        self.lastName = lastName
        self.body = body
        self.imageHash = imageHash
        self.imageType = imageType
        self.createdAt = createdAt
    }

    /// `<hash>.<ext>`: the name the image is stored and served under.
    public var imageFileName: String? {
        guard let imageHash, let imageType else { return nil }
        return "\(imageHash).\(imageType.fileExtension)"
    }
}

/// An article shown between posts of the feed.
public struct NewsCard: Sendable, Hashable {
    public var articleId: Int64
    public var title: String
    public var summary: String
    public var sourceName: String
    public var url: String
    /// The quiz made from the article, when there is one.
    public var quizId: Int64?
    public var publishedAt: Date
}

public enum FeedItem: Sendable, Hashable {
    case post(Post)
    case news(NewsCard)
}

/// Where the next page of a feed (or of someone's posts) starts. Post ids only grow, so "older
/// than the last post shown" stays the same page however many posts arrive meanwhile. The feed's
/// news cards are counted the same way: the k-th card after the 10·k-th post is the k-th newest
/// article among those that existed when the first page was read (ids up to `articleAnchor`).
public struct FeedCursor: Sendable, Hashable {
    public var beforeId: Int64
    /// Posts shown on the pages before this one.
    public var shown: Int
    public var articleAnchor: Int64

    public init(beforeId: Int64, shown: Int, articleAnchor: Int64) {
        self.beforeId = beforeId
        self.shown = shown
        self.articleAnchor = articleAnchor
    }

    /// Opaque to clients: `<beforeId>-<shown>-<articleAnchor>`.
    public var token: String { "\(beforeId)-\(shown)-\(articleAnchor)" }

    /// Nil for anything that is not a token this store handed out.
    public init?(token: String) {
        let parts = token.split(separator: "-", omittingEmptySubsequences: false)
        guard token.utf8.count <= 64, parts.count == 3, let before = Int64(parts[0]), let shown = Int(parts[1]),
              let anchor = Int64(parts[2]), before > 0, shown >= 0, shown <= 100_000_000, anchor >= 0 else { return nil }
        self.init(beforeId: before, shown: shown, articleAnchor: anchor)
    }
}

public struct FeedPage: Sendable, Hashable {
    public var items: [FeedItem]
    /// Nil on the last page.
    public var next: FeedCursor?
}

public struct PostsPage: Sendable, Hashable {
    public var posts: [Post]
    public var next: FeedCursor?
}

/// A user as others see them: names and follow counts, never their role or points.
public struct SocialProfile: Sendable, Hashable {
    public var userId: Int64
    public var username: String
    public var firstName: String
    public var lastName: String
    public var followers: Int
    public var following: Int
    /// Whether the person looking follows them.
    public var followedByViewer: Bool
}

/// A user found by name.
public struct UserMatch: Sendable, Hashable {
    public var userId: Int64
    public var username: String
    public var firstName: String
    public var lastName: String
    /// Whether the one searching follows them (false when no one is named).
    public var followedByViewer = false
}

public enum SocialError: Error, Sendable, Equatable {
    case cannotFollowSelf
    case tooManyFollows(limit: Int)
    case invalidPost(String)
    /// Someone else's post.
    case forbidden
}

public struct NewPost: Sendable {
    public var userId: Int64
    public var body: String
    public var imageHash: String?
    public var imageType: PostImageType?
    /// The image's size, counted against its poster's quota.
    public var imageBytes: Int
    public var createdAt: Date

    public init(userId: Int64, body: String, imageHash: String? = nil, imageType: PostImageType? = nil, imageBytes: Int = 0,
                createdAt: Date) {
        self.userId = userId
        self.body = body
        self.imageHash = imageHash
        self.imageType = imageType
        self.imageBytes = imageBytes
        self.createdAt = createdAt
    }
}

public protocol SocialStore: Sendable {
    /// Following twice changes nothing; returns whether this call started following.
    /// Throws `cannotFollowSelf`, `tooManyFollows`, or `StoreError.notFound` for a missing user.
    @discardableResult
    func follow(followerId: Int64, followeeId: Int64, at date: Date) async throws -> Bool
    /// Returns whether there was a follow to end.
    @discardableResult
    func unfollow(followerId: Int64, followeeId: Int64) async throws -> Bool
    /// The profile of `username` (any case); nil when no such user.
    func socialProfile(username: String, viewerId: Int64?) async throws -> SocialProfile?
    /// Users whose username, first, last or full name contains `query`, ignoring case; at most `limit`.
    /// `viewerId`, when given, marks whom they follow.
    func searchUsers(_ query: String, limit: Int, viewerId: Int64?) async throws -> [UserMatch]
    /// Validates the text (see `PostText`) and stores the post; throws `invalidPost`.
    func createPost(_ post: NewPost) async throws -> Post
    /// Throws `StoreError.notFound` or `SocialError.forbidden` (someone else's). Returns the
    /// post's image when no other post uses it any more, so its file can go.
    @discardableResult
    func deletePost(id: Int64, userId: Int64) async throws -> PostImageName?
    /// Bytes of images in the user's posts (each post counts its image, shared or not).
    func imageBytes(userId: Int64) async throws -> Int
    func post(id: Int64) async throws -> Post?
    /// The user's posts, newest first.
    func posts(userId: Int64, after cursor: FeedCursor?, limit: Int) async throws -> PostsPage
    /// Posts of the people the user follows and the user's own, newest first, with a news card after every 10th.
    func feed(userId: Int64, after cursor: FeedCursor?, limit: Int) async throws -> FeedPage
}

/// A stored image's file name parts: `<hash>.<extension>`.
public struct PostImageName: Sendable, Equatable {
    public var hash: String
    public var type: PostImageType

    public init(hash: String, type: PostImageType) {
        self.hash = hash
        self.type = type
    }

    public var fileName: String { "\(hash).\(type.fileExtension)" }
}

extension SocialStore {
    public func searchUsers(_ query: String, limit: Int) async throws -> [UserMatch] {
        try await searchUsers(query, limit: limit, viewerId: nil)
    }
}
