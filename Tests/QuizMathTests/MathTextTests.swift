import Foundation
@testable import QuizMath
import Testing

/// Finding TeX in a text and writing the text as HTML: prose escaped, formulas as MathML, what the
/// converter does not know kept as its source.
@Suite struct MathTextTests {
    @Test func formulasAreFoundBetweenTheirDelimitersAndALoneDollarIsMoney() {
        #expect(MathText.pieces("It costs $5 and $$\\frac{1}{2}$$ of it, or \\(x^2\\) \\[y\\].") == [
            .text("It costs $5 and "), .math(tex: "\\frac{1}{2}", display: true, source: "$$\\frac{1}{2}$$"), .text(" of it, or "),
            .math(tex: "x^2", display: false, source: "\\(x^2\\)"), .text(" "), .math(tex: "y", display: true, source: "\\[y\\]"), .text("."),
        ])
        #expect(MathText.pieces("No closing $$x or \\(y") == [.text("No closing $$x or \\(y")])
        #expect(MathText.pieces("Plain text") == [.text("Plain text")])
    }

    @Test func htmlEscapesTheProseAndKeepsTheSourceBesideTheMathML() {
        let (html, problems) = MathText.html("If <b>x</b> & $$\\frac{1}{2}$$")
        #expect(problems.isEmpty)
        #expect(html == "If &lt;b&gt;x&lt;/b&gt; &amp; <math display=\"block\"><semantics><mfrac><mn>1</mn><mn>2</mn></mfrac>"
            + "<annotation encoding=\"application/x-tex\">\\frac{1}{2}</annotation></semantics></math>")
        #expect(MathText.html("\\(a<b\\)").html.contains("<mo>&lt;</mo>"))
        #expect(MathText.html("\\(a\\)").html.hasPrefix("<math><semantics>"))
    }

    /// What a live message sends beside a text: HTML only when there is a formula to show.
    @Test func htmlIfMathIsNilWithoutAFormula() {
        #expect(MathText.htmlIfMath("Plain <b>words</b>") == nil)
        #expect(MathText.htmlIfMath("It costs $5, or $$ unclosed") == nil)
        #expect(MathText.htmlIfMath("If <b>x</b> & $$\\frac{1}{2}$$") == MathText.html("If <b>x</b> & $$\\frac{1}{2}$$").html)
        #expect(MathText.htmlIfMath("$$\\color{red}{y}$$")?.hasPrefix("<code class=\"tex\">") == true)
    }

    @Test func texTheConverterDoesNotKnowIsShownAsItsSourceWithTheReason() {
        let (html, problems) = MathText.html("Red: $$\\color{red}{x}$$ and $$\\frac{1}{2$$")
        #expect(html == "Red: <code class=\"tex\">$$\\color{red}{x}$$</code> and <code class=\"tex\">$$\\frac{1}{2$$</code>")
        #expect(problems.map(\.message) == ["\\color is not known", "a { or \\begin is not closed"])
        // Markup inside a formula is only characters in it.
        #expect(!MathText.html("$$<script>$$ $$\\text{<b>}$$").html.contains("<script>"))
        #expect(!MathText.html("$$\\text{<b>}$$").html.contains("<b>"))
    }

    @Test func brokenTexIsAnErrorNeverACrash() {
        for tex in ["}", "{", "x^", "x_", "x^^2", "x_1_2", "\\", "\\left(", "\\right)", "\\begin{matrix}", "\\begin{foo}x\\end{foo}",
                    "\\begin{matrix}x\\end{pmatrix}", "\\sqrt[3", "a & b", "\\\\", "\\text{\\x}", "\\mathbb{!}", "\\not x", "\\end{matrix}"] {
            #expect(throws: TeXError.self, "\(tex)") { try MathText.mathML(tex, display: false) }
        }
        #expect(throws: TeXError(message: "the formula nests deeper than 40 levels")) {
            try MathText.mathML(String(repeating: "{", count: 100) + "x" + String(repeating: "}", count: 100), display: false)
        }
        #expect(throws: TeXError(message: "the formula is longer than 4000 characters")) {
            try MathText.mathML(String(repeating: "x", count: 4_001), display: false)
        }
    }

    @Test func oneTextCostsBoundedWork() {
        let many = String(repeating: "$$x$$ ", count: 300)
        #expect(MathText.pieces(many).count(where: { if case .math = $0 { true } else { false } }) == MathText.maxFormulas)
        let long = String(repeating: "$$x$$", count: 5_000)
        #expect(MathText.html(long).html == long)
        // Openers without closers are prose, and cost one search each kind.
        let open = String(repeating: "\\( \\[ ", count: 3_000)
        #expect(MathText.pieces(open) == [.text(open)])
    }

    @Test func theTerminalReadsFormulasAsPlainText() {
        #expect(MathText.plainText("Solve $$x^2 + 3x - 28 = 0$$ for \\(x\\); $$\\color{red}{y}$$") ==
            "Solve x^2 + 3x − 28 = 0 for x; $$\\color{red}{y}$$")
    }

    /// Every formula of a real GIFT bank (its TeX unescaped as GIFT does) converts.
    @Test func theFormulasOfARealBankAllConvert() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/testdata/formats/gift/qas-all.gift")
        let gift = try String(contentsOf: url, encoding: .utf8)
        var unescaped = gift
        for (escaped, plain) in [("\\\\", "\u{0}"), ("\\{", "{"), ("\\}", "}"), ("\\=", "="), ("\\:", ":"), ("\\~", "~"), ("\\#", "#"), ("\u{0}", "\\")] {
            unescaped = unescaped.replacingOccurrences(of: escaped, with: plain)
        }
        let formulas = MathText.pieces(unescaped).compactMap { piece -> String? in
            if case .math(let tex, _, _) = piece { tex } else { nil }
        }
        #expect(formulas.count >= 5)
        for tex in formulas where !tex.contains("<") {
            #expect(throws: Never.self, "\(tex)") { try MathText.mathML(tex, display: true) }
        }
    }
}
