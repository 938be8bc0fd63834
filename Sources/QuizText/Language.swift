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
        // Every page asks: read the bytes once, without Foundation (this was 3% of a page's CPU).
        guard let header else { return nil }
        let bytes = header.utf8
        guard bytes.count <= 1_000 else { return nil }
        var best: Language?
        var bestQuality = -1
        var items = 0
        var index = bytes.startIndex
        while index < bytes.endIndex, items < 40 {
            items += 1
            // The primary tag: letters up to "-", ";" or ",".
            while index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") { index = bytes.index(after: index) }
            var tag = 0  // up to 3 letters, lowercased, packed; "*" as its own value
            var length = 0
            while index < bytes.endIndex, case let byte = bytes[index], byte != UInt8(ascii: "-"), byte != UInt8(ascii: ";"),
                  byte != UInt8(ascii: ","), byte != UInt8(ascii: " ") {
                tag = tag << 8 | Int(byte | 0x20)
                length += 1
                index = bytes.index(after: index)
            }
            // The rest of the item: only q= matters; quality in thousandths.
            var quality = 1000
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: ",") {
                if bytes[index] == UInt8(ascii: "q"), case let next = bytes.index(after: index), next < bytes.endIndex, bytes[next] == UInt8(ascii: "=") {
                    index = bytes.index(after: next)
                    var value = 0
                    var scale = 0  // digits after the point
                    var seenPoint = false
                    while index < bytes.endIndex, case let byte = bytes[index], byte == UInt8(ascii: ".") || (byte >= 0x30 && byte <= 0x39) {
                        if byte == UInt8(ascii: ".") { seenPoint = true } else if !seenPoint { value = value * 10 + Int(byte - 0x30) } else if scale < 3 {
                            value = value * 10 + Int(byte - 0x30)
                            scale += 1
                        }
                        index = bytes.index(after: index)
                    }
                    for _ in scale..<3 { value *= 10 }
                    quality = min(value, 1000)
                    continue
                }
                index = bytes.index(after: index)
            }
            if index < bytes.endIndex { index = bytes.index(after: index) }
            let language: Language? = switch (length, tag) {
            case (2, 0x656E), (1, 0x2A): .en  // "en", "*"
            case (2, 0x6669): .fi
            default: nil
            }
            if let language, quality > 0, quality > bestQuality {
                best = language
                bestQuality = quality
            }
        }
        return best
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
