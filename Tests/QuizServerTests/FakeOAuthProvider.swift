import _CryptoExtras
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import Synchronization
import QuizUseCases
import Testing

/// An OAuth 2.0 / OpenID Connect provider for tests, served over real HTTP on loopback: discovery,
/// an authorize endpoint that approves at once, a token endpoint that checks the client secret,
/// the PKCE verifier and that each code is used once, userinfo, and its signing keys.
final class FakeOAuthProvider: Sendable {
    struct Account: Sendable {
        var subject: String
        var username: String
        var name: String = "Ada Lovelace"
        var email: String?
    }

    /// What the next ID tokens look like, to test each way one can be wrong.
    struct Behaviour: Sendable {
        var signWithOtherKey = false
        var expiresIn: TimeInterval = 300
        var nonce: String?
        var audience: String?
    }

    static let clientId = "quizbox-test"
    static let clientSecret = "fake-secret"

    let key: _RSA.Signing.PrivateKey
    let otherKey: _RSA.Signing.PrivateKey
    let time: any TimeSource
    private struct State {
        var port = 0
        var account = Account(subject: "ada-1", username: "ada")
        var behaviour = Behaviour()
        var codes: [String: (challenge: String, nonce: String?, redirect: String, account: Account)] = [:]
        var usedCodes: Set<String> = []
        var accessTokens: [String: Account] = [:]
        var tokenRequests = 0
    }
    private let state = Mutex(State())

