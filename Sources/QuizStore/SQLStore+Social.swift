import Foundation
import QuizCore
import SQLKit

extension SQLStore: SocialStore {
    /// No one follows more people than this: every feed query stays bounded.
    public static let maxFollows = 10_000
    /// How many of the newest post ids a feed page looks through before asking each followee for
    /// their own newest posts instead (see `feedPosts`).
    static let feedScanWindow: Int64 = 4_000
    /// After every this many posts the feed shows a news card.
    public static let postsPerNewsCard = 10

    static let postColumns = "p.id, p.user_id, p.body, p.image_hash, p.image_type, p.created_at, u.username, u.first_name, u.last_name"

    static func decodePost(_ row: any SQLRow) throws -> Post {
        let hash = try row.decode(column: "image_hash", as: String?.self)
        let type = try row.decode(column: "image_type", as: String?.self).flatMap(PostImageType.init(rawValue:))
        return Post(id: try row.int64("id"), userId: try row.int64("user_id"), username: try row.string("username"),
                    firstName: try row.string("first_name"), lastName: try row.string("last_name"), body: try row.string("body"),
                    imageHash: type == nil ? nil : hash, imageType: hash == nil ? nil : type, createdAt: try row.date("created_at"))
    }

    public func follow(followerId: Int64, followeeId: Int64, at date: Date) async throws -> Bool {
        try Self.checkFollow(followerId: followerId, followeeId: followeeId)
        return try await database.transaction { db in
            guard try await db.raw("SELECT id FROM users WHERE id = \(bind: followeeId)").first() != nil else { throw StoreError.notFound }
            if try await db.raw("""
                SELECT 1 AS x FROM follows WHERE follower_id = \(bind: followerId) AND followee_id = \(bind: followeeId)
                """).first() != nil { return false }
            let count = try await db.raw("SELECT COUNT(*) AS n FROM follows WHERE follower_id = \(bind: followerId)").first()?.int("n") ?? 0
            guard count < Self.maxFollows else { throw SocialError.tooManyFollows(limit: Self.maxFollows) }
            // Two requests racing on PostgreSQL: the primary key keeps one row, the other is a no-op.
            return try await db.raw("""
                INSERT INTO follows (follower_id, followee_id, created_at)
                VALUES (\(bind: followerId), \(bind: followeeId), \(bind: date.millis))
                ON CONFLICT (follower_id, followee_id) DO NOTHING RETURNING follower_id
                """).first() != nil
        }
    }

    /// What is refused before the database is asked.
    static func checkFollow(followerId: Int64, followeeId: Int64) throws {
        guard followerId != followeeId else { throw SocialError.cannotFollowSelf }
    }

    public func unfollow(followerId: Int64, followeeId: Int64) async throws -> Bool {
        try await database.transaction { db in
            try await db.raw("""
                DELETE FROM follows WHERE follower_id = \(bind: followerId) AND followee_id = \(bind: followeeId) RETURNING follower_id
                """).first() != nil
        }
    }

    public func socialProfile(username: String, viewerId: Int64?) async throws -> SocialProfile? {
        guard username.count <= 64 else { return nil }
        let key = Registration.usernameKey(username)
        return try await database.read { db in
            guard let row = try await db.raw("""
                SELECT u.id, u.username, u.first_name, u.last_name,
                  (SELECT COUNT(*) FROM follows f WHERE f.followee_id = u.id) AS followers,
                  (SELECT COUNT(*) FROM follows f WHERE f.follower_id = u.id) AS following,
                  (SELECT COUNT(*) FROM follows f WHERE f.follower_id = \(bind: viewerId ?? 0) AND f.followee_id = u.id) AS followed
                FROM users u WHERE u.username_key = \(bind: key)
                """).first() else { return nil }
            return SocialProfile(userId: try row.int64("id"), username: try row.string("username"), firstName: try row.string("first_name"),
                                 lastName: try row.string("last_name"), followers: try row.int("followers"),
                                 following: try row.int("following"), followedByViewer: try row.int("followed") > 0)
        }
    }

    public func searchUsers(_ query: String, limit: Int, viewerId: Int64?) async throws -> [UserMatch] {
        let term = query.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !term.isEmpty, term.count <= 100 else { return [] }
        // `\`, `%` and `_` in what was typed match themselves.
        let escaped = term.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        let pattern = "%\(escaped)%"
        let prefix = "\(escaped)%"
        return try await database.read { db in
            try await db.raw("""
                SELECT u.id, u.username, u.first_name, u.last_name,
                       CASE WHEN EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = \(bind: viewerId ?? 0) AND f.followee_id = u.id)
                            THEN 1 ELSE 0 END AS followed
                FROM users u
                WHERE u.username_key LIKE \(bind: pattern) ESCAPE '\\'
                   OR LOWER(u.first_name || ' ' || u.last_name) LIKE \(bind: pattern) ESCAPE '\\'
                ORDER BY CASE WHEN u.username_key LIKE \(bind: prefix) ESCAPE '\\' THEN 0 ELSE 1 END, u.username_key
                LIMIT \(bind: max(1, min(limit, 100)))
                """).all().map {
                UserMatch(userId: try $0.int64("id"), username: try $0.string("username"),
                          firstName: try $0.string("first_name"), lastName: try $0.string("last_name"),
                          followedByViewer: try $0.int("followed") == 1)
            }
        }
    }

