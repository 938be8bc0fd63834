import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import Testing

/// Bodies are refused before they are held when the caller may not send them, past the route's
/// limit whether or not their length was given, and past the memory budget with a 503.
@Suite struct BodyLimitTests {
    func send(_ client: any TestClientProtocol, _ uri: String, bytes: Int, chunked: Bool, token: String? = nil,
              contentType: String = "application/json") async throws -> (HTTPResponse.Status, String, HTTPFields) {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        if chunked { headers[.transferEncoding] = "chunked" } else { headers[.contentLength] = String(bytes) }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: uri, method: .post, headers: headers,
                                        body: ByteBuffer(repeating: UInt8(ascii: "a"), count: bytes)) {
            ($0.status, String(buffer: $0.body), $0.headers)
        }
    }

    @Test func aChunkedBodyOverTheLimitIs413NotAServerError() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            for path in ["/api/v1/sessions", "/api/v1/users", "/api/v1/posts", "/api/v1/imports"] {
                let size = path.hasSuffix("posts") ? 8 << 20 : path.hasSuffix("imports") ? 21 << 20 : 2_000_000
                for chunked in [true, false] {
                    let (status, body, _) = try await send(client, path, bytes: size, chunked: chunked, token: token)
                    #expect(status == .contentTooLarge, "\(path) chunked=\(chunked): \(body.prefix(200))")
                }
            }
        }
    }

    @Test func aPlayerCannotMakeTheServerHoldAnImport() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            let (status, body, _) = try await send(client, "/api/v1/imports", bytes: 3 << 20, chunked: false, token: token,
                                                   contentType: "application/octet-stream")
            #expect(status == .forbidden, "\(body.prefix(200))")
        }
    }

    @Test func nobodySignedOutCanMakeTheServerHoldALargeBody() async throws {
        try await withApp { client, _ in
            for path in ["/api/v1/imports", "/api/v1/posts"] {
                let (status, body, _) = try await send(client, path, bytes: 3 << 20, chunked: true)
                #expect(status == .unauthorized, "\(path): \(body.prefix(200))")
            }
            let (page, _, headers) = try await send(client, "/manage/import", bytes: 3 << 20, chunked: true,
                                                    contentType: "multipart/form-data; boundary=x")
            #expect(page == .seeOther)
            #expect(headers[.location] == "/login?next=/manage")
        }
    }

    @Test func bodiesPastTheMemoryBudgetGet503WithRetryAfter() async throws {
        try await withApp(configure: { $0.maxBodyMemoryBytes = 3 << 20; $0.maxBodyMemoryPerClientBytes = 3 << 20 }) { client, env in
            let token = try await client.signUp("writer")
            try await env.store.setRole(.author, username: "writer")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            // 4 MiB is within the import limit but more than this budget.
            let (status, body, headers) = try await send(client, "/api/v1/imports?dryRun=true", bytes: 4 << 20, chunked: false, token: token,
                                                         contentType: "application/octet-stream")
            #expect(status == .serviceUnavailable, "\(body)")
            #expect(headers[.retryAfter] == "5")
            // With its length given it fits, and is read.
            let (small, _, _) = try await send(client, "/api/v1/imports?dryRun=true", bytes: 1_000, chunked: false, token: token,
                                               contentType: "application/octet-stream")
            #expect(small != .serviceUnavailable)
        }
    }
}