    init(time: any TimeSource) throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        otherKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        self.time = time
    }

    var port: Int { state.withLock { $0.port } }
    var issuer: String { "http://127.0.0.1:\(port)" }
    var tokenRequests: Int { state.withLock { $0.tokenRequests } }
    func signIn(as account: Account) { state.withLock { $0.account = account } }
    func behave(_ behaviour: Behaviour) { state.withLock { $0.behaviour = behaviour } }

    /// As an OpenID Connect provider found by discovery.
    func oidcConfig(name: String = "fakeid") -> OAuthProviderConfig {
        var provider = OAuthProviderConfig(name: name, displayName: "Fake ID")
        provider.clientId = Self.clientId
        provider.clientSecret = Self.clientSecret
        provider.issuer = issuer
        provider.scopes = ["openid", "profile"]
        return provider
    }

    /// As a GitHub-like provider: no OpenID Connect, the profile from userinfo, a numeric id.
    func plainConfig(name: String = "fakehub") -> OAuthProviderConfig {
        var provider = OAuthProviderConfig(name: name, displayName: "FakeHub")
        provider.clientId = Self.clientId
        provider.clientSecret = Self.clientSecret
        provider.authorizeURL = "\(issuer)/authorize"
        provider.tokenURL = "\(issuer)/token?plain=1"
        provider.userinfoURL = "\(issuer)/user"
        provider.usernameClaim = "login"
        provider.subjectClaim = "id"
        return provider
    }

    /// Runs the provider while `body` runs.
    func run(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let app = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            self.state.withLock { $0.port = port }
            try await body()
        }
    }

    private func json(_ object: Any, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func base64URL(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    func idToken(for account: Account, nonce: String?) throws -> String {
        let behaviour = state.withLock { $0.behaviour }
        let now = time.now().timeIntervalSince1970
        var claims: [String: Any] = [
            "iss": issuer, "sub": account.subject, "aud": behaviour.audience ?? Self.clientId,
            "iat": Int(now), "exp": Int(now + behaviour.expiresIn), "preferred_username": account.username, "name": account.name,
        ]
        if let nonce = behaviour.nonce ?? nonce { claims["nonce"] = nonce }
        if let email = account.email { claims["email"] = email }
        let header = Self.base64URL(try JSONSerialization.data(withJSONObject: ["alg": "RS256", "kid": "k1", "typ": "JWT"]))
        let payload = Self.base64URL(try JSONSerialization.data(withJSONObject: claims))
        let signer = behaviour.signWithOtherKey ? otherKey : key
        let signature = try signer.signature(for: SHA256.hash(data: Data("\(header).\(payload)".utf8)), padding: .insecurePKCS1v1_5)
        return "\(header).\(payload).\(Self.base64URL(signature.rawRepresentation))"
    }

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/.well-known/openid-configuration") { _, _ in
            self.json(["issuer": self.issuer, "authorization_endpoint": "\(self.issuer)/authorize",
                       "token_endpoint": "\(self.issuer)/token", "userinfo_endpoint": "\(self.issuer)/userinfo",
                       "jwks_uri": "\(self.issuer)/jwks"])
        }
        router.get("/jwks") { _, _ in
            let primitives = try self.key.publicKey.getKeyPrimitives()
            return self.json(["keys": [["kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256",
                                        "n": Self.base64URL(primitives.modulus), "e": Self.base64URL(primitives.publicExponent)]]])
        }
        router.get("/authorize") { request, _ -> Response in
            let query = request.uri.queryParameters
            guard query["client_id"].map(String.init) == Self.clientId, query["response_type"] == "code",
                  query["code_challenge_method"] == "S256", let challenge = query["code_challenge"].map(String.init),
                  let redirect = query["redirect_uri"].map(String.init), let state = query["state"].map(String.init) else {
                return self.json(["error": "invalid_request"], status: .badRequest)
            }
            let code = UUID().uuidString
            let nonce = query["nonce"].map(String.init)
            self.state.withLock { state in
                let account = state.account
                state.codes[code] = (challenge, nonce, redirect, account)
            }
            var headers = HTTPFields()
            let encodedState = state.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            headers[.location] = "\(redirect)?code=\(code)&state=\(encodedState)"
            return Response(status: .found, headers: headers)
        }
        router.post("/token") { request, _ -> Response in
            var request = request
            let body = String(buffer: try await request.collectBody(upTo: 64 << 10))
            var form: [String: String] = [:]
            for pair in body.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
                form[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
            let plain = request.uri.queryParameters["plain"] != nil
            enum Outcome { case failure(String), success(String, Account, String?) }
            let outcome: Outcome = self.state.withLock { state in
                state.tokenRequests += 1
                guard form["client_id"] == Self.clientId, form["client_secret"] == Self.clientSecret else { return .failure("invalid_client") }
                guard form["grant_type"] == "authorization_code", let code = form["code"], let issued = state.codes[code],
                      !state.usedCodes.contains(code) else { return .failure("invalid_grant") }
                state.usedCodes.insert(code)
                guard form["redirect_uri"] == issued.redirect, let verifier = form["code_verifier"],
                      Self.base64URL(Data(SHA256.hash(data: Data(verifier.utf8)))) == issued.challenge else { return .failure("invalid_grant") }
                let access = UUID().uuidString
                state.accessTokens[access] = issued.account
                return .success(access, issued.account, issued.nonce)
            }
            switch outcome {
            case .failure(let error):
                // GitHub's way: 200 with an error body; the standard way: 400.
                return self.json(["error": error], status: plain ? .ok : .badRequest)
            case .success(let access, let account, let nonce):
                var answer: [String: Any] = ["access_token": access, "token_type": "Bearer", "expires_in": 3600]
                if !plain { answer["id_token"] = try self.idToken(for: account, nonce: nonce) }
                return self.json(answer)
            }
        }
        let userinfo: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let token = request.headers[.authorization].map { String($0.dropFirst("Bearer ".count)) } ?? ""
            guard let account = self.state.withLock({ $0.accessTokens[token] }) else {
                return self.json(["error": "invalid_token"], status: .unauthorized)
            }
            if request.uri.path == "/user" {
                // GitHub's shape: a numeric id and a login.
                return self.json(["id": Int(account.subject) ?? 0, "login": account.username, "name": account.name])
            }
            var claims: [String: Any] = ["sub": account.subject, "preferred_username": account.username, "name": account.name]
            if let email = account.email { claims["email"] = email }
            return self.json(claims)
        }
        router.get("/userinfo", use: userinfo)
        router.get("/user", use: userinfo)
        return router
    }
}
