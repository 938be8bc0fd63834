/// What one line of an Aiken file is. Columns are 1-based and count characters (Unicode scalars)
/// of the line as written, leading spaces included.
enum AikenLine: Equatable {
    case blank
    /// Question text.
    case text(String, column: Int)
    /// `A. text` or `A) text`: an upper-case letter, `.` or `)`, then a space (or nothing).
    case option(Character, letterColumn: Int, text: String, textColumn: Int)
    /// `ANSWER: X`; `letter` is upper case. `problem` says why it is unusable; `column` points at
    /// the letter (or where it should be), `keywordColumn` at `ANSWER`.
    case answer(Character?, column: Int, keywordColumn: Int, problem: String?)

    static let letters: [Character] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { Character(Unicode.Scalar($0)) }

    init(_ raw: String) {
        let scalars = Array(raw.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, scalars[start].properties.isWhitespace { start += 1 }
        while end > start, scalars[end - 1].properties.isWhitespace { end -= 1 }
        guard start < end else {
            self = .blank
            return
        }
        let line = scalars[start..<end]
        func text(from index: Int) -> (String, column: Int) {
            var first = index
            while first < end, scalars[first].properties.isWhitespace { first += 1 }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[first..<end])
            return (String(view), first + 1)
        }

        // An option: "A." or "A)" followed by whitespace or the end of the line.
        if line.count >= 2, ("A"..."Z").contains(scalars[start]), scalars[start + 1] == "." || scalars[start + 1] == ")",
           line.count == 2 || scalars[start + 2].properties.isWhitespace {
            let (body, column) = text(from: start + 2)
            self = .option(Character(scalars[start]), letterColumn: start + 1, text: body, textColumn: column)
            return
        }

        // "ANSWER:" in any case, then one letter.
        let keyword = "answer:"
        if line.count >= keyword.count,
           String(String.UnicodeScalarView(line.prefix(keyword.count))).lowercased() == keyword {
            let (rest, column) = text(from: start + keyword.count)
            let letter = rest.uppercased()
            if rest.isEmpty {
                self = .answer(nil, column: column, keywordColumn: start + 1,
                               problem: "\"ANSWER:\" needs the letter of the correct option, as in \"ANSWER: B\"")
            } else if letter.count == 1, let found = letter.first, AikenLine.letters.contains(found) {
                self = .answer(found, column: column, keywordColumn: start + 1, problem: nil)
            } else {
                self = .answer(nil, column: column, keywordColumn: start + 1,
                               problem: "expected one letter A–Z after \"ANSWER:\", found \"\(rest)\"")
            }
            return
        }

        self = .text(text(from: start).0, column: start + 1)
    }
}
