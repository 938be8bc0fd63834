import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import QuizUseCases

/// The few HTTP calls sign-in makes to a provider, each with a deadline and a size limit.
struct OAuthHTTP: OAuthTransport {
    typealias Failure = OAuthTransportFailure

    var timeout: TimeAmount = .seconds(10)
    var maxBytes = 256 << 10

    /// One client for the process, like `HTTPClient.shared` but stricter: a provider's endpoints
    /// are not followed through redirects (the token request carries the client secret), and a
    /// provider that does not answer fails after 3 seconds of connection attempts, not 90.
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(3), read: .seconds(10))))

    func getJSON<T: Decodable>(_ type: T.Type, from url: String, bearer: String?) async throws(Failure) -> T {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        return try await send(request, as: type)
    }

    /// A form POST, as the token endpoint takes it; asks for JSON (GitHub answers form-encoded otherwise).
    func postForm<T: Decodable>(_ type: T.Type, to url: String, fields: [(String, String)]) async throws(Failure) -> T {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: OAuthForm.encode(fields)))
        return try await send(request, as: type)
    }

    /// An OAuth error body: `{"error": "invalid_grant", "error_description": "…"}`.
    private struct ErrorBody: Decodable {
        var error: String
        var error_description: String?
    }

    private func send<T: Decodable>(_ request: HTTPClientRequest, as type: T.Type) async throws(Failure) -> T {
        var request = request
        request.headers.add(name: "User-Agent", value: "Quizbox")
        let response: HTTPClientResponse
        do {
            response = try await Self.client.execute(request, deadline: .now() + timeout)
        } catch {
            throw .unreachable(RemoteBankLoader.describe(error))
        }
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maxBytes {
            throw .badResponse("the answer is larger than \(maxBytes / 1024) KiB")
        }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            throw .badResponse("the answer is larger than \(maxBytes / 1024) KiB")
        } catch {
            throw .unreachable(RemoteBankLoader.describe(error))
        }
        let data = Data(body.readableBytesView)
        // GitHub reports a bad code with 200 and an error body; others with 400.
        if let failure = try? JSONDecoder().decode(ErrorBody.self, from: data) {
            throw .refused(failure.error_description.map { "\(failure.error): \($0)" } ?? failure.error)
        }
        guard response.status == .ok else {
            throw .badResponse("it answered \(response.status.code) \(response.status.reasonPhrase)")
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .badResponse("its answer is not the JSON expected")
        }
    }
}
