import Foundation

/// Why a formula was not converted: a command or construct the converter does not know, or TeX
/// that does not close. The formula is then shown as its source.
public struct TeXError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Reads the TeX of one formula (what sits between `$$` and `$$`) into a `MathNode`.
struct TeXParser {
    static let maxLength = 4_000
    static let maxDepth = 40

    private let characters: [Character]
    private var position = 0
    private var depth = 0

    init(_ tex: String) {
        characters = Array(tex)
    }

    static func parse(_ tex: String) throws(TeXError) -> MathNode {
        guard tex.count <= maxLength else { throw TeXError(message: "the formula is longer than \(maxLength) characters") }
        var parser = TeXParser(tex)
        let node = try parser.sequence(until: nil)
        return node
    }

    // MARK: Reading

    private var atEnd: Bool { position >= characters.count }

    private mutating func skipSpaces() {
        while !atEnd, characters[position].isWhitespace { position += 1 }
    }

    /// A command's name after its backslash: letters, or one other character.
    private mutating func commandName() throws(TeXError) -> String {
        guard !atEnd else { throw TeXError(message: "a \\ ends the formula") }
        if characters[position].isASCII, characters[position].isLetter {
            var name = ""
            while !atEnd, characters[position].isASCII, characters[position].isLetter {
                name.append(characters[position])
                position += 1
            }
            return name
        }
        defer { position += 1 }
        return String(characters[position])
    }

    /// `{…}` as raw text (for \text and \begin), braces inside balanced.
    private mutating func rawGroup() throws(TeXError) -> String {
        skipSpaces()
        guard !atEnd, characters[position] == "{" else { throw TeXError(message: "a { was expected") }
        position += 1
        var level = 1, text = ""
        while !atEnd {
            let character = characters[position]
            position += 1
            if character == "\\", !atEnd {
                text.append(character)
                text.append(characters[position])
                position += 1
                continue
            }
            if character == "{" { level += 1 }
            if character == "}" {
                level -= 1
                if level == 0 { return text }
            }
            text.append(character)
        }
        throw TeXError(message: "a { is not closed")
    }

    // MARK: Structure

