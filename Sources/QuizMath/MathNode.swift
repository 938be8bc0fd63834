/// A formula as read from TeX, before it is written as MathML or as plain text.
indirect enum MathNode: Sendable, Equatable {
    case row([MathNode])
    /// A letter or a name set upright (`sin`, `\mathrm{d}`); `variant` is MathML's mathvariant.
    case identifier(String, variant: String? = nil)
    case number(String)
    /// An operator, relation or fence; `largeOperator` takes its limits under and over in display.
    case op(String, largeOperator: Bool = false, fence: Bool = false)
    case text(String)
    /// A space of `em` ems (negative for \!).
    case space(em: String)
    case fraction(MathNode, MathNode, line: Bool)
    case root(MathNode, index: MathNode?)
    /// Sub- and superscripts; under and over the base when `limits`.
    case scripts(base: MathNode, sub: MathNode?, sup: MathNode?, limits: Bool)
    /// A mark over (or under) its base: \hat, \vec, \overline, \underline.
    case accent(MathNode, mark: String, under: Bool)
    /// \left( … \right), and the brackets of pmatrix and friends; "" for none.
    case fenced(open: String, close: String, MathNode)
    /// Rows of cells: matrices, cases, aligned.
    case table([[MathNode]], columnAlign: String?)
}
