import Foundation
import QuizCore
import QuizStore

/// Posting to the feed, with or without a picture: the text's rules, the per-person limits, the
/// picture's checks (size, then its type from its bytes) and the picture quota. Nothing is
/// posted, and no picture stored, when any of them refuses.
package struct PostToFeed: Sendable {
    package enum Failure: Error, Equatable {
        /// The text breaks a rule of `PostText`.
        case invalidText(String)
        case tooManyPosts
        case imageTooLarge(maxBytes: Int)
        case notAnImage
        /// More pixels than `PostImageType.maxPixels`: a small file that would take gigabytes to show.
        case imageTooManyPixels(width: Int, height: Int)
        /// The picture would take the person's pictures past their quota.
        case imageQuotaExceeded(quotaBytes: Int)

        init(_ refusal: ImageFiles.Refusal) {
            switch refusal {
            case .tooLarge: self = .imageTooLarge(maxBytes: PostImageType.maxBytes)
            case .notAnImage: self = .notAnImage
            case .tooManyPixels(let width, let height): self = .imageTooManyPixels(width: width, height: height)
            }
        }
    }

    /// Posts per person: a burst of a few a minute, a day's worth an hour, pictures per hour, and
    /// the bytes of pictures one person's posts may hold together.
    package struct Limits: Sendable {
        package var perMinute: Int
        package var perHour: Int
        package var imagesPerHour: Int
        package var imageQuotaBytes: Int

        package init(perMinute: Int, perHour: Int, imagesPerHour: Int, imageQuotaBytes: Int) {
            self.perMinute = perMinute
            self.perHour = perHour
            self.imagesPerHour = imagesPerHour
            self.imageQuotaBytes = imageQuotaBytes
        }
    }

    let store: any SocialStore
    let images: ImageFiles
    let limiter: RateLimiter
    let limits: Limits
    let time: any TimeSource

    package init(store: any SocialStore, images: ImageFiles, limiter: RateLimiter, limits: Limits, time: any TimeSource) {
        self.store = store
        self.images = images
        self.limiter = limiter
        self.limits = limits
        self.time = time
    }

    /// Seconds someone posting too fast should wait.
    package static var retryAfter: Int { 60 }

    /// An empty `image` is no image (a form's file field left empty).
    /// Every mistake of a post at once, by field, checked before anything is stored: what a form
    /// shows next to each of its fields (the post itself stops at the first).
    package static func problems(text: String, image: Data?) -> (text: String?, image: Failure?) {
        let image = image.flatMap { $0.isEmpty ? nil : $0 }
        var found: (text: String?, image: Failure?) = (nil, nil)
        do { _ = try PostText.normalize(text, hasImage: image != nil) } catch { found.text = error.message }
        if let image {
            do {
                _ = try ImageFiles.check(image)
            } catch {
                found.image = Failure(error)
            }
        }
        return found
    }

    package func callAsFunction(userId: Int64, text: String, image: Data?) async throws -> Post {
        let image = image.flatMap { $0.isEmpty ? nil : $0 }
        // The text first: a refused post stores no image either.
        do {
            _ = try PostText.normalize(text, hasImage: image != nil)
        } catch {
            throw Failure.invalidText(error.message)
        }
        var checks: [RateLimiter.Check] = [
            .init(key: "post-min:\(userId)", limit: limits.perMinute, window: 60),
            .init(key: "post-hour:\(userId)", limit: limits.perHour, window: 3600),
        ]
        if image != nil { checks.append(.init(key: "post-image:\(userId)", limit: limits.imagesPerHour, window: 3600)) }
        guard try await limiter.allow(checks) else { throw Failure.tooManyPosts }
        var stored: (hash: String, type: PostImageType)?
        if let image {
            if try await store.imageBytes(userId: userId) + image.count > limits.imageQuotaBytes {
                throw Failure.imageQuotaExceeded(quotaBytes: limits.imageQuotaBytes)
            }
            do {
                stored = try images.store(image)
            } catch let refusal as ImageFiles.Refusal {
                throw Failure(refusal)
            }
        }
        do {
            let post = try await store.createPost(NewPost(userId: userId, body: text, imageHash: stored?.hash, imageType: stored?.type,
                                                          imageBytes: image?.count ?? 0, createdAt: time.now()))
            // The last post sharing these bytes may have been deleted, and its file with it,
            // between storing and this insert: write the file again if so.
            if let image { _ = try images.store(image) }
            return post
        } catch SocialError.invalidPost(let message) {
            throw Failure.invalidText(message)
        }
    }
}