    /// Atoms up to `end` (a "}", an "&" or "\\" in a table, \right, \end) or the end of the formula.
    private mutating func sequence(until end: Set<String>?) throws(TeXError) -> MathNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw TeXError(message: "the formula nests deeper than \(Self.maxDepth) levels") }
        var nodes: [MathNode] = []
        while true {
            skipSpaces()
            if atEnd {
                if end != nil { throw TeXError(message: "a { or \\begin is not closed") }
                break
            }
            if let end, let found = peekEnd(end) { _ = found; break }
            guard var node = try atom() else { continue }
            node = try scripts(on: node)
            nodes.append(node)
        }
        return nodes.count == 1 ? nodes[0] : .row(nodes)
    }

    /// Which of `end` comes next, without reading it.
    private func peekEnd(_ end: Set<String>) -> String? {
        let character = characters[position]
        if character == "}", end.contains("}") { return "}" }
        if character == "&", end.contains("&") { return "&" }
        if character == "\\", position + 1 < characters.count {
            let next = characters[position + 1]
            if next == "\\", end.contains("\\\\") { return "\\\\" }
            for word in ["right", "end", "middle"] where end.contains(word) {
                let letters = characters[(position + 1)...].prefix { $0.isASCII && $0.isLetter }
                if String(letters) == word { return word }
            }
        }
        return nil
    }

    /// `_` and `^` after an atom, and primes.
    private mutating func scripts(on base: MathNode) throws(TeXError) -> MathNode {
        var sub: MathNode?, sup: MathNode?
        var primes = ""
        var limits = Self.takesLimits(base)
        while true {
            skipSpaces()
            guard !atEnd else { break }
            let character = characters[position]
            if character == "'" {
                primes.append("′")
                position += 1
            } else if character == "_" || character == "^" {
                position += 1
                let argument = try self.argument()
                if character == "_" {
                    guard sub == nil else { throw TeXError(message: "a double subscript") }
                    sub = argument
                } else {
                    guard sup == nil else { throw TeXError(message: "a double superscript") }
                    sup = argument
                }
            } else if character == "\\", matchesCommand("limits") {
                position += "\\limits".count
                limits = true
            } else if character == "\\", matchesCommand("nolimits") {
                position += "\\nolimits".count
                limits = false
            } else {
                break
            }
        }
        if !primes.isEmpty {
            let mark = MathNode.op(primes)
            sup = sup.map { .row([mark, $0]) } ?? mark
        }
        guard sub != nil || sup != nil else { return base }
        return .scripts(base: base, sub: sub, sup: sup, limits: limits)
    }

    private func matchesCommand(_ name: String) -> Bool {
        let letters = characters[(position + 1)...].prefix { $0.isASCII && $0.isLetter }
        return String(letters) == name
    }

    private static func takesLimits(_ node: MathNode) -> Bool {
        switch node {
        case .op(_, let large, _): large
        case .identifier(let name, _): TeXSymbols.limitFunctions.contains(name)
        default: false
        }
    }

    /// One argument: a group, a command, or a single character (`x^2` takes the 2 alone).
    private mutating func argument() throws(TeXError) -> MathNode {
        skipSpaces()
        guard !atEnd else { throw TeXError(message: "an argument is missing at the end") }
        let character = characters[position]
        if character == "{" {
            position += 1
            let node = try sequence(until: ["}"])
            position += 1
            return node
        }
        if character.isNumber {
            position += 1
            return .number(String(character))
        }
        if character == "^" || character == "_" { throw TeXError(message: "\(character) has no argument") }
        guard let node = try atom() else { throw TeXError(message: "an argument is missing") }
        return node
    }

    /// One thing: nil for what takes no place (\displaystyle, \limits on its own).
    private mutating func atom() throws(TeXError) -> MathNode? {
        let character = characters[position]
        switch character {
        case "{":
            position += 1
            let node = try sequence(until: ["}"])
            position += 1
            return node
        case "}":
            throw TeXError(message: "a } has no {")
        case "\\":
            position += 1
            return try command(try commandName())
        case "^", "_":
            // A script with nothing before it: on an empty base.
            return try scripts(on: .row([]))
        case "&":
            throw TeXError(message: "& outside a matrix")
        case "~":
            position += 1
            return .space(em: "0.25")
        default:
            if character.isNumber || (character == "." && position + 1 < characters.count && characters[position + 1].isNumber) {
                return .number(readNumber())
            }
            position += 1
            if character.isLetter { return .identifier(String(character)) }
            if character == "'" { return .op("′") }
            switch character {
            case "-": return .op("−")
            case "*": return .op("∗")
            case "(", ")", "[", "]", "|": return .op(String(character), fence: true)
            default: return .op(String(character))
            }
        }
    }

    private mutating func readNumber() -> String {
        var text = ""
        var seenPoint = false
        while !atEnd {
            let character = characters[position]
            if character.isNumber {
                text.append(character)
            } else if character == ".", !seenPoint, position + 1 < characters.count, characters[position + 1].isNumber {
                seenPoint = true
                text.append(character)
            } else {
                break
            }
            position += 1
        }
        return text
    }

    // MARK: Commands

    private mutating func command(_ name: String) throws(TeXError) -> MathNode? {
        if let letter = TeXSymbols.greek[name] {
            return .identifier(letter, variant: letter.first!.isUppercase ? "normal" : nil)
        }
        if let symbol = TeXSymbols.ordinary[name] { return .identifier(symbol) }
        if let symbol = TeXSymbols.operators[name] {
            return .op(symbol, fence: ["langle", "rangle", "lfloor", "rfloor", "lceil", "rceil", "vert", "Vert", "lbrace", "rbrace"].contains(name))
        }
        if let symbol = TeXSymbols.largeOperators[name] { return .op(symbol, largeOperator: true) }
        if let symbol = TeXSymbols.integrals[name] { return .op(symbol) }
        if TeXSymbols.functions.contains(name) || TeXSymbols.limitFunctions.contains(name) {
            return .identifier(name == "limsup" ? "lim sup" : name == "liminf" ? "lim inf" : name)
        }
        if let em = TeXSymbols.spaces[name] { return .space(em: em) }
        if let mark = TeXSymbols.accents[name] { return .accent(try argument(), mark: mark, under: false) }
        if TeXSymbols.styled("A", font: name) != nil {
            let text = try rawGroup()
            guard let styled = TeXSymbols.styled(text, font: name) else { throw TeXError(message: "\\\(name) takes letters and digits only") }
            return .identifier(styled)
        }
        switch name {
        case "frac", "dfrac", "tfrac", "cfrac":
            return .fraction(try argument(), try argument(), line: true)
        case "binom", "dbinom", "tbinom":
            return .fenced(open: "(", close: ")", .fraction(try argument(), try argument(), line: false))
        case "sqrt":
            skipSpaces()
            var index: MathNode?
            if !atEnd, characters[position] == "[" {
                position += 1
                var text = ""
                while !atEnd, characters[position] != "]" { text.append(characters[position]); position += 1 }
                guard !atEnd else { throw TeXError(message: "a [ is not closed") }
                position += 1
                index = try TeXParser.parse(text)
            }
            return .root(try argument(), index: index)
        case "mathrm", "mathit":
            // Maths inside (\mathrm{H_2O}): its letters upright for \mathrm.
            let inner = try argument()
            return name == "mathrm" ? Self.upright(inner) : inner
        case "text", "textrm", "mbox", "textit", "textbf", "rm", "operatorname", "textnormal":
            if name == "rm" { return nil }
            let text = try rawGroup().replacingOccurrences(of: "\\ ", with: " ").replacingOccurrences(of: "\\%", with: "%")
                .replacingOccurrences(of: "\\$", with: "$").replacingOccurrences(of: "\\&", with: "&")
            guard !text.contains("\\") else { throw TeXError(message: "\\\(name){…} holds a command") }
            switch name {
            case "operatorname": return .identifier(text, variant: text.count == 1 ? "normal" : nil)
            default: return .text(text)
            }
        case "overline": return .accent(try argument(), mark: "¯", under: false)
        case "underline": return .accent(try argument(), mark: "_", under: true)
        case "overbrace": return .accent(try argument(), mark: "⏞", under: false)
        case "underbrace": return .accent(try argument(), mark: "⏟", under: true)
        case "left":
            let open = try delimiter()
            var inner: [MathNode] = [try sequence(until: ["right", "middle"])]
            while matchesCommand("middle") {
                position += "\\middle".count
                inner.append(.op(try delimiter(), fence: true))
                inner.append(try sequence(until: ["right", "middle"]))
            }
            guard !atEnd, matchesCommand("right") else { throw TeXError(message: "\\left has no \\right") }
            position += "\\right".count
            let close = try delimiter()
            return .fenced(open: open, close: close, inner.count == 1 ? inner[0] : .row(inner))
        case "right", "middle": throw TeXError(message: "\\\(name) has no \\left")
        case "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "Biggl", "Biggr":
            return .op(try delimiter(), fence: true)
        case "begin": return try environment()
        case "end": throw TeXError(message: "\\end has no \\begin")
        case "displaystyle", "textstyle", "scriptstyle", "limits", "nolimits", "nonumber", "notag":
            return nil
        case "{", "}", "%", "$", "#", "&", "_":
            return .op(name)
        case "|": return .op("‖", fence: true)
        case "not":
            skipSpaces()
            guard !atEnd, case .op(let symbol, _, _)? = try atom() else { throw TeXError(message: "\\not before no relation") }
            return .op(symbol == "=" ? "≠" : symbol + "\u{0338}")
        case "mod", "bmod": return .identifier("mod")
        case "pmod": return .fenced(open: "(", close: ")", .row([.identifier("mod"), .space(em: "0.2222"), try argument()]))
        case "\\": throw TeXError(message: "\\\\ outside a matrix")
        default:
            throw TeXError(message: "\\\(name) is not known")
        }
    }

    /// Single letters set upright, as \mathrm sets them.
    private static func upright(_ node: MathNode) -> MathNode {
        switch node {
        case .identifier(let name, nil) where name.count == 1: .identifier(name, variant: "normal")
        case .row(let nodes): .row(nodes.map(upright))
        case .scripts(let base, let sub, let sup, let limits): .scripts(base: upright(base), sub: sub.map(upright), sup: sup.map(upright), limits: limits)
        default: node
        }
    }

    private mutating func delimiter() throws(TeXError) -> String {
        skipSpaces()
        guard !atEnd else { throw TeXError(message: "a delimiter is missing") }
        var written = String(characters[position])
        position += 1
        if written == "\\" { written += try commandName() }
        guard let symbol = TeXSymbols.delimiters[written] else { throw TeXError(message: "\(written) is not a delimiter") }
        return symbol
    }

    /// \begin{matrix} … \end{matrix} and its bracketed kinds, cases, aligned, array.
    private mutating func environment() throws(TeXError) -> MathNode {
        let name = try rawGroup()
        let fences: [String: (String, String)] = [
            "matrix": ("", ""), "smallmatrix": ("", ""), "pmatrix": ("(", ")"), "bmatrix": ("[", "]"), "Bmatrix": ("{", "}"),
            "vmatrix": ("|", "|"), "Vmatrix": ("‖", "‖"), "cases": ("{", ""), "aligned": ("", ""), "align": ("", ""),
            "align*": ("", ""), "array": ("", ""), "gathered": ("", ""), "split": ("", ""),
        ]
        guard let (open, close) = fences[name] else { throw TeXError(message: "\\begin{\(name)} is not known") }
        if name == "array" { _ = try rawGroup() }  // the column spec: every column centred
        var rows: [[MathNode]] = []
        var cells: [MathNode] = []
        while true {
            cells.append(try sequence(until: ["&", "\\\\", "end"]))
            guard !atEnd else { throw TeXError(message: "\\begin{\(name)} has no \\end") }
            if characters[position] == "&" {
                position += 1
            } else if characters[position] == "\\", characters[position + 1] == "\\" {
                position += 2
                rows.append(cells)
                cells = []
            } else {
                position += "\\end".count
                guard try rawGroup() == name else { throw TeXError(message: "\\begin{\(name)} ends with another \\end") }
                if cells != [.row([])] || rows.isEmpty { rows.append(cells) }
                break
            }
        }
        let align: String? = ["cases", "aligned", "align", "align*", "split"].contains(name) ? "left" : nil
        let table = MathNode.table(rows, columnAlign: align)
        return open.isEmpty && close.isEmpty ? table : .fenced(open: open, close: close, table)
    }
}