    public func createPost(_ post: NewPost) async throws -> Post {
        try await insertPost(post, body: try Self.postBody(post))
    }

    /// The text a post is stored with; `SocialError.invalidPost` (before the database is asked)
    /// when it cannot be posted.
    static func postBody(_ post: NewPost) throws -> String {
        do {
            return try PostText.normalize(post.body, hasImage: post.imageHash != nil)
        } catch {
            throw SocialError.invalidPost(error.message)
        }
    }

    /// Stores `post` with its text as `postBody` made it.
    func insertPost(_ post: NewPost, body: String) async throws -> Post {
        let hash = post.imageType == nil ? nil : post.imageHash
        return try await database.transaction { db in
            guard let row = try await db.raw("""
                INSERT INTO posts (user_id, body, image_hash, image_type, image_bytes, created_at)
                VALUES (\(bind: post.userId), \(bind: body), \(bind: hash), \(bind: hash == nil ? nil : post.imageType?.rawValue),
                        \(bind: hash == nil ? nil : Int64(post.imageBytes)), \(bind: post.createdAt.millis))
                RETURNING id
                """).first() else { throw StoreError.notFound }
            let id = try row.int64("id")
            guard let stored = try await db.raw("""
                SELECT \(unsafeRaw: Self.postColumns) FROM posts p JOIN users u ON u.id = p.user_id WHERE p.id = \(bind: id)
                """).first() else { throw StoreError.notFound }
            return try Self.decodePost(stored)
        }
    }

    @discardableResult
    public func deletePost(id: Int64, userId: Int64) async throws -> PostImageName? {
        try await database.transaction { db in
            guard let row = try await db.raw("SELECT user_id, image_hash, image_type FROM posts WHERE id = \(bind: id)").first() else {
                throw StoreError.notFound
            }
            guard try row.int64("user_id") == userId else { throw SocialError.forbidden }
            try await db.raw("DELETE FROM posts WHERE id = \(bind: id)").run()
            guard let hash = try row.decode(column: "image_hash", as: String?.self),
                  let type = try row.decode(column: "image_type", as: String?.self).flatMap(PostImageType.init(rawValue:)),
                  try await db.raw("SELECT 1 AS used FROM posts WHERE image_hash = \(bind: hash) LIMIT 1").first() == nil,
                  // Questions show pictures from the same files (archived ones in history too).
                  try await db.raw("SELECT 1 AS used FROM questions WHERE picture_hash = \(bind: hash) LIMIT 1").first() == nil,
                  // And covers.
                  try await db.raw("""
                      SELECT 1 AS used FROM subjects WHERE cover_hash = \(bind: hash)
                      UNION ALL SELECT 1 FROM quizzes WHERE cover_hash = \(bind: hash) LIMIT 1
                      """).first() == nil
            else { return nil }
            return PostImageName(hash: hash, type: type)
        }
    }

    public func imageBytes(userId: Int64) async throws -> Int {
        try await database.read { db in
            let row = try await db.raw("SELECT CAST(COALESCE(SUM(image_bytes), 0) AS BIGINT) AS bytes FROM posts WHERE user_id = \(bind: userId)").first()
            return Int(try row?.int64("bytes") ?? 0)
        }
    }

    public func post(id: Int64) async throws -> Post? {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.postColumns) FROM posts p JOIN users u ON u.id = p.user_id WHERE p.id = \(bind: id)
                """).first().map(Self.decodePost)
        }
    }

    public func posts(userId: Int64, after cursor: FeedCursor?, limit: Int) async throws -> PostsPage {
        let limit = Self.pageSize(limit)
        let before = cursor?.beforeId ?? Int64.max
        let rows = try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.postColumns) FROM posts p CROSS JOIN users u
                WHERE u.id = p.user_id AND p.user_id = \(bind: userId) AND p.id < \(bind: before)
                ORDER BY p.id DESC LIMIT \(bind: limit + 1)
                """).all().map(Self.decodePost)
        }
        let shown = Array(rows.prefix(limit))
        let next = rows.count > limit ? shown.last.map { FeedCursor(beforeId: $0.id, shown: (cursor?.shown ?? 0) + shown.count, articleAnchor: 0) } : nil
        return PostsPage(posts: shown, next: next)
    }
}
