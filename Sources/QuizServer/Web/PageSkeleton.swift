import Mustache
import QuizText
import Synchronization

/// A page rendered by Mustache with markers in place of its values, then filled in per request.
///
/// Mustache's name lookups (dynamic casts and a context stack per `{{name}}`) were most of the
/// question page's CPU time. What a template produces depends on its values' text only where a
/// value is printed, and on nothing else but which keys exist and what each boolean is (sections).
/// So for a context of strings, integers and booleans, Mustache renders the template once per
/// such shape with a marker for every printed value, and each request only copies text and
/// escapes its values. A marker contains `<`, so whether Mustache escaped it tells whether the
/// template printed the value with `{{ }}` or `{{{ }}}`: the same escaping as a direct render.
struct PageSkeleton: Sendable {
    enum Part: Sendable {
        case text(String)
        case value(key: String, escaped: Bool)
    }

    let parts: [Part]
    let estimatedSize: Int

    /// What makes two contexts render alike: every key, and for booleans their value.
    struct Shape: Hashable, Sendable {
        var template: String
        var language: Language
        var keys: [String: UInt8]  // 0: printed value, 1: true, 2: false

        /// Nil when the context holds anything but strings, integers and booleans (lists, say).
        init?(template: String, context: [String: Any], language: Language) {
            self.template = template
            self.language = language
            var keys: [String: UInt8] = [:]
            keys.reserveCapacity(context.count)
            for (key, value) in context {
                switch value {
                case is String, is Int, is Int64: keys[key] = 0
                case let flag as Bool: keys[key] = flag ? 1 : 2
                default: return nil
                }
            }
            self.keys = keys
        }
    }

    static let open: Character = "\u{1}"
    static let close: Character = "\u{2}"

    /// Renders `template` once with markers; nil if the template is missing.
    static func make(_ template: String, shape: Shape, library: MustacheLibrary) -> PageSkeleton? {
        var names: [String] = []
        var marked: [String: Any] = [:]
        for (key, kind) in shape.keys {
            switch kind {
            case 0:
                marked[key] = "\(open)\(names.count)<\(close)"
                names.append(key)
            default: marked[key] = kind == 1
            }
        }
        guard let html = library.render(marked, withTemplate: template) else { return nil }
        var parts: [Part] = []
        var text = ""
        var rest = Substring(html)
        while let start = rest.firstIndex(of: open) {
            text += rest[..<start]
            guard let end = rest[start...].firstIndex(of: close) else { break }
            let marker = rest[rest.index(after: start)..<end]
            let escaped = marker.hasSuffix("&lt;")
            let digits = marker.prefix { $0.isASCII && $0.isNumber }
            guard let index = Int(digits), index < names.count else { break }
            if !text.isEmpty { parts.append(.text(text)) }
            text = ""
            parts.append(.value(key: names[index], escaped: escaped))
            rest = rest[rest.index(after: end)...]
        }
        text += rest
        if !text.isEmpty { parts.append(.text(text)) }
        let size = parts.reduce(0) { size, part in
            if case .text(let text) = part { size + text.utf8.count } else { size + 32 }
        }
        return PageSkeleton(parts: parts, estimatedSize: size)
    }

    func render(_ context: [String: Any]) -> String {
        var html = ""
        html.reserveCapacity(estimatedSize + 256)
        for part in parts {
            switch part {
            case .text(let text): html += text
            case .value(let key, let escaped):
                switch context[key] {
                case let string as String: if escaped { Self.appendEscaped(string, to: &html) } else { html += string }
                case let int as Int: html += String(int)
                case let int as Int64: html += String(int)
                case let flag as Bool: html += flag ? "true" : "false"
                default: break
                }
            }
        }
        return html
    }

    /// Mustache's HTML escaping, without a dictionary lookup per character: runs between the
    /// escaped bytes are copied whole (all five are ASCII, so every cut is on a character boundary).
    static func appendEscaped(_ string: String, to html: inout String) {
        let utf8 = string.utf8
        var runStart = utf8.startIndex
        var index = runStart
        while index != utf8.endIndex {
            let replacement: String
            switch utf8[index] {
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default:
                index = utf8.index(after: index)
                continue
            }
            html += string[runStart..<index]
            html += replacement
            index = utf8.index(after: index)
            runStart = index
        }
        html += string[runStart...]
    }
}

/// Skeletons by shape; a page has a handful of shapes, so this stays small.
final class SkeletonCache: Sendable {
    static let maxEntries = 2_000
    let entries = Mutex<[PageSkeleton.Shape: PageSkeleton]>([:])

    func skeleton(for shape: PageSkeleton.Shape, library: MustacheLibrary) -> PageSkeleton? {
        if let skeleton = entries.withLock({ $0[shape] }) { return skeleton }
        guard let skeleton = PageSkeleton.make(shape.template, shape: shape, library: library) else { return nil }
        entries.withLock { entries in
            if entries.count >= Self.maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[shape] = skeleton
        }
        return skeleton
    }
}
