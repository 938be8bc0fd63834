import Foundation

/// One language's translations, read from a gettext `.po` file: English text in, the language's out.
///
/// Texts with values name them in braces (`"Page {page} of {pages}"`), in the catalog and in code.
/// Messages that arrive already filled in (a use case's English message) are matched against
/// those patterns, so the code that makes a message needs to know nothing about languages.
public struct Catalog: Sendable {
    public struct Entry: Sendable, Equatable {
        public var msgid: String
        public var plural: String?
        /// One form, or the plural forms (for `n == 1`, then for every other `n`).
        public var forms: [String]
        public var fuzzy = false
    }

    /// A parse failure, with its line.
    public struct Malformed: Error, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public private(set) var entries: [String: Entry] = [:]
    /// Every entry as read, untranslated and fuzzy ones too (for checking a catalog).
    public private(set) var all: [Entry] = []
    /// The header's fields (`Language`, `Plural-Forms`…).
    public private(set) var header: [String: String] = [:]
    /// Entries with `{placeholders}`, for messages that arrive filled in.
    let patterns: [Pattern]

    public init(entries list: [Entry], header: [String: String] = [:]) {
        var entries: [String: Entry] = [:]
        var patterns: [Pattern] = []
        for entry in list where !entry.fuzzy && entry.forms.allSatisfy({ !$0.isEmpty }) {
            entries[entry.msgid] = entry
            if let plural = entry.plural { entries[plural] = entry }
            for english in [entry.msgid, entry.plural].compactMap({ $0 }) {
                if let pattern = Pattern(english, entry: entry) { patterns.append(pattern) }
            }
        }
        self.entries = entries
        self.all = list
        self.header = header
        // Longer literal text first: the most specific pattern wins.
        self.patterns = patterns.sorted { $0.literalLength > $1.literalLength }
    }

    /// Reads a `.po` file's text.
    public init(po text: String) throws {
        var list: [Entry] = []
        var header: [String: String] = [:]
        var msgid: String?
        var plural: String?
        var forms: [Int: String] = [:]
        var fuzzy = false
        var nextFuzzy = false
        // Which string a continuation line ("…") extends.
        enum Field { case none, id, plural, form(Int), context }
        var field = Field.none

        func finish() {
            defer { msgid = nil; plural = nil; forms = [:]; fuzzy = false }
            guard let id = msgid else { return }
            if id.isEmpty {
                for line in (forms[0] ?? "").split(separator: "\n") {
                    let pair = line.split(separator: ":", maxSplits: 1)
                    if pair.count == 2 { header[String(pair[0])] = pair[1].trimmingCharacters(in: .whitespaces) }
                }
                return
            }
            let ordered = forms.keys.sorted().map { forms[$0]! }
            list.append(Entry(msgid: id, plural: plural, forms: ordered, fuzzy: fuzzy))
        }

        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if line.hasPrefix("#,"), line.contains("fuzzy") { nextFuzzy = true }
                continue
            }
            if line.hasPrefix("\"") {
                let value = try Self.quoted(line, line: number + 1)
                switch field {
                case .id: msgid! += value
                case .plural: plural! += value
                case .form(let index): forms[index]! += value
                case .context: break
                case .none: throw Malformed(line: number + 1, reason: "a string outside an entry")
                }
                continue
            }
            let keyword = line.prefix { !$0.isWhitespace }
            let value = try Self.quoted(line.dropFirst(keyword.count).trimmingCharacters(in: .whitespaces), line: number + 1)
            switch keyword {
            case "msgctxt":
                finish()
                field = .context
            case "msgid":
                if case .context = field {} else { finish() }
                msgid = value
                fuzzy = nextFuzzy
                nextFuzzy = false
                field = .id
            case "msgid_plural":
                guard msgid != nil else { throw Malformed(line: number + 1, reason: "msgid_plural before msgid") }
                plural = value
                field = .plural
            case "msgstr":
                guard msgid != nil else { throw Malformed(line: number + 1, reason: "msgstr before msgid") }
                forms[0] = value
                field = .form(0)
            default:
                guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"), let index = Int(keyword.dropFirst(7).dropLast()), (0..<6).contains(index)
                else { throw Malformed(line: number + 1, reason: "unknown keyword \(keyword)") }
                guard msgid != nil else { throw Malformed(line: number + 1, reason: "msgstr before msgid") }
                forms[index] = value
                field = .form(index)
            }
        }
        finish()
        self.init(entries: list, header: header)
    }

    /// A PO string: quoted, with C escapes.
    static func quoted(_ text: String, line: Int) throws -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { throw Malformed(line: line, reason: "expected a quoted string") }
        var result = ""
        var escaping = false
        for character in text.dropFirst().dropLast() {
            if escaping {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\"", "\\": result.append(character)
                default: throw Malformed(line: line, reason: "unknown escape \\\(character)")
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "\"" {
                throw Malformed(line: line, reason: "an unescaped quote")
            } else {
                result.append(character)
            }
        }
        if escaping { throw Malformed(line: line, reason: "a string ends in a backslash") }
        return result
    }

    /// The translation of `english` (exact text), or nil.
    public func exact(_ english: String) -> String? {
        guard let entry = entries[english] else { return nil }
        // A plural entry asked for by its plural English ("{count} questions") gives its plural form.
        return entry.plural == english && entry.forms.count > 1 ? entry.forms[1] : entry.forms.first
    }

    /// The form of a plural entry for `count`: both languages have one form for 1 and one for the rest.
    public func plural(_ one: String, count: Int) -> String? {
        guard let entry = entries[one] else { return nil }
        return entry.forms.count > 1 && count != 1 ? entry.forms[1] : entry.forms[0]
    }

    /// A filled-in message's translation, found through the patterns; nil when none matches.
    public func matching(_ english: String) -> String? {
        for pattern in patterns {
            if let values = pattern.match(english) { return pattern.fill(values) }
        }
        return nil
    }
}

