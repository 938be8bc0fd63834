import Foundation
import QuizCore

/// Moodle's cloze syntax (the "Embedded answers" question type, `multianswer`) read into a
/// `GapFill` and written back: `Paris is the capital of {1:MULTICHOICE:=France~Spain~%50%Gaul}.`
///
/// Each gap is `{weight:TYPE:answers}`: the weight (digits, 1 when left out), a type, and answers
/// parted by `~`, each `=` for full credit or `%50%` for part of it (none: no credit), feedback
/// after `#` (dropped). Types read:
/// - `MULTICHOICE`, `MC` and their layouts (`_V`, `_H`, `_S`, `_VS`, `_HS`, `MCV`, `MCH`, `MCS`,
///   `MCVS`, `MCHS`): a choice gap;
/// - `SHORTANSWER`, `SA`, `MW`: a typed gap; `SHORTANSWER_C` (`SAC`, `MWC`, case-sensitive) too,
///   with a warning, since Quizbox compares typed answers ignoring case. A `*` answer (Moodle's
///   "anything else") is left out: it never gives credit here;
/// - `NUMERICAL`, `NM`: a number gap, `=777:5` meaning 777 give or take 5. Cloze has no units.
///   Only the full-credit value is kept; partly right values are left out with a warning.
///
/// Text outside gaps is kept as written (Moodle shows it so): a `{` that starts no gap is text.
/// `MULTIRESPONSE` gaps (several answers ticked) have no gap equivalent and are a problem, as are a
/// gap with no closing `}`, an unknown type, a weight that is not 1 to 10 and more than
/// `GapFill.gapCountRange.upperBound` gaps (parsing stops there). `\}`, `\~`, `\#`, `\/`, `\"`
/// and `\\` stand for the character after the backslash; other text is kept as written. Parsing
/// is linear in the text's length.
///
/// The result is checked only for its syntax: validate it as any gap fill (`validationErrors()`).
/// `write` turns a gap fill back into this syntax, so `parse(write(g))` gives `g` back for a valid
/// gap fill whose number gaps have no units (cloze cannot hold them: they are not written).
public enum MoodleCloze {
    /// A gap fill read from cloze text, with what was left out of it.
    public struct Parsed: Sendable, Hashable {
        public var gapFill: GapFill
        /// Things the text holds that Quizbox does not keep ("gap 2: case-sensitive…").
        public var warnings: [String]
    }

    /// Everything wrong with a cloze text, each message naming its gap ("gap 3: …").
    public struct Problems: Error, Sendable, Hashable, CustomStringConvertible {
        public var messages: [String]
        public var description: String { messages.joined(separator: "\n") }
    }

    /// Longest text read: far over `GapFill.maxTextLength`, so only absurd input is refused unread.
    public static let maxLength = 100_000

    public static func parse(_ text: String) throws(Problems) -> Parsed {
        guard text.utf8.count <= maxLength else {
            throw Problems(messages: ["the cloze text is longer than \(maxLength) characters"])
        }
        var parser = MoodleClozeParser(Array(text.unicodeScalars))
        parser.run()
        guard parser.problems.isEmpty else { throw Problems(messages: parser.problems) }
        // Longer would fail validation anyway.
        guard parser.text.count <= GapFill.maxTextLength else {
            throw Problems(messages: ["the text without its gaps' answers is longer than \(GapFill.maxTextLength) characters"])
        }
        let gapFill = GapFill(text: parser.text, gaps: parser.gaps)
        // Every gap must be found in its place in the text: say which one would be lost rather
        // than hand back a gap fill whose gap has no place.
        let found = gapFill.segments.compactMap { if case .gap(let index) = $0 { index } else { nil } }
        if let lost = gapFill.gaps.indices.first(where: { found.count <= $0 || found[$0] != $0 }) {
            throw Problems(messages: ["gap \(lost + 1) follows a \"[\", which would hide it: put a space between them"])
        }
        return Parsed(gapFill: gapFill, warnings: parser.warnings)
    }

    /// The gap fill in cloze syntax (for a valid gap fill: its text within `GapFill.maxTextLength`): choice gaps as `MULTICHOICE`, typed gaps as `SHORTANSWER`,
    /// number gaps as `NUMERICAL` (without their units); full credit `=`, other fractions `%n%`.
    public static func write(_ gapFill: GapFill) -> String {
        var out = ""
        for segment in gapFill.segments {
            switch segment {
            case .text(let text):
                out += text
            case .gap(let index):
                out += gap(gapFill.gaps[index])
            }
        }
        return out
    }

    private static func gap(_ weighted: GapFill.WeightedGap) -> String {
        let weight = weighted.weight == 1 ? "1" : String(weighted.weight)
        switch weighted.gap {
        case .choice(let alternatives):
            return "{\(weight):MULTICHOICE:" + alternatives.map(alternative).joined(separator: "~") + "}"
        case .typed(let alternatives):
            return "{\(weight):SHORTANSWER:" + alternatives.map(alternative).joined(separator: "~") + "}"
        case .number(let value, let tolerance, _):
            return "{\(weight):NUMERICAL:=\(number(value)):\(number(tolerance))}"
        }
    }

    private static func alternative(_ alternative: Alternative) -> String {
        let text = escapeAnswer(alternative.text)
        let value = alternative.fraction.value
        if value == 1 { return "=" + text }
        // By scalar: "=" with a combining accent is one Character, and `hasPrefix("=")` misses it.
        if value == 0 && text.unicodeScalars.first != "=" && text.unicodeScalars.first != "%" { return text }
        return "%" + percent(value) + "%" + text
    }

    /// The percentage as written: the fraction's shortest decimal digits with the point moved two
    /// places, so that reading it back (`fraction(percent:)`) gives the same number exactly.
    static func percent(_ value: Double) -> String {
        guard let decimal = Decimal(string: String(value), locale: Locale(identifier: "en_US_POSIX")) else { return number(value * 100) }
        return "\(decimal * 100)"
    }

    /// A written percentage as a fraction: its digits with the point moved back (exact where
    /// `percent` wrote it), nil when it is no number or outside -100...100.
    static func fraction(percent written: String) -> Fraction? {
        guard let percent = Double(written), percent.isFinite else { return nil }
        // A share too small to matter (and to write back exactly) is none.
        if abs(percent) < 1e-9 { return .zero }
        let approximate = percent / 100
        if let decimal = Decimal(string: written, locale: Locale(identifier: "en_US_POSIX")),
           let exact = Double("\(decimal / 100)"), abs(exact - approximate) <= 1e-12 {
            return Fraction(exact)
        }
        return Fraction(approximate)
    }

    /// The shortest form that reads back the same: "777", "0.5", "-33.333333333333336".
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Answers escape everything the gap syntax gives a meaning to.
    private static func escapeAnswer(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if "}~#/\"\\".unicodeScalars.contains(scalar) { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

}
