import Foundation
import HTTPTypes
import QuizCore
import QuizStore
import QuizUseCases

/// Posting and following, shared by the pages and the API: store errors become `APIError`s here.
struct Posting: Sendable {
    let store: Store
    let images: ImageFiles
    let time: any TimeSource
    let limiter: RateLimiter
    /// Posts per user: a burst of a few a minute, a day's worth an hour, and the bytes of
    /// pictures one user's posts may hold together.
    let limits: ServerConfig.PostLimits

    /// Stores the image (when there is one) and the post; nothing is posted when either is refused.
    func create(userId: Int64, text: String, image: Data?) async throws -> Post {
        let hasImage = image.map { !$0.isEmpty } ?? false
        // The text first: a refused post stores no image either.
        do {
            _ = try PostText.normalize(text, hasImage: hasImage)
        } catch {
            throw APIError(.unprocessableContent, "invalid_post", error.message, field: "text")
        }
        var checks: [RateLimiter.Check] = [
            .init(key: "post-min:\(userId)", limit: limits.perMinute, window: 60),
            .init(key: "post-hour:\(userId)", limit: limits.perHour, window: 3600),
        ]
        if hasImage { checks.append(.init(key: "post-image:\(userId)", limit: limits.imagesPerHour, window: 3600)) }
        guard try await limiter.allow(checks) else {
            var error = APIError(.tooManyRequests, "too_many_posts", "You are posting faster than Quizbox allows. Wait a few minutes and try again.")
            error.retryAfter = 60
            throw error
        }
        if let image, hasImage, try await store.imageBytes(userId: userId) + image.count > limits.imageQuotaBytes {
            throw APIError(.contentTooLarge, "image_quota_exceeded",
                           "Your posts' pictures would take more than your \(limits.imageQuotaBytes >> 20) MiB. Delete some posts with pictures first. Nothing was posted.",
                           field: "image")
        }
        var stored: (hash: String, type: PostImageType)?
        if let image, hasImage {
            do {
                stored = try images.store(image)
            } catch ImageFiles.Refusal.tooLarge {
                throw APIError(.contentTooLarge, "image_too_large",
                               "The image is larger than the limit of \(PostImageType.maxBytes >> 20) MiB. Nothing was posted.", field: "image")
            } catch ImageFiles.Refusal.notAnImage {
                throw APIError(.unsupportedMediaType, "unsupported_image",
                               "That file is not a PNG, JPEG or WebP image (checked from its contents, not its name). Nothing was posted.",
                               field: "image")
            }
        }
        do {
            let post = try await store.createPost(NewPost(userId: userId, body: text, imageHash: stored?.hash, imageType: stored?.type,
                                                          imageBytes: image?.count ?? 0, createdAt: time.now()))
            // The last post sharing these bytes may have been deleted, and its file with it,
            // between storing and this insert: write the file again if so.
            if let image, stored != nil { _ = try images.store(image) }
            return post
        } catch SocialError.invalidPost(let message) {
            throw APIError(.unprocessableContent, "invalid_post", message, field: "text")
        }
    }

    func delete(postId: Int64, userId: Int64) async throws {
        do {
            // Its image file goes when no other post shows the same bytes.
            if let unused = try await store.deletePost(id: postId, userId: userId) { images.remove(unused) }
        } catch StoreError.notFound {
            throw APIError.notFound("post")
        } catch SocialError.forbidden {
            throw APIError(.forbidden, "forbidden", "Only its author can delete a post.")
        }
    }

    /// The profile of `username`, or 404.
    func profile(_ username: String, viewerId: Int64?) async throws -> SocialProfile {
        guard let profile = try await store.socialProfile(username: username, viewerId: viewerId) else {
            throw APIError(.notFound, "not_found", "No user is called \(username.prefix(64)).")
        }
        return profile
    }

    /// Follows (`true`) or unfollows `username`; returns their profile with the new counts.
    func setFollowing(_ following: Bool, username: String, viewerId: Int64) async throws -> SocialProfile {
        let target = try await profile(username, viewerId: viewerId)
        do {
            if following {
                try await store.follow(followerId: viewerId, followeeId: target.userId, at: time.now())
            } else {
                try await store.unfollow(followerId: viewerId, followeeId: target.userId)
            }
        } catch SocialError.cannotFollowSelf {
            throw APIError(.unprocessableContent, "cannot_follow_self", "You cannot follow yourself: your own posts are always in your feed.")
        } catch SocialError.tooManyFollows(let limit) {
            throw APIError(.unprocessableContent, "too_many_follows", "You follow \(limit) people, the most anyone can: unfollow someone first.")
        } catch StoreError.notFound {
            throw APIError(.notFound, "not_found", "No user is called \(username.prefix(64)).")
        }
        return try await profile(username, viewerId: viewerId)
    }

    /// The cursor a client sent back, or a clear 400.
    static func cursor(_ token: String?) throws -> FeedCursor? {
        guard let token, !token.isEmpty else { return nil }
        guard let cursor = FeedCursor(token: token) else {
            throw APIError(.badRequest, "invalid_cursor", "That cursor is not one this server handed out: start from the first page.", field: "cursor")
        }
        return cursor
    }

    static var pageSize: Int { 20 }
}
