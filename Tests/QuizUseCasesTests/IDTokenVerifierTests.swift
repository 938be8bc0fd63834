import Crypto
import Foundation
import QuizUseCases
import Testing

/// ID token checks on their own: what the fake provider's RS256 tokens do not reach (ES256, other
/// algorithms, unknown keys, several audiences, a malformed token).
@Suite struct IDTokenVerifierTests {
    let key = P256.Signing.PrivateKey()
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    var jwk: JSONWebKey {
        let raw = key.publicKey.rawRepresentation
        return JSONWebKey(kty: "EC", kid: "ec1", use: "sig", alg: "ES256", crv: "P-256",
                          x: Base64URL.encode(raw.prefix(32)), y: Base64URL.encode(raw.suffix(32)))
    }

    func token(alg: String = "ES256", kid: String = "ec1", claims: [String: Any] = [:], tamper: Bool = false) throws -> String {
        var all: [String: Any] = ["iss": "https://id.example", "aud": "app", "sub": "u1", "nonce": "n1",
                                  "exp": Int(now.timeIntervalSince1970) + 300]
        all.merge(claims) { _, new in new }
        let header = Base64URL.encode(try JSONSerialization.data(withJSONObject: ["alg": alg, "kid": kid]))
        let payload = Base64URL.encode(try JSONSerialization.data(withJSONObject: all))
        let signature = try key.signature(for: SHA256.hash(data: Data("\(header).\(payload)".utf8))).rawRepresentation
        let sent = tamper ? Base64URL.encode(try JSONSerialization.data(withJSONObject: all.merging(["sub": "admin"]) { _, new in new })) : payload
        return "\(header).\(sent).\(Base64URL.encode(signature))"
    }

    func verify(_ token: String, keys: [JSONWebKey]? = nil) throws(IDTokenVerifier.Failure) -> Claims {
        try IDTokenVerifier.verify(token, keys: keys ?? [jwk], issuer: "https://id.example", clientId: "app", nonce: "n1", now: now)
    }

    @Test func anES256TokenVerifiesAndATamperedOneDoesNot() throws {
        #expect(try verify(try token())["sub"] == .string("u1"))
        #expect(throws: IDTokenVerifier.Failure.badSignature) { try verify(try token(tamper: true)) }
    }

    @Test func onlyRS256AndES256WithAPublishedKeyAreAccepted() throws {
        #expect(throws: IDTokenVerifier.Failure.unsupportedAlgorithm("none")) { try verify(try token(alg: "none")) }
        #expect(throws: IDTokenVerifier.Failure.unsupportedAlgorithm("HS256")) { try verify(try token(alg: "HS256")) }
        #expect(throws: IDTokenVerifier.Failure.unknownKey) { try verify(try token(kid: "rotated")) }
        var rsaOnly = jwk
        rsaOnly.kty = "RSA"
        #expect(throws: IDTokenVerifier.Failure.unknownKey) { try verify(try token(), keys: [rsaOnly]) }
        for malformed in ["", "a.b", "a.b.c", "....", String(repeating: "x", count: 20_000)] {
            #expect(throws: IDTokenVerifier.Failure.malformed) { try verify(malformed) }
        }
    }

    @Test func issuerAudienceTimesAndNonceAreChecked() throws {
        #expect(throws: IDTokenVerifier.Failure.wrongIssuer) { try verify(try token(claims: ["iss": "https://evil.example"])) }
        #expect(throws: IDTokenVerifier.Failure.wrongAudience) { try verify(try token(claims: ["aud": "other"])) }
        #expect(throws: IDTokenVerifier.Failure.wrongAudience) { try verify(try token(claims: ["aud": ["app", "other"]])) }
        #expect(try verify(try token(claims: ["aud": ["app", "other"], "azp": "app"]))["sub"] == .string("u1"))
        let seconds = Int(now.timeIntervalSince1970)
        // A minute of leeway for clocks that differ, no more.
        #expect(try verify(try token(claims: ["exp": seconds - 30]))["sub"] == .string("u1"))
        #expect(throws: IDTokenVerifier.Failure.expired) { try verify(try token(claims: ["exp": seconds - 61])) }
        #expect(throws: IDTokenVerifier.Failure.expired) { try verify(try token(claims: ["exp": "tomorrow"])) }
        #expect(throws: IDTokenVerifier.Failure.notYetValid) { try verify(try token(claims: ["nbf": seconds + 600])) }
        #expect(throws: IDTokenVerifier.Failure.nonceMismatch) { try verify(try token(claims: ["nonce": "n2"])) }
    }
}
