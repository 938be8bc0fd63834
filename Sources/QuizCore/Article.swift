import Foundation

/// A news article as stored: what a feed item or an author gave, and the quiz about it, if any.
public struct Article: Sendable, Hashable {
    public var id: Int64
    public var title: String
    public var summary: String
    public var sourceName: String
    /// Always http or https (checked by `ArticleDraft` before anything is stored).
    public var url: String
    public var imageURL: String?
    public var publishedAt: Date
    /// The quiz about the article, when an author linked one.
    public var quizId: Int64?
    public var createdBy: Int64?
    public var createdAt: Date

    public init(
        id: Int64, title: String, summary: String, sourceName: String, url: String, imageURL: String?,
        publishedAt: Date, quizId: Int64?, createdBy: Int64?, createdAt: Date
    ) {
        self.id = id
        self.title = title
        self.summary = summary
        self.sourceName = sourceName
        self.url = url
        self.imageURL = imageURL
        self.publishedAt = publishedAt
        self.quizId = quizId
        self.createdBy = createdBy
        self.createdAt = createdAt
    }
}

/// What an author types, or a feed item gives, before it becomes an `Article`.
///
/// Rules (every broken one is reported, field by field, like `Question.validationErrors()`):
/// - `title`: not blank, at most 300 characters, no control characters.
/// - `summary`: at most 2,000 characters (may be empty: some feeds have none).
/// - `sourceName`: not blank, at most 200 characters, no control characters.
/// - `url`: an absolute http or https address with a host, at most 2,000 characters. Anything
///   else (`javascript:`, `data:`, relative paths) is refused, since readers are sent there.
/// - `imageURL`: when given, the same rules as `url`.
/// - `dedupeKey`: a feed item's GUID, or its URL when it has none; at most 2,000 characters.
public struct ArticleDraft: Sendable, Hashable {
    public static let maxTitleLength = 300
    public static let maxSummaryLength = 2_000
    public static let maxSourceLength = 200
    public static let maxURLLength = 2_000

    public var title: String
    public var summary: String
    public var sourceName: String
    public var url: String
    public var imageURL: String?
    public var publishedAt: Date
    public var quizId: Int64?
    /// How imports recognise an article they already have; nil means the URL.
    public var guid: String?

    public init(
        title: String, summary: String, sourceName: String, url: String, imageURL: String? = nil,
        publishedAt: Date, quizId: Int64? = nil, guid: String? = nil
    ) {
        self.title = title
        self.summary = summary
        self.sourceName = sourceName
        self.url = url
        self.imageURL = imageURL
        self.publishedAt = publishedAt
        self.quizId = quizId
        self.guid = guid
    }

    /// The GUID when there is one, or else the URL: unique among stored articles.
    public var dedupeKey: String {
        if let guid, !guid.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return guid }
        return url
    }

    /// Every rule the draft breaks; empty when it may be stored.
    public func validationErrors() -> [Question.ValidationError] {
        var errors: [Question.ValidationError] = []
        func fail(_ field: String, _ message: String) { errors.append(.init(field: field, message: message)) }
        Self.checkText(title, field: "title", limit: Self.maxTitleLength, required: true, fail)
        Self.checkText(summary, field: "summary", limit: Self.maxSummaryLength, required: false, allowNewlines: true, fail)
        Self.checkText(sourceName, field: "sourceName", limit: Self.maxSourceLength, required: true, fail)
        if let problem = Self.urlProblem(url) { fail("url", problem) }
        if let imageURL, let problem = Self.urlProblem(imageURL) { fail("imageUrl", problem) }
        if dedupeKey != url, dedupeKey.count > Self.maxURLLength { fail("guid", "is longer than \(Self.maxURLLength) characters") }
        if !publishedAt.timeIntervalSince1970.isFinite {
            fail("publishedAt", "is not a time")
        }
        return errors
    }

    private static func checkText(
        _ text: String, field: String, limit: Int, required: Bool, allowNewlines: Bool = false, _ fail: (String, String) -> Void
    ) {
        if required && text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            fail(field, "is empty")
        } else if text.count > limit {
            fail(field, "is longer than \(limit) characters")
        }
        let control = text.unicodeScalars.contains { scalar in
            scalar.properties.generalCategory == .control && !(allowNewlines && (scalar == "\n" || scalar == "\r" || scalar == "\t"))
        }
        if control { fail(field, "must not contain control characters") }
    }

    /// Why `text` is not an address readers may be sent to, or nil when it is one.
    public static func urlProblem(_ text: String) -> String? {
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "is empty" }
        if text.count > maxURLLength { return "is longer than \(maxURLLength) characters" }
        guard isWebAddress(text) else { return "must be an http or https address, such as https://example.org/news/1" }
        return nil
    }

    /// An absolute http(s) URL with a host and no spaces or control characters.
    public static func isWebAddress(_ text: String) -> Bool {
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }),
              let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else { return false }
        // "http:example.org" has a scheme but is not absolute in a browser's eyes.
        return text.lowercased().hasPrefix(scheme + "://")
    }
}
