import _CryptoExtras
import Crypto
import Foundation

/// A JSON Web Key as providers publish them under `jwks_uri`: RSA (n, e) or P-256 (x, y).
package struct JSONWebKey: Decodable, Sendable, Equatable {
    package var kty: String
    package var kid: String?
    package var use: String?
    package var alg: String?
    package var n: String?
    package var e: String?
    package var crv: String?
    package var x: String?
    package var y: String?

    package init(kty: String, kid: String? = nil, use: String? = nil, alg: String? = nil, n: String? = nil, e: String? = nil,
                 crv: String? = nil, x: String? = nil, y: String? = nil) {
        self.kty = kty
        self.kid = kid
        self.use = use
        self.alg = alg
        self.n = n
        self.e = e
        self.crv = crv
        self.x = x
        self.y = y
    }
}

package struct JSONWebKeySet: Decodable, Sendable, Equatable {
    package var keys: [JSONWebKey]
}

/// Checks an OpenID Connect ID token: RS256 or ES256 signature against the provider's keys, then
/// issuer, audience, expiry (on the injected clock) and the nonce this sign-in sent.
package struct IDTokenVerifier: Sendable {
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case malformed
        case unsupportedAlgorithm(String)
        case unknownKey
        case badSignature
        case wrongIssuer
        case wrongAudience
        case expired
        case notYetValid
        case nonceMismatch

        package var description: String {
            switch self {
            case .malformed: "the ID token is not a signed JSON Web Token"
            case .unsupportedAlgorithm(let alg): "the ID token is signed with \(alg), which Quizbox does not accept (RS256, ES256)"
            case .unknownKey: "the ID token is signed with a key the provider does not publish"
            case .badSignature: "the ID token's signature is not valid"
            case .wrongIssuer: "the ID token comes from another issuer"
            case .wrongAudience: "the ID token was issued to another application"
            case .expired: "the ID token has expired"
            case .notYetValid: "the ID token is not valid yet"
            case .nonceMismatch: "the ID token belongs to another sign-in"
            }
        }
    }

    /// Clocks differ a little between Quizbox and the provider.
    package static let leeway: TimeInterval = 60
    package static let maxTokenBytes = 16 << 10

    package struct Parsed {
        var algorithm: String
        var keyId: String?
        var claims: Claims
        var signingInput: Data
        var signature: Data
    }

    package static func parse(_ token: String) throws(Failure) -> Parsed {
        guard token.utf8.count <= maxTokenBytes else { throw .malformed }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]), let claimsData = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]) else { throw .malformed }
        struct Header: Decodable { var alg: String; var kid: String? }
        guard let header = try? JSONDecoder().decode(Header.self, from: headerData),
              let claims = try? JSONDecoder().decode(Claims.self, from: claimsData) else { throw .malformed }
        return Parsed(algorithm: header.alg, keyId: header.kid, claims: claims,
                      signingInput: Data("\(parts[0]).\(parts[1])".utf8), signature: signature)
    }

    /// The verified claims. `keys` are the provider's current keys.
    package static func verify(_ token: String, keys: [JSONWebKey], issuer: String, clientId: String, nonce: String, now: Date) throws(Failure) -> Claims {
        let parsed = try parse(token)
        guard parsed.algorithm == "RS256" || parsed.algorithm == "ES256" else { throw .unsupportedAlgorithm(parsed.algorithm) }
        let candidates = keys.filter { key in
            (parsed.keyId == nil || key.kid == parsed.keyId) && key.use != "enc"
                && (key.alg == nil || key.alg == parsed.algorithm)
                && key.kty == (parsed.algorithm == "RS256" ? "RSA" : "EC")
        }
        guard !candidates.isEmpty else { throw .unknownKey }
        guard candidates.contains(where: { isValid(parsed, key: $0) }) else { throw .badSignature }
        let claims = parsed.claims
        guard claims["iss"]?.text == issuer else { throw .wrongIssuer }
        switch claims["aud"] {
        case .string(let audience) where audience == clientId: break
        case .strings(let audiences) where audiences.contains(clientId):
            // With several audiences, `azp` must name this client (OpenID Connect Core 3.1.3.7).
            if audiences.count > 1, claims["azp"]?.text != clientId { throw .wrongAudience }
        default: throw .wrongAudience
        }
        let seconds = now.timeIntervalSince1970
        guard let expiry = claims["exp"]?.seconds, expiry + leeway > seconds else { throw .expired }
        if let notBefore = claims["nbf"]?.seconds, notBefore - leeway > seconds { throw .notYetValid }
        guard let sent = claims["nonce"]?.text, constantTimeEqual(sent, nonce) else { throw .nonceMismatch }
        return claims
    }

    private static func isValid(_ parsed: Parsed, key: JSONWebKey) -> Bool {
        switch parsed.algorithm {
        case "RS256":
            guard let n = key.n.flatMap(Base64URL.decode), let e = key.e.flatMap(Base64URL.decode),
                  let publicKey = try? _RSA.Signing.PublicKey(n: n, e: e) else { return false }
            let signature = _RSA.Signing.RSASignature(rawRepresentation: parsed.signature)
            return publicKey.isValidSignature(signature, for: SHA256.hash(data: parsed.signingInput), padding: .insecurePKCS1v1_5)
        case "ES256":
            guard key.crv == "P-256", let x = key.x.flatMap(Base64URL.decode), let y = key.y.flatMap(Base64URL.decode),
                  x.count == 32, y.count == 32,
                  let publicKey = try? P256.Signing.PublicKey(rawRepresentation: x + y),
                  let signature = try? P256.Signing.ECDSASignature(rawRepresentation: parsed.signature) else { return false }
            return publicKey.isValidSignature(signature, for: SHA256.hash(data: parsed.signingInput))
        default:
            return false
        }
    }

    package static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
