import Foundation
import Synchronization

/// The catalogs shipped with Quizbox, read once.
public enum Localization {
    /// Every language's catalog; English has none (its texts are the keys).
    public static let catalogs: [Language: Catalog] = {
        var catalogs: [Language: Catalog] = [:]
        for language in Language.allCases where language != .en {
            guard let url = Bundle.module.url(forResource: language.rawValue, withExtension: "po", subdirectory: "locales"),
                  let text = try? String(contentsOf: url, encoding: .utf8)
            else { continue }
            do {
                catalogs[language] = try Catalog(po: text)
            } catch {
                // A broken catalog is a build mistake the catalog tests catch; the pages stay in English.
                FileHandle.standardError.write(Data("quizbox: locales/\(language.rawValue).po: \(error)\n".utf8))
            }
        }
        return catalogs
    }()

    /// English texts asked for in another language and not found: tests read this to catch a
    /// text shown untranslated. Bounded, so a stream of odd messages cannot grow it.
    public static let missing = Mutex<Set<String>>([])

    /// What has been noted missing so far.
    public static var missingTexts: Set<String> { missing.withLock { $0 } }

    static func noteMissing(_ english: String) {
        missing.withLock { set in
            if set.count < 2_000 { set.insert(english) }
        }
    }

    /// Every language's texts.
    public static let texts: [Language: Texts] = Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0, Texts($0)) })
}

/// The texts of one language: what code asks for in English, shown in `language`.
public struct Texts: Sendable {
    public let language: Language
    let catalog: Catalog?

    public init(_ language: Language) {
        self.language = language
        catalog = Localization.catalogs[language]
    }

    public static func of(_ language: Language) -> Texts { Localization.texts[language] ?? Texts(language) }

    /// A text or a filled-in message in this language: the exact text, else a pattern it matches,
    /// else the English as it came (and noted as missing).
    public func callAsFunction(_ english: String) -> String {
        guard let catalog, !english.isEmpty else { return english }
        if let text = catalog.exact(english) { return text }
        if let text = catalog.matching(english) { return text }
        Localization.noteMissing(english)
        return english
    }

    /// A text that may already be in this language (a page built it translated): translated when it
    /// is a catalog text, else kept as it is, without counting it missing.
    public func ifKnown(_ text: String) -> String {
        guard let catalog else { return text }
        return catalog.exact(text) ?? catalog.matching(text) ?? text
    }

    /// A text with values: `t("Page {page} of {pages}", ["page": "2", "pages": "5"])`.
    public func callAsFunction(_ english: String, _ values: [String: String]) -> String {
        var text = english
        if let catalog {
            if let translated = catalog.exact(english) { text = translated } else { Localization.noteMissing(english) }
        }
        return Pattern.substitute(text, values)
    }

    /// "1 topic", "2 topics": `one` and `other` both hold `{count}`; the count is written as a number of this language.
    public func count(_ count: Int, _ one: String, _ other: String, _ values: [String: String] = [:]) -> String {
        var text = count == 1 ? one : other
        if let catalog {
            if let translated = catalog.plural(one, count: count) { text = translated } else { Localization.noteMissing(one) }
        }
        var values = values
        values["count"] = number(count)
        return Pattern.substitute(text, values)
    }

    /// A whole number as this language writes it: 12,345 in English, 12 345 in Finnish.
    public func number(_ value: some BinaryInteger) -> String {
        let digits = String(value.magnitude)
        // Finnish groups from five digits on (1234, 12 345), English from four (1,234).
        guard digits.count >= (language == .fi ? 5 : 4) else { return value < 0 ? "-" + digits : digits }
        let separator: Character = language == .fi ? "\u{00A0}" : ","
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(separator) }
            grouped.append(digit)
        }
        return value < 0 ? (language == .fi ? "−" : "-") + grouped : grouped
    }

    /// A decimal with `digits` after the point: 0.5 in English, 0,5 in Finnish.
    public func decimal(_ value: Double, digits: Int = 1) -> String {
        let text = String(format: "%.\(digits)f", value)
        return language == .fi ? text.replacingOccurrences(of: ".", with: ",") : text
    }

    static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A day, in UTC: "21 Nov 2026" in English, "21.11.2026" in Finnish.
    public func date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let (day, month, year) = (parts.day ?? 1, parts.month ?? 1, parts.year ?? 1970)
        switch language {
        case .en: return "\(day) \(Self.englishMonths[month - 1]) \(year)"
        case .fi: return "\(day).\(month).\(year)"
        }
    }

    /// A day and time, in UTC: "21 Nov 2026, 14:05 UTC" / "21.11.2026 klo 14.05 UTC".
    public func dateTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let (hour, minute) = (parts.hour ?? 0, parts.minute ?? 0)
        let twoDigits = minute < 10 ? "0\(minute)" : "\(minute)"
        switch language {
        case .en: return "\(self.date(date)), \(hour < 10 ? "0\(hour)" : "\(hour)"):\(twoDigits) UTC"
        case .fi: return "\(self.date(date)) klo \(hour).\(twoDigits) UTC"
        }
    }

    /// A template's source with every `[[English]]` mark replaced by this language's text.
    /// Whitespace inside a mark is collapsed, so a mark may wrap over lines.
    public func template(_ source: String) -> String {
        guard source.contains("[[") else { return source }
        var result = ""
        result.reserveCapacity(source.utf8.count)
        var rest = Substring(source)
        while let open = rest.range(of: "[[") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "]]") else {
                rest = rest[open.lowerBound...]
                break
            }
            let english = Self.collapse(rest[open.upperBound..<close.lowerBound])
            result += catalog.map { catalog in
                if let text = catalog.exact(english) { return text }
                Localization.noteMissing(english)
                return english
            } ?? english
            rest = rest[close.upperBound...]
        }
        result += rest
        return result
    }

    /// The `[[…]]` marks of a template's source, as catalog keys.
    public static func marks(in source: String) -> [String] {
        var marks: [String] = []
        var rest = Substring(source)
        while let open = rest.range(of: "[["), let close = rest[open.upperBound...].range(of: "]]") {
            marks.append(collapse(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return marks
    }

    static func collapse(_ text: Substring) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }

    /// The keys a script asks for with `t('…')` (single-quoted literals, JavaScript escapes `\'` and `\\`).
    public static func scriptKeys(in source: String) -> [String] {
        var keys: [String] = []
        var rest = Substring(source)
        while let call = rest.range(of: "t('") {
            let before = call.lowerBound > rest.startIndex ? rest[rest.index(before: call.lowerBound)] : " "
            rest = rest[call.upperBound...]
            guard !(before.isLetter || before.isNumber || before == "_" || before == ".") else { continue }
            var key = ""
            var escaping = false
            var ended = false
            var index = rest.startIndex
            while index < rest.endIndex {
                let character = rest[index]
                index = rest.index(after: index)
                if escaping { key.append(character); escaping = false } else if character == "\\" { escaping = true } else if character == "'" { ended = true; break } else { key.append(character) }
            }
            if ended { keys.append(key) }
            rest = rest[index...]
        }
        return keys
    }

    /// `{"English": "translation", …}` for a page's scripts, safe inside `<script type="application/json">`.
    public func scriptStrings(_ keys: [String]) -> String {
        var object: [String: String] = [:]
        for key in keys {
            if let text = catalog?.exact(key) { object[key] = text } else if language != .en { Localization.noteMissing(key) }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
              let json = String(data: data, encoding: .utf8) else { return "{}" }
        return json.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
    }
}
