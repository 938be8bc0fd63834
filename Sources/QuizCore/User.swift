import Foundation

public enum Role: String, Sendable, Codable, CaseIterable, Hashable {
    case player, author, admin

    /// Authors and admins write the bank: subjects, quizzes, questions, imports, articles.
    public var canAuthor: Bool { self == .author || self == .admin }
    /// Admins manage people's roles.
    public var canManageUsers: Bool { self == .admin }
    /// Admins import news feeds (the server fetches the address they give).
    public var canImportFeeds: Bool { self == .admin }
}

/// A person with an account. Never carries the password or its hash.
public struct User: Sendable, Hashable {
    public var id: Int64
    public var username: String
    public var firstName: String
    public var lastName: String
    public var role: Role
    public var points: Int64
    public var createdAt: Date
    /// The language they chose for pages ("en", "fi"); nil until they choose one.
    public var language: String?

    public init(
        id: Int64, username: String, firstName: String, lastName: String,
        role: Role, points: Int64, createdAt: Date, language: String? = nil
    ) {
        self.language = language
        self.id = id
        self.username = username
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
        self.points = points
        self.createdAt = createdAt
    }
}
