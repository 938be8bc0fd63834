import QuizMath
import Synchronization

/// The `html` beside a live message's text when it holds TeX (docs/live-protocol.md, "Maths"):
/// each text converted once and kept, since a question goes to every player and again to each
/// one who reconnects. A text without maths costs one scan and is not kept.
enum LiveMaths {
    /// Bytes of text and HTML kept at most (a few games' worth); past it the store starts over.
    static let limit = 8 << 20

    private struct Converted {
        /// "" for a text that turned out to hold no formula (a price in dollars).
        var html: [String: String] = [:]
        var bytes = 0
    }

    private static let converted = Mutex(Converted())

    static func html(_ text: String) -> String? {
        guard MathText.mayHoldMath(text) else { return nil }
        if let known = converted.withLock({ $0.html[text] }) { return known.isEmpty ? nil : known }
        let html = MathText.htmlIfMath(text)
        converted.withLock { converted in
            guard converted.html[text] == nil else { return }  // converted meanwhile on another thread
            let bytes = text.utf8.count + (html?.utf8.count ?? 0)
            if converted.bytes + bytes > limit { converted = Converted() }
            converted.html[text] = html ?? ""
            converted.bytes += bytes
        }
        return html
    }

    static func html(_ text: String?) -> String? { text.flatMap { html($0) } }
}
