import Foundation
import QuizCore

/// One pass over a cloze text (see `MoodleCloze`): each scalar is looked at a bounded number of
/// times, so hostile text costs its length.
struct MoodleClozeParser {
    private enum GapType {
        case choice, typed, caseSensitive, number, multiResponse
    }

    private static let types: [String: GapType] = {
        var types: [String: GapType] = [:]
        for name in ["MULTICHOICE", "MULTICHOICE_V", "MULTICHOICE_H", "MULTICHOICE_S", "MULTICHOICE_VS", "MULTICHOICE_HS",
                     "MC", "MCV", "MCH", "MCS", "MCVS", "MCHS"] { types[name] = .choice }
        for name in ["SHORTANSWER", "SA", "MW"] { types[name] = .typed }
        for name in ["SHORTANSWER_C", "SAC", "MWC"] { types[name] = .caseSensitive }
        for name in ["NUMERICAL", "NM"] { types[name] = .number }
        for name in ["MULTIRESPONSE", "MULTIRESPONSE_H", "MULTIRESPONSE_S", "MULTIRESPONSE_HS", "MR", "MRH", "MRS", "MRHS"] {
            types[name] = .multiResponse
        }
        return types
    }()

    /// The longest type name (`MULTIRESPONSE_HS`): a longer run of letters starts no gap.
    private static let maxTypeLength = 16
    private static let maxWeightDigits = 6

    private let input: [Unicode.Scalar]
    private var index = 0
    private(set) var text = ""
    private(set) var gaps: [GapFill.WeightedGap] = []
    private(set) var problems: [String] = []
    private(set) var warnings: [String] = []
    /// A `[[1]]` was found in the text (said once).
    private var sawMarker = false

    init(_ input: [Unicode.Scalar]) {
        self.input = input
    }

    mutating func run() {
        var pending = String.UnicodeScalarView()
        while index < input.count {
            let scalar = input[index]
            if scalar == "{", let header = gapHeader(at: index) {
                let number = gaps.count + 1
                guard number <= GapFill.gapCountRange.upperBound else {
                    problems.append("the text has more than \(GapFill.gapCountRange.upperBound) gaps, the most a gap fill holds")
                    return
                }
                text += String(pending)
                pending = String.UnicodeScalarView()
                index = header.bodyStart
                guard let body = readBody() else {
                    problems.append("gap \(number) has no closing }")
                    return
                }
                if index < input.count, Self.joinsPrevious(input[index]) {
                    problems.append("gap \(number) is followed by a combining character, which would join its marker: put a space after the gap")
                    return
                }
                if let gap = makeGap(number: number, weight: header.weight, typeName: header.type, body: body) {
                    gaps.append(gap)
                    text += "[[\(number)]]"
                } else {
                    gaps.append(GapFill.WeightedGap(.typed([])))  // keeps the numbering of later gaps
                }
                continue
            }
            if scalar == "[", !sawMarker, index + 1 < input.count, input[index + 1] == "[", isMarker(at: index) {
                sawMarker = true
                problems.append("the text holds \"[[\" followed by a number and \"]]\", which gap fills use to mark their gaps")
            }
            pending.append(scalar)
            index += 1
        }
        text += String(pending)
        if gaps.isEmpty && problems.isEmpty {
            problems.append("the text has no gap: write one as {1:SHORTANSWER:=answer}")
        }
    }

