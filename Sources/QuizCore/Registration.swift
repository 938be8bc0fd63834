import Foundation

/// The rules an account's fields must follow, checked before anything is stored.
public struct Registration: Sendable, Hashable {
    public typealias Invalid = FieldError

    public static let usernameLength = 3...32
    public static let nameMaxLength = 100
    /// bcrypt only reads the first 72 bytes; longer passwords would silently share a hash.
    public static let passwordMaxBytes = 72

    public var username: String
    public var firstName: String
    public var lastName: String
    public var password: String

    public init(username: String, firstName: String, lastName: String, password: String) {
        self.username = username
        self.firstName = firstName
        self.lastName = lastName
        self.password = password
    }

    /// Checks every field; `minimumPasswordLength` is configurable but never below 1.
    public func validate(minimumPasswordLength: Int) throws(Invalid) {
        if let first = problems(minimumPasswordLength: minimumPasswordLength).first { throw first }
    }

    /// What every field breaks (one problem per field at most), in the form's order: a form
    /// shows them all at once.
    public func problems(minimumPasswordLength: Int) -> [Invalid] {
        var problems: [Invalid] = []
        for (field, value) in [("firstName", firstName), ("lastName", lastName)] {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                problems.append(Invalid(field: field, message: "\(Self.label(field)) must not be empty."))
            } else if value.count > Self.nameMaxLength {
                problems.append(Invalid(field: field, message: "\(Self.label(field)) must be at most \(Self.nameMaxLength) characters."))
            } else if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                problems.append(Invalid(field: field, message: "\(Self.label(field)) must not contain control characters."))
            }
        }
        do { try Self.validateUsername(username) } catch { problems.append(error) }
        do { try Self.validatePassword(password, minimumLength: minimumPasswordLength) } catch { problems.append(error) }
        return problems
    }

    public static func validateUsername(_ username: String) throws(Invalid) {
        guard usernameLength.contains(username.count) else {
            throw Invalid(field: "username", message: "Username must be 3 to 32 characters long.")
        }
        let allowed = username.unicodeScalars.allSatisfy { s in
            (s.properties.isAlphabetic && s.properties.generalCategory != .otherSymbol)
                || ("0"..."9").contains(s) || s == "_" || s == "." || s == "-"
        }
        guard allowed else {
            throw Invalid(field: "username", message: "Username may contain only letters, digits, '_', '.' and '-'.")
        }
    }

    public static func validatePassword(_ password: String, minimumLength: Int, field: String = "password") throws(Invalid) {
        let minimum = max(1, minimumLength)
        if password.isEmpty { throw Invalid(field: field, message: "Password must not be empty.") }
        if password.count < minimum {
            throw Invalid(field: field, message: "Password must be at least \(minimum) characters long.")
        }
        if password.utf8.count > passwordMaxBytes {
            throw Invalid(field: field, message: "Password must be at most \(passwordMaxBytes) bytes long.")
        }
    }

    /// The key usernames are unique by: case-insensitive, compatibility-normalised.
    public static func usernameKey(_ username: String) -> String {
        StreamSafe.limited(username).precomposedStringWithCompatibilityMapping.lowercased()
    }

    private static func label(_ field: String) -> String {
        field == "firstName" ? "First name" : "Last name"
    }
}
