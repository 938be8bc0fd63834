/// Writes a `MathNode` as MathML Core, which Chromium, Firefox and Safari render without script.
enum MathMLWriter {
    static func write(_ node: MathNode, display: Bool, source: String) -> String {
        var out = display ? "<math display=\"block\">" : "<math>"
        out += "<semantics>"
        out += row(node)
        out += "<annotation encoding=\"application/x-tex\">" + escape(source) + "</annotation></semantics></math>"
        return out
    }

    /// `node` as one element (an mrow when it is several).
    static func row(_ node: MathNode) -> String {
        if case .row(let nodes) = node, nodes.count != 1 { return "<mrow>" + nodes.map(element).joined() + "</mrow>" }
        return element(node)
    }

    static func element(_ node: MathNode) -> String {
        switch node {
        case .row(let nodes):
            return nodes.count == 1 ? element(nodes[0]) : "<mrow>" + nodes.map(element).joined() + "</mrow>"
        case .identifier(let name, let variant):
            return "<mi" + (variant.map { " mathvariant=\"\($0)\"" } ?? "") + ">" + escape(name) + "</mi>"
        case .number(let digits):
            return "<mn>" + escape(digits) + "</mn>"
        case .op(let symbol, let large, let fence):
            var attributes = ""
            if large { attributes += " largeop=\"true\" movablelimits=\"true\"" }
            if fence { attributes += " stretchy=\"false\"" }
            return "<mo" + attributes + ">" + escape(symbol) + "</mo>"
        case .text(let text):
            return "<mtext>" + escape(text) + "</mtext>"
        case .space(let em):
            return "<mspace width=\"\(em)em\"></mspace>"
        case .fraction(let numerator, let denominator, let line):
            return "<mfrac" + (line ? "" : " linethickness=\"0\"") + ">" + row(numerator) + row(denominator) + "</mfrac>"
        case .root(let radicand, let index):
            guard let index else { return "<msqrt>" + row(radicand) + "</msqrt>" }
            return "<mroot>" + row(radicand) + row(index) + "</mroot>"
        case .scripts(let base, let sub, let sup, let limits):
            let (both, under, over) = limits ? ("munderover", "munder", "mover") : ("msubsup", "msub", "msup")
            switch (sub, sup) {
            case (let sub?, let sup?): return "<\(both)>" + row(base) + row(sub) + row(sup) + "</\(both)>"
            case (let sub?, nil): return "<\(under)>" + row(base) + row(sub) + "</\(under)>"
            case (nil, let sup?): return "<\(over)>" + row(base) + row(sup) + "</\(over)>"
            case (nil, nil): return row(base)
            }
        case .accent(let base, let mark, let isUnder):
            let tag = isUnder ? "munder" : "mover"
            let attribute = isUnder ? "accentunder" : "accent"
            return "<\(tag) \(attribute)=\"true\">" + row(base) + "<mo>" + escape(mark) + "</mo></\(tag)>"
        case .fenced(let open, let close, let inner):
            var out = "<mrow>"
            if !open.isEmpty { out += "<mo fence=\"true\" form=\"prefix\">" + escape(open) + "</mo>" }
            out += row(inner)
            if !close.isEmpty { out += "<mo fence=\"true\" form=\"postfix\">" + escape(close) + "</mo>" }
            return out + "</mrow>"
        case .table(let rows, let align):
            // A class, not a style attribute: the pages' Content-Security-Policy allows no inline styles.
            let cell = "<mtd>"
            return (align.map { "<mtable class=\"align-\($0)\">" } ?? "<mtable>") + rows.map { "<mtr>" + $0.map { cell + row($0) + "</mtd>" }.joined() + "</mtr>" }.joined() + "</mtable>"
        }
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