    /// A scalar that joins the character before it (an accent, a variation selector, a joiner).
    private static func joinsPrevious(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: scalar.properties.isGraphemeExtend || scalar == "\u{200D}"
        }
    }

    /// `{digits:LETTERS:` at `start`: the weight's digits, the type and where the answers begin.
    private func gapHeader(at start: Int) -> (weight: String, type: String, bodyStart: Int)? {
        var position = start + 1
        var weight = ""
        while position < input.count, ("0"..."9").contains(input[position]) {
            // A run of digits is scanned once; only enough of it to name it is kept.
            if weight.unicodeScalars.count <= Self.maxWeightDigits { weight.unicodeScalars.append(input[position]) }
            position += 1
        }
        guard position < input.count, input[position] == ":" else { return nil }
        position += 1
        var type = ""
        while position < input.count, input[position].properties.isAlphabetic || input[position] == "_" {
            guard type.unicodeScalars.count < Self.maxTypeLength else { return nil }
            type.unicodeScalars.append(input[position])
            position += 1
        }
        guard !type.isEmpty, position < input.count, input[position] == ":" else { return nil }
        return (weight, type, position + 1)
    }

    /// The answers up to the unescaped `}`, split at unescaped `~`, each still escaped; nil at the
    /// end of the text with no `}`.
    private mutating func readBody() -> [[Unicode.Scalar]]? {
        var answers: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        while index < input.count {
            let scalar = input[index]
            index += 1
            switch scalar {
            case "\\":
                current.append(scalar)
                if index < input.count {
                    current.append(input[index])
                    index += 1
                }
            case "~":
                answers.append(current)
                current = []
            case "}":
                answers.append(current)
                return answers
            default:
                current.append(scalar)
            }
        }
        return nil
    }

    private func isMarker(at start: Int) -> Bool {
        var position = start + 2
        var digits = 0
        while position < input.count, ("0"..."9").contains(input[position]), digits < 10 {
            digits += 1
            position += 1
        }
        return digits > 0 && position + 1 < input.count && input[position] == "]" && input[position + 1] == "]"
    }

    private mutating func makeGap(number: Int, weight written: String, typeName: String, body: [[Unicode.Scalar]]) -> GapFill.WeightedGap? {
        let label = "gap \(number)"
        guard let type = Self.types[typeName.uppercased()] else {
            problems.append("\(label) has the type \(typeName), which is not a cloze type (MULTICHOICE, SHORTANSWER, NUMERICAL…)")
            return nil
        }
        var weight = 1
        if !written.isEmpty {
            guard written.count <= Self.maxWeightDigits, let value = Int(written), GapFill.weightRange.contains(value) else {
                problems.append("\(label) has the weight \(written.prefix(Self.maxWeightDigits + 1)), but a weight is 1 to 10")
                return nil
            }
            weight = value
        }
        var alternatives: [Alternative] = []
        for raw in body {
            guard let alternative = readAlternative(raw, label: label) else { return nil }
            alternatives.append(alternative)
        }
        switch type {
        case .choice:
            return GapFill.WeightedGap(.choice(alternatives), weight: weight)
        case .typed, .caseSensitive:
            if type == .caseSensitive {
                warnings.append("\(label) is case-sensitive (\(typeName)): Quizbox compares typed answers ignoring case")
            }
            return GapFill.WeightedGap(.typed(alternatives.filter { $0.text != "*" }), weight: weight)
        case .number:
            return numberGap(alternatives, label: label, weight: weight)
        case .multiResponse:
            problems.append("\(label) is \(typeName), several answers ticked, which Quizbox has no gap for: make it MULTICHOICE")
            return nil
        }
    }

    /// `=text`, `%50%text` or `text`, feedback after `#` dropped, escapes undone, trimmed.
    private mutating func readAlternative(_ raw: [Unicode.Scalar], label: String) -> Alternative? {
        var rest = raw[...]
        var fraction = Fraction.zero
        if rest.first == "=" {
            fraction = .full
            rest = rest.dropFirst()
        } else if rest.first == "%", let close = rest.dropFirst().prefix(32).firstIndex(of: "%") {
            let written = String(String.UnicodeScalarView(rest[(rest.startIndex + 1)..<close]))
            guard let value = MoodleCloze.fraction(percent: written) else {
                problems.append("\(label) has the fraction %\(written)%, which is not a percentage from -100 to 100")
                return nil
            }
            fraction = value
            rest = rest[(close + 1)...]
        }
        var text = String.UnicodeScalarView()
        while let scalar = rest.popFirst() {
            if scalar == "\\", let next = rest.first {
                rest.removeFirst()
                if !"}~#/\"\\".unicodeScalars.contains(next) { text.append(scalar) }
                text.append(next)
            } else if scalar == "#" {
                break
            } else {
                text.append(scalar)
            }
        }
        return Alternative(String(text).trimmingCharacters(in: .whitespacesAndNewlines), fraction: fraction)
    }

    private mutating func numberGap(_ alternatives: [Alternative], label: String, weight: Int) -> GapFill.WeightedGap? {
        guard let right = alternatives.first(where: { $0.fraction.value == 1 }) ?? alternatives.first(where: \.fraction.isFull) else {
            problems.append("\(label) has no answer with full credit (=): a number gap needs its right value")
            return nil
        }
        let parts = right.text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let valueText = parts[0].trimmingCharacters(in: .whitespaces)
        guard let value = Double(valueText), value.isFinite else {
            problems.append("\(label) has the value \"\(valueText)\", which is not a number")
            return nil
        }
        var tolerance = 0.0
        if parts.count > 1 {
            let written = parts[1].trimmingCharacters(in: .whitespaces)
            guard let number = Double(written), number.isFinite, number >= 0 else {
                problems.append("\(label) has the tolerance \"\(written)\", which is not a number of 0 or more")
                return nil
            }
            tolerance = number
        }
        let partial = alternatives.filter { $0.fraction.isPositive && $0 != right }
        if !partial.isEmpty {
            let values = partial.map { "\"\($0.text)\"" }.joined(separator: ", ")
            warnings.append("\(label) keeps only its right value \(MoodleCloze.number(value)): Quizbox has one value per number gap, so \(values) \(partial.count == 1 ? "was" : "were") dropped")
        }
        return GapFill.WeightedGap(.number(value: value, tolerance: tolerance, units: []), weight: weight)
    }
}
