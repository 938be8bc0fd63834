import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import QuizTestSupport
import Testing

/// The smallest PNG: a signature, IHDR, IDAT and IEND for one transparent pixel.
let tinyPNG: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
    0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0B, 0x49, 0x44, 0x41,
    0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x02, 0x00, 0x00, 0x05, 0x00, 0x01, 0x7A, 0x5E, 0xAB, 0x3F, 0x00, 0x00, 0x00, 0x00,
    0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
]

@Suite struct SocialAPITests {
    @Test func followingShowsInCountsAndYourselfOrTwiceIsHandled() async throws {
        try await withApp { client, _ in
            let ada = try await client.signUp("ada")
            _ = try await client.signUp("bob")
            let followed = try await client.call(.put, "/api/v1/users/bob/follow", token: ada)
            #expect(followed.status == .ok, "\(followed.raw)")
            #expect(followed["followers"] as? Int == 1)
            #expect(followed["followedByMe"] as? Bool == true)
            let twice = try await client.call(.put, "/api/v1/users/BOB/follow", token: ada)
            #expect(twice.status == .ok && twice["followers"] as? Int == 1)
            let me = try await client.call(.put, "/api/v1/users/ada/follow", token: ada)
            #expect(me.status == .unprocessableContent)
            #expect(me.errorCode == "cannot_follow_self")
            let nobody = try await client.call(.put, "/api/v1/users/nobody/follow", token: ada)
            #expect(nobody.status == .notFound)
            let page = try await client.call(.get, "/api/v1/users/ada", token: ada)
            #expect((page["user"] as? [String: Any])?["following"] as? Int == 1)
            let unfollowed = try await client.call(.delete, "/api/v1/users/bob/follow", token: ada)
            #expect(unfollowed["followers"] as? Int == 0)
            #expect(try await client.call(.put, "/api/v1/users/bob/follow").status == .unauthorized)
        }
    }

    @Test func searchFindsPeopleByName() async throws {
        try await withApp { client, _ in
            let ada = try await client.signUp("ada")
            _ = try await client.signUp("bobby")
            let found = try await client.call(.get, "/api/v1/users?q=BOB", token: ada)
            #expect((found["users"] as? [[String: Any]])?.map { $0["username"] as? String } == ["bobby"])
            let long = try await client.call(.get, "/api/v1/users?q=\(String(repeating: "a", count: 101))", token: ada)
            #expect(long.status.code / 100 == 4)
        }
    }

