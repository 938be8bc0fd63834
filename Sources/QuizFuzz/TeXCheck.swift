/// What MathText may write into a page: MathML's elements, the TeX source's annotation and a code span.
enum TeXCheck {
    static let elements: Set<String> = [
        "math", "semantics", "annotation", "mrow", "mi", "mn", "mo", "mtext", "mspace", "mfrac", "msqrt", "mroot", "msub", "msup",
        "msubsup", "munder", "mover", "munderover", "mtable", "mtr", "mtd", "code",
    ]

    /// The first tag that is not one of `elements`, or nil.
    static func strayMarkup(in html: String) -> String? {
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            let name = after.drop { $0 == "/" }.prefix { $0.isLetter }
            if !elements.contains(String(name)) { return String(rest[open...].prefix(20)) }
            rest = after
        }
        return nil
    }
}