/// A text with `{name}` placeholders, matched against filled-in English.
struct Pattern: Sendable {
    enum Part: Sendable, Equatable {
        case literal(String)
        case value(String)
    }

    let parts: [Part]
    let entry: Catalog.Entry
    /// Whether this is the plural English form (so the count decides nothing about which English matched).
    let literalLength: Int

    init?(_ english: String, entry: Catalog.Entry) {
        let parts = Pattern.parts(english)
        guard parts.contains(where: { if case .value = $0 { true } else { false } }) else { return nil }
        // Two values side by side could split anywhere: such a text is only found exactly.
        for (a, b) in zip(parts, parts.dropFirst()) {
            if case .value = a, case .value = b { return nil }
        }
        // A pattern must say something of its own, or it would match any message ("{reason}.").
        let letters = parts.reduce(0) { if case .literal(let text) = $1 { $0 + text.filter(\.isLetter).count } else { $0 } }
        guard letters >= 4 else { return nil }
        self.parts = parts
        self.entry = entry
        literalLength = parts.reduce(0) { if case .literal(let text) = $1 { $0 + text.count } else { $0 } }
    }

    /// `{name}` placeholders (letters, digits, `_`), but not Mustache's `{{name}}`.
    static func parts(_ text: String) -> [Part] {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "{", let close = text[index...].firstIndex(of: "}") {
                let name = text[text.index(after: index)..<close]
                let before = index > text.startIndex ? text[text.index(before: index)] : " "
                let after = text.index(after: close) < text.endIndex ? text[text.index(after: close)] : " "
                if !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }), before != "{", after != "}" {
                    if !literal.isEmpty { parts.append(.literal(literal)) }
                    literal = ""
                    parts.append(.value(String(name)))
                    index = text.index(after: close)
                    continue
                }
            }
            literal.append(character)
            index = text.index(after: index)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    /// The placeholder names of a text, sorted (for checking a translation keeps them).
    static func names(_ text: String) -> [String] {
        parts(text).compactMap { if case .value(let name) = $0 { name } else { nil } }.sorted()
    }

    func match(_ text: String) -> [String: String]? {
        var values: [String: String] = [:]
        var rest = Substring(text)
        var pending: String?
        for part in parts {
            switch part {
            case .literal(let literal):
                if let name = pending {
                    // The value runs to the literal's first occurrence (values are short; texts are not nested).
                    guard let range = rest.range(of: literal), range.lowerBound > rest.startIndex else { return nil }
                    values[name] = String(rest[..<range.lowerBound])
                    rest = rest[range.upperBound...]
                    pending = nil
                } else {
                    guard rest.hasPrefix(literal) else { return nil }
                    rest = rest.dropFirst(literal.count)
                }
            case .value(let name):
                pending = name
            }
        }
        if let name = pending {
            guard !rest.isEmpty else { return nil }
            values[name] = String(rest)
        } else if !rest.isEmpty {
            return nil
        }
        return values
    }

    func fill(_ values: [String: String]) -> String {
        var form = entry.forms[0]
        if entry.forms.count > 1, let count = values["count"].flatMap({ Int($0.filter(\.isNumber)) }), count != 1 { form = entry.forms[1] }
        return Pattern.substitute(form, values)
    }

    /// `{name}` replaced by its value, in one pass over the bytes (pages fill texts on every request).
    static func substitute(_ text: String, _ values: [String: String]) -> String {
        let utf8 = text.utf8
        guard var open = utf8.firstIndex(of: UInt8(ascii: "{")) else { return text }
        var result = ""
        result.reserveCapacity(utf8.count + 16)
        var copied = utf8.startIndex
        while true {
            var index = utf8.index(after: open)
            var valid = index < utf8.endIndex && utf8[index] != UInt8(ascii: "{") && (open == utf8.startIndex || utf8[utf8.index(before: open)] != UInt8(ascii: "{"))
            while valid, index < utf8.endIndex, utf8[index] != UInt8(ascii: "}") {
                let byte = utf8[index]
                valid = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
                index = utf8.index(after: index)
            }
            if valid, index < utf8.endIndex, index > utf8.index(after: open) {
                let after = utf8.index(after: index)
                let name = String(text[utf8.index(after: open)..<index])
                if after == utf8.endIndex || utf8[after] != UInt8(ascii: "}"), let value = values[name] {
                    result += text[copied..<open]
                    result += value
                    copied = after
                }
                index = after
            }
            guard index < utf8.endIndex, let next = utf8[index...].firstIndex(of: UInt8(ascii: "{")) else { break }
            open = next
        }
        result += text[copied...]
        return result
    }
}