    @Test func postsWithImagesAreStoredByHashAndServedWithTheirType() async throws {
        try await withApp { client, _ in
            let ada = try await client.signUp("ada")
            let created = try await client.call(.post, "/api/v1/posts", token: ada,
                                                json: ["text": "<script>alert(1)</script>", "image": Data(tinyPNG).base64EncodedString()])
            #expect(created.status == .created, "\(created.raw)")
            let url = try #require(created["imageUrl"] as? String)
            #expect(url.hasPrefix("/images/") && url.hasSuffix(".png") && url.count == "/images/".count + 64 + 4)
            #expect(created["text"] as? String == "<script>alert(1)</script>")
            try await client.execute(uri: url, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[.cacheControl]?.contains("immutable") == true)
                #expect(Array(buffer: response.body) == tinyPNG)
            }
            let unknown = "/images/" + String(repeating: "0", count: 64) + ".png"
            try await client.execute(uri: unknown, method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/images/..%2F..%2Fetc%2Fpasswd", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test func fakeEmptyAndOversizedPostsAreRefusedClearly() async throws {
        try await withApp { client, _ in
            let ada = try await client.signUp("ada")
            let fake = try await client.call(.post, "/api/v1/posts", token: ada,
                                             json: ["text": "hi", "image": Data("just text, named photo.png".utf8).base64EncodedString()])
            #expect(fake.status == .unsupportedMediaType)
            #expect(fake.errorCode == "unsupported_image")
            let empty = try await client.call(.post, "/api/v1/posts", token: ada, json: ["text": "   "])
            #expect(empty.status == .unprocessableContent)
            #expect(empty.errorField == "text")
            let long = try await client.call(.post, "/api/v1/posts", token: ada, json: ["text": String(repeating: "x", count: 2_001)])
            #expect(long.status == .unprocessableContent)
            // 5 MiB and one byte, still small enough a body for the route: refused by the image limit.
            let justOver = Data(tinyPNG + [UInt8](repeating: 0, count: PostImageType.maxBytes + 1 - tinyPNG.count))
            let over = try await client.call(.post, "/api/v1/posts", token: ada, json: ["text": "big", "image": justOver.base64EncodedString()])
            #expect(over.status == .contentTooLarge)
            #expect(over.errorCode == "image_too_large")
            // 6 MB: the body itself is over the route's limit.
            let huge = Data(tinyPNG + [UInt8](repeating: 0, count: 6_000_000))
            let tooBig = try await client.call(.post, "/api/v1/posts", token: ada, json: ["text": "huge", "image": huge.base64EncodedString()])
            #expect(tooBig.status == .contentTooLarge)
            #expect(tooBig.errorCode == "image_too_large")
            let feed = try await client.call(.get, "/api/v1/feed", token: ada)
            #expect((feed["items"] as? [Any])?.isEmpty == true)
        }
    }

    /// 875 bytes claiming 30,000 × 30,000 pixels would take 3.4 GiB in every viewer's browser.
    @Test func aPostImageOfMoreThanFortyMegapixelsIsRefusedInTheReadersLanguage() async throws {
        try await withApp { client, env in
            let ada = try await client.signUp("ada")
            for bomb in [PictureBytes.png(width: 30_000, height: 30_000), PictureBytes.jpeg(width: 7_000, height: 7_000)] {
                let refused = try await client.call(.post, "/api/v1/posts", token: ada, json: ["text": "look", "image": bomb.base64EncodedString()])
                #expect(refused.status == .contentTooLarge, "\(refused.raw)")
                #expect(refused.errorCode == "image_too_large" && refused.errorField == "image")
                let message = (refused["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("40 megapixels"), "\(message)")
            }
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(ada)"
            headers[.contentType] = "application/json"
            headers[.acceptLanguage] = "fi"
            let body = try JSONSerialization.data(withJSONObject: ["text": "katso", "image": PictureBytes.png(width: 30_000, height: 30_000).base64EncodedString()])
            let finnish = try await client.execute(uri: "/api/v1/posts", method: .post, headers: headers, body: ByteBuffer(bytes: body)) {
                String(buffer: $0.body)
            }
            #expect(finnish.contains("40 megapikseliä"), "\(finnish)")
            let feed = try await client.call(.get, "/api/v1/feed", token: ada)
            #expect((feed["items"] as? [Any])?.isEmpty == true)
            let images = URL(fileURLWithPath: env.config.dataDirectory).appendingPathComponent("images").path
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: images)) ?? []).isEmpty, "no picture file was kept")
        }
    }

    @Test func theFeedPagesByCursorAndOnlyAuthorsDelete() async throws {
        try await withApp { client, env in
            let ada = try await client.signUp("ada")
            let bob = try await client.signUp("bob")
            _ = try await client.call(.put, "/api/v1/users/bob/follow", token: ada)
            var ids: [Int] = []
            for i in 0..<12 {
                let post = try await client.call(.post, "/api/v1/posts", token: i % 2 == 0 ? ada : bob, json: ["text": "post \(i)"])
                ids.append(try #require(post["id"] as? Int))
            }
            let first = try await client.call(.get, "/api/v1/feed?limit=10", token: ada)
            let items = try #require(first["items"] as? [[String: Any]])
            #expect(items.compactMap { ($0["post"] as? [String: Any])?["id"] as? Int } == Array(ids.reversed().prefix(10)))
            let cursor = try #require(first["nextCursor"] as? String)
            let second = try await client.call(.get, "/api/v1/feed?limit=10&cursor=\(cursor)", token: ada)
            #expect((second["items"] as? [[String: Any]])?.compactMap { ($0["post"] as? [String: Any])?["id"] as? Int } == [ids[1], ids[0]])
            #expect(second["nextCursor"] == nil)
            let bad = try await client.call(.get, "/api/v1/feed?cursor=nonsense", token: ada)
            #expect(bad.status == .badRequest && bad.errorCode == "invalid_cursor")
            let others = try await client.call(.delete, "/api/v1/posts/\(ids[1])", token: ada)
            #expect(others.status == .forbidden)
            #expect(try await client.call(.delete, "/api/v1/posts/\(ids[1])", token: bob).status == .noContent)
            #expect(try await client.call(.delete, "/api/v1/posts/\(ids[1])", token: bob).status == .notFound)
            _ = env
        }
    }
}
