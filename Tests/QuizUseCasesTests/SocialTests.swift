import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Posting, deleting, following, the feed and people, on the use cases themselves.
@Suite struct SocialTests {
    /// The smallest PNG: one transparent pixel.
    static let png = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0B, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x02, 0x00, 0x00, 0x05, 0x00, 0x01, 0x7A, 0x5E, 0xAB, 0x3F, 0x00, 0x00, 0x00, 0x00,
        0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ])

    /// The use cases over `env`, with pictures in a folder of their own.
    struct Social {
        let env: UseCaseEnvironment
        let images: ImageFiles
        let post: PostToFeed
        let delete: DeletePost
        let following: Following
        let feed: Feed
        let people: People

        init(_ env: UseCaseEnvironment, folder: URL, limits: PostToFeed.Limits) {
            self.env = env
            images = ImageFiles(dataDirectory: folder.path)
            post = PostToFeed(store: env.store, images: images, limiter: RateLimiter(time: env.time), limits: limits, time: env.time)
            delete = DeletePost(store: env.store, images: images)
            following = Following(store: env.store, time: env.time)
            feed = Feed(store: env.store)
            people = People(store: env.store)
        }

        func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: images.directory.path)) ?? [] }

        func feedPosts(_ userId: Int64, cursor: String? = nil, limit: Int = Feed.pageSize) async throws -> (texts: [String], next: String?) {
            let page = try await feed.page(userId: userId, cursor: cursor, limit: limit)
            let texts = page.items.compactMap { item -> String? in if case .post(let post) = item { post.body } else { nil } }
            return (texts, page.next?.token)
        }
    }

    static let roomy = PostToFeed.Limits(perMinute: 100, perHour: 1_000, imagesPerHour: 100, imageQuotaBytes: 1 << 20)

    func withSocial(limits: PostToFeed.Limits = roomy, _ body: (Social) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-images-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withUseCases { env in try await body(Social(env, folder: folder, limits: limits)) }
    }

    // MARK: Posting

    @Test func aPostSaysSomethingOrShowsAPicture() async throws {
        try await withSocial { social in
            let ada = try await social.env.register("ada")
            await #expect(throws: PostToFeed.Failure.self) { try await social.post(userId: ada.id, text: "  \n ", image: nil) }
            await #expect(throws: PostToFeed.Failure.self) {
                try await social.post(userId: ada.id, text: String(repeating: "x", count: PostText.maxCharacters + 1), image: nil)
            }
            let picture = try await social.post(userId: ada.id, text: "", image: Self.png)
            #expect(picture.imageType == .png)
            let text = try await social.post(userId: ada.id, text: "  hello\r\nworld ", image: Data())
            #expect(text.body == "hello\nworld" && text.imageHash == nil, "an empty file is no picture")
        }
    }

    @Test func postingFasterThanTheLimitsIsRefusedForThatPersonOnly() async throws {
        let limits = PostToFeed.Limits(perMinute: 3, perHour: 5, imagesPerHour: 1, imageQuotaBytes: 1 << 20)
        try await withSocial(limits: limits) { social in
            let ada = try await social.env.register("ada")
            let bob = try await social.env.register("bob")
            for n in 0..<3 { _ = try await social.post(userId: ada.id, text: "post \(n)", image: nil) }
            await #expect(throws: PostToFeed.Failure.tooManyPosts) { try await social.post(userId: ada.id, text: "one more", image: nil) }
            _ = try await social.post(userId: bob.id, text: "mine", image: Self.png)
            await #expect(throws: PostToFeed.Failure.tooManyPosts) { try await social.post(userId: bob.id, text: "again", image: Self.png) }
            social.env.time.advance(by: 61)
            _ = try await social.post(userId: ada.id, text: "a minute later", image: nil)
            _ = try await social.post(userId: bob.id, text: "text still goes", image: nil)
            #expect(try await social.feedPosts(ada.id).texts.count == 4)
        }
    }

    @Test func picturesAreCheckedByTheirBytesAndNothingIsPostedWhenOneIsRefused() async throws {
        let limits = PostToFeed.Limits(perMinute: 100, perHour: 100, imagesPerHour: 100, imageQuotaBytes: 150_000)
        try await withSocial(limits: limits) { social in
            let ada = try await social.env.register("ada")
            await #expect(throws: PostToFeed.Failure.notAnImage) {
                try await social.post(userId: ada.id, text: "my holiday", image: Data("only text, named photo.png".utf8))
            }
            let huge = Self.png + Data(count: PostImageType.maxBytes)
            await #expect(throws: PostToFeed.Failure.imageQuotaExceeded(quotaBytes: 150_000)) {
                try await social.post(userId: ada.id, text: "big", image: huge)
            }
            #expect(social.files().isEmpty)
            #expect(try await social.feedPosts(ada.id).texts.isEmpty)

            let first = try await social.post(userId: ada.id, text: "pic", image: Self.png + Data(count: 100_000))
            #expect(social.files() == [try #require(first.imageFileName)])
            await #expect(throws: PostToFeed.Failure.imageQuotaExceeded(quotaBytes: 150_000)) {
                try await social.post(userId: ada.id, text: "pic", image: Self.png + Data(count: 60_000))
            }
            try await social.delete(postId: first.id, userId: ada.id)
            #expect(social.files().isEmpty, "the picture's file goes with its last post")
            _ = try await social.post(userId: ada.id, text: "pic", image: Self.png + Data(count: 60_000))
        }
    }

    @Test func aPictureOverTheSizeLimitIsRefused() async throws {
        let limits = PostToFeed.Limits(perMinute: 100, perHour: 100, imagesPerHour: 100, imageQuotaBytes: 100 << 20)
        try await withSocial(limits: limits) { social in
            let ada = try await social.env.register("ada")
            await #expect(throws: PostToFeed.Failure.imageTooLarge(maxBytes: PostImageType.maxBytes)) {
                try await social.post(userId: ada.id, text: "big", image: Self.png + Data(count: PostImageType.maxBytes))
            }
        }
    }

    @Test func onlyItsAuthorDeletesAPostAndASharedPictureStays() async throws {
        try await withSocial { social in
            let ada = try await social.env.register("ada")
            let bob = try await social.env.register("bob")
            let hers = try await social.post(userId: ada.id, text: "same picture", image: Self.png)
            let his = try await social.post(userId: bob.id, text: "same picture", image: Self.png)
            #expect(social.files().count == 1)
            await #expect(throws: DeletePost.Failure.notYours) { try await social.delete(postId: hers.id, userId: bob.id) }
            try await social.delete(postId: hers.id, userId: ada.id)
            #expect(social.files().count == 1, "Bob's post still shows it")
            await #expect(throws: DeletePost.Failure.notFound) { try await social.delete(postId: hers.id, userId: ada.id) }
            try await social.delete(postId: his.id, userId: bob.id)
            #expect(social.files().isEmpty)
        }
    }

    // MARK: Following

    @Test func followingCountsOnceAndNotOneself() async throws {
        try await withSocial { social in
            let ada = try await social.env.register("ada")
            _ = try await social.env.register("bob")
            let followed = try await social.following.follow("bob", viewerId: ada.id)
            #expect(followed.followers == 1 && followed.followedByViewer)
            #expect(try await social.following.follow("BOB", viewerId: ada.id).followers == 1, "twice, in any case")
            await #expect(throws: Following.Failure.cannotFollowSelf) { try await social.following.follow("ada", viewerId: ada.id) }
            await #expect(throws: Following.Failure.noSuchUser("nobody")) { try await social.following.follow("nobody", viewerId: ada.id) }
            let unfollowed = try await social.following.unfollow("bob", viewerId: ada.id)
            #expect(unfollowed.followers == 0 && !unfollowed.followedByViewer)
            #expect(try await social.following.unfollow("bob", viewerId: ada.id).followers == 0, "not following is no error")
        }
    }

    // MARK: The feed

    @Test func theFeedShowsOnesOwnAndFollowedPostsNewestFirstAPageAtATime() async throws {
        try await withSocial { social in
            let ada = try await social.env.register("ada")
            let bob = try await social.env.register("bob")
            let eve = try await social.env.register("eve")
            _ = try await social.following.follow("bob", viewerId: ada.id)
            for n in 0..<5 {
                _ = try await social.post(userId: n % 2 == 0 ? ada.id : bob.id, text: "post \(n)", image: nil)
                _ = try await social.post(userId: eve.id, text: "eve \(n)", image: nil)
            }
            let first = try await social.feedPosts(ada.id, limit: 3)
            #expect(first.texts == ["post 4", "post 3", "post 2"])
            let second = try await social.feedPosts(ada.id, cursor: first.next, limit: 3)
            #expect(second.texts == ["post 1", "post 0"])
            #expect(second.next == nil)
            #expect(try await social.feedPosts(ada.id, cursor: "").texts.count == 5, "an empty cursor is the first page")
        }
    }

    @Test(arguments: ["nonsense", "0-0-0", "5--1-0", "1-2", String(repeating: "9", count: 70)])
    func aCursorThisServerDidNotHandOutIsRefused(cursor: String) async throws {
        try await withSocial { social in
            let ada = try await social.env.register("ada")
            await #expect(throws: Feed.Failure.invalidCursor) { try await social.feed.page(userId: ada.id, cursor: cursor) }
            await #expect(throws: People.Failure.invalidCursor) {
                try await social.people.page(username: "ada", viewerId: ada.id, cursor: cursor)
            }
        }
    }

    // MARK: People

    @Test func peopleAreFoundByNameAndTheirPageShowsTheirPosts() async throws {
        try await withSocial { social in
            let ada = try await social.env.register("ada")
            let bobby = try await social.env.register("bobby")
            #expect(try await social.people.search("  BOB ")?.map(\.username) == ["bobby"])
            #expect(try await social.people.search("   ") == nil, "nothing to search for")
            await #expect(throws: People.Failure.queryTooLong(maxCharacters: 100)) {
                try await social.people.search(String(repeating: "a", count: 101))
            }
            _ = try await social.post(userId: bobby.id, text: "hello", image: nil)
            let page = try await social.people.page(username: "Bobby", viewerId: ada.id, cursor: nil)
            #expect(page.profile.username == "bobby" && !page.isViewer)
            #expect(page.posts.posts.map(\.body) == ["hello"])
            #expect(try await social.people.page(username: "ada", viewerId: ada.id, cursor: nil).isViewer)
            await #expect(throws: People.Failure.noSuchUser("nobody")) {
                try await social.people.page(username: "nobody", viewerId: ada.id, cursor: nil)
            }
        }
    }
}
