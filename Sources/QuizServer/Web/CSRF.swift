import Foundation
import Hummingbird

/// Double-submit CSRF protection: a random token lives in an HttpOnly, SameSite=Strict cookie and
/// in every form; a POST whose two copies differ did not come from one of our pages.
enum CSRF {
    static let cookieName = "quizbox_csrf"
    static let fieldName = "csrf"

    static func token(in request: Request) -> String? {
        guard let value = request.cookie(cookieName), value.utf8.count == 43 else { return nil }
        return value
    }

    static func cookie(_ token: String, secure: Bool) -> String {
        "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict\(secure ? "; Secure" : "")"
    }

    /// Compares without an early exit, so timing does not reveal how much of a guess was right.
    static func matches(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
