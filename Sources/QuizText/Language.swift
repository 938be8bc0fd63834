import Foundation

/// The languages Quizbox speaks. English is the source language: its texts are the catalogs' keys.
public enum Language: String, CaseIterable, Sendable, Hashable {
    case en, fi

    /// The language's own name, as a switcher shows it.
    public var name: String {
        switch self {
        case .en: "English"
        case .fi: "Suomi"
        }
    }

    /// The best language for an `Accept-Language` header, or nil when it names none we speak.
    /// Quality values are honoured; `fi-FI` counts as `fi`; `*` counts as English.
    public static func preferred(acceptLanguage header: String?) -> Language? {
        guard let header, header.utf8.count <= 1_000 else { return nil }
        var best: (language: Language, quality: Double)?
        for item in header.split(separator: ",").prefix(40) {
            let parts = item.split(separator: ";")
            guard let tag = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0] == "q", let value = Double(pair[1]), value >= 0, value <= 1 { quality = value }
            }
            guard quality > 0 else { continue }
            let primary = tag == "*" ? "en" : String(tag.split(separator: "-").first ?? "")
            guard let language = Language(rawValue: primary) else { continue }
            if best == nil || quality > best!.quality { best = (language, quality) }
        }
        return best?.language
    }

    /// The language of a command-line program, from the POSIX environment (`LANGUAGE`, `LC_ALL`,
    /// `LC_MESSAGES`, `LANG`, in that order); English when none names Finnish.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Language {
        if let list = environment["LANGUAGE"], !list.isEmpty {
            for entry in list.split(separator: ":") {
                if let language = code(String(entry)) { return language }
            }
        }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { return code(value) ?? .en }
        }
        return .en
    }

    /// `fi_FI.UTF-8` → Finnish.
    static func code(_ value: String) -> Language? {
        let primary = value.lowercased().prefix { $0.isLetter }
        return Language(rawValue: String(primary))
    }
}
