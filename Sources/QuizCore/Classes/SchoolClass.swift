import Foundation

/// A teacher's class: students join it with its code (or its link) while signed in, and the
/// assignments set to it make its gradebook. Named `SchoolClass` because `Class` reads badly in Swift.
public struct SchoolClass: Sendable, Equatable {
    /// One broken rule; `field` names it as the API and the form do.
    public typealias Invalid = FieldError

    public static let nameLength = 1...100
    /// Six digits, as an assignment's code and a live game's PIN; unique among classes.
    public static let codes = 100_000...999_999

    public var id: Int64
    public var code: String
    public var ownerUserId: Int64
    public var name: String
    /// Closed: the code joins nobody new; members stay.
    public var joiningOpen: Bool
    public var createdAt: Date

    public init(id: Int64 = 0, code: String, ownerUserId: Int64, name: String, joiningOpen: Bool = true, createdAt: Date) {
        (self.id, self.code, self.ownerUserId, self.name, self.joiningOpen, self.createdAt) = (id, code, ownerUserId, name, joiningOpen, createdAt)
    }

    /// The name as stored: trimmed.
    public static func cleaned(name: String) -> String { name.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Every broken rule of a name (after `cleaned`).
    public static func problems(name: String) -> [Invalid] {
        let trimmed = cleaned(name: name)
        if trimmed.isEmpty { return [Invalid(field: "name", message: "is empty")] }
        if trimmed.count > nameLength.upperBound { return [Invalid(field: "name", message: "is longer than \(nameLength.upperBound) characters")] }
        if trimmed.contains(where: { $0.isNewline }) { return [Invalid(field: "name", message: "must be one line")] }
        return []
    }
}

/// A student in a class.
public struct ClassMember: Sendable, Equatable {
    public var userId: Int64
    public var username: String
    public var joinedAt: Date

    public init(userId: Int64, username: String, joinedAt: Date) {
        (self.userId, self.username, self.joinedAt) = (userId, username, joinedAt)
    }
}
