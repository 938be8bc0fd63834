import QuizMath

/// A question's words for a page: HTML with its TeX as MathML, for `{{{…}}}` in templates; or as
/// plain text where markup cannot go (a select's options).
enum RichText {
    static func html(_ text: String) -> String {
        MathText.mayHoldMath(text) ? MathText.html(text).html : MathText.escape(text)
    }

    static func html(_ text: String?) -> String? { text.map { html($0) } }

    static func plain(_ text: String) -> String {
        MathText.mayHoldMath(text) ? MathText.plainText(text) : text
    }
}
