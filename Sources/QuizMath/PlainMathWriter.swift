import Foundation

/// Writes a `MathNode` as plain text for a terminal: ½ stays readable as (1)/(2), x² as x^2.
enum PlainMathWriter {
    static func write(_ node: MathNode) -> String {
        switch node {
        case .row(let nodes):
            // A sign after nothing or after another operator is unary: "−3", not " − 3".
            var out = ""
            var previous: MathNode?
            for node in nodes {
                if case .op(let symbol, _, _) = node, symbol == "−" || symbol == "+" || symbol == "±",
                   previous.map(Self.leavesASignUnary) ?? true {
                    out += symbol
                } else {
                    out += write(node)
                }
                previous = node
            }
            return out
        case .identifier(let name, _): return name.count > 1 && name.allSatisfy(\.isLetter) && name.first!.isASCII ? name + " " : name
        case .number(let digits): return digits
        case .op(let symbol, _, _):
            if symbol == "," { return ", " }
            return ["=", "<", ">", "≤", "≥", "≠", "≈", "≡", "→", "⇒", "⇔", "∈", "+", "−", "±", "×", "÷"].contains(symbol) ? " \(symbol) " : symbol
        case .text(let text): return text
        case .space: return " "
        case .fraction(let numerator, let denominator, let line):
            let top = grouped(numerator), bottom = grouped(denominator)
            return line ? "\(top)/\(bottom)" : "C(\(write(numerator)), \(write(denominator)))"
        case .root(let radicand, let index):
            return (index.map { "\(write($0))" } ?? "") + "√" + grouped(radicand)
        case .scripts(let base, let sub, let sup, _):
            var out = write(base).trimmingCharacters(in: .whitespaces)
            if let sub { out += "_" + grouped(sub) }
            if let sup {
                out += sup == .op("∘") ? "°" : sup == .op("′") || sup == .op("′′") ? write(sup) : "^" + grouped(sup)
            }
            return out + (base.isName ? " " : "")
        case .accent(let base, let mark, _):
            return mark == "→" ? "vec(\(write(base)))" : write(base) + mark
        case .fenced("(", ")", .fraction(let top, let bottom, line: false)):
            return "C(\(write(top)), \(write(bottom)))"
        case .fenced(let open, let close, let inner):
            return open + write(inner) + close
        case .table(let rows, _):
            return "[" + rows.map { $0.map(write).joined(separator: ", ") }.joined(separator: "; ") + "]"
        }
    }

    /// Whether a sign right after `node` is unary: after an operator or an opening bracket, not after
    /// a closing one, a factorial or a prime.
    private static func leavesASignUnary(_ node: MathNode) -> Bool {
        guard case .op(let symbol, _, _) = node else { return false }
        return ![")", "]", "}", "|", "‖", "⟩", "⌋", "⌉", "!", "′"].contains(symbol)
    }

    /// A part in parentheses unless it is one letter or number.
    private static func grouped(_ node: MathNode) -> String {
        let text = write(node).trimmingCharacters(in: .whitespaces)
        let simple = text.count == 1 || text.allSatisfy { $0.isNumber || $0 == "." } || text.allSatisfy(\.isLetter)
        return simple ? text : "(\(text))"
    }
}

extension MathNode {
    /// A function's name (sin, lim): a space after it in plain text.
    var isName: Bool {
        if case .identifier(let name, _) = self { return name.count > 1 && name.allSatisfy(\.isLetter) && name.first!.isASCII }
        return false
    }
}
