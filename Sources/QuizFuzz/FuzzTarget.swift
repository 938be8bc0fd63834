import Foundation
import QuizCore
import QuizFormats
import QuizMath

/// One reader under test: how to run it on bytes and check what it returned, what to start from,
/// and which tokens of its format the mutator inserts.
struct FuzzTarget: Sendable {
    /// Also the corpus folder's name, `Tests/fuzz-corpus/<name>/`.
    let name: String
    /// Folders of shared/testdata/formats whose files seed this reader, with the ending they need ("" for all).
    let shared: [(folder: String, suffix: String)]
    let seeds: [String]
    let tokens: [String]
    let nesting: [(open: String, close: String)]
    /// Reads the input and checks what came back; `variant` picks the reader's options.
    let run: @Sendable (_ input: [UInt8], _ variant: UInt64) -> Verdict

    struct Verdict {
        /// The reader returned a result rather than an error.
        var accepted = false
        /// The promises it broke.
        var violations: [String] = []
    }

    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }

    static let all: [FuzzTarget] = [
        FuzzTarget(name: "csv", shared: [("csv", "")], seeds: Seeds.csv, tokens: Seeds.csvTokens,
                   nesting: [("\"", "\"")], run: readCSV),
        FuzzTarget(name: "gift", shared: [("gift", ".gift")], seeds: Seeds.gift, tokens: Seeds.giftTokens,
                   nesting: [("{", "}"), ("<div>", "</div>"), ("<!--", "-->")], run: reading(.gift, emptyBank: .warned)),
        FuzzTarget(name: "moodle-xml", shared: [("moodlexml", "")], seeds: Seeds.moodleXML, tokens: Seeds.moodleXMLTokens,
                   nesting: [("<text>", "</text>"), ("<a>", "</a>"), ("<question>", "</question>")],
                   run: reading(.moodleXML, emptyBank: .warned)),
        FuzzTarget(name: "aiken", shared: [("aiken", ""), ("trivia-dumps", ".txt")], seeds: Seeds.aiken,
                   tokens: Seeds.aikenTokens, nesting: [], run: reading(.aiken, emptyBank: .refused)),
        FuzzTarget(name: "opentdb", shared: [("opentdb", "")], seeds: Seeds.openTriviaDB, tokens: Seeds.jsonTokens + Seeds.openTriviaDBTokens,
                   nesting: Seeds.jsonNesting, run: reading(.openTriviaDB, emptyBank: .refused)),
        FuzzTarget(name: "remote", shared: [("trivia-dumps", ".json")], seeds: Seeds.remote, tokens: Seeds.jsonTokens + Seeds.remoteTokens,
                   nesting: Seeds.jsonNesting, run: reading(.remote, emptyBank: .refused)),
        FuzzTarget(name: "bundle", shared: [], seeds: Seeds.bundle, tokens: Seeds.jsonTokens + Seeds.bundleTokens,
                   nesting: Seeds.jsonNesting, run: reading(.bundle, emptyBank: .allowed)),
        FuzzTarget(name: "json", shared: [("opentdb", ".json"), ("trivia-dumps", ".json"), ("gift", ".json")], seeds: Seeds.json,
                   tokens: Seeds.jsonTokens, nesting: Seeds.jsonNesting, run: readJSON),
        FuzzTarget(name: "feed", shared: [("moodlexml", ".xml")], seeds: Seeds.feed, tokens: Seeds.feedTokens,
                   nesting: [("<item>", "</item>"), ("<div>", "</div>"), ("<b>", "</b>")], run: readFeed),
        FuzzTarget(name: "xlsx", shared: [], seeds: Seeds.xlsx, tokens: Seeds.xlsxTokens,
                   nesting: [("<row>", "</row>"), ("<c>", "</c>"), ("<si>", "</si>")], run: readXLSX),
        FuzzTarget(name: "cloze", shared: [], seeds: Seeds.cloze, tokens: Seeds.clozeTokens,
                   nesting: [("{", "}")], run: readCloze),
        FuzzTarget(name: "tex", shared: [], seeds: Seeds.tex, tokens: Seeds.texTokens,
                   nesting: [("{", "}"), ("\\left(", "\\right)"), ("\\begin{matrix}", "\\end{matrix}")], run: readTeX),
        FuzzTarget(name: "html-entities", shared: [], seeds: Seeds.htmlEntities, tokens: Seeds.htmlEntityTokens,
                   nesting: [], run: readEntities),
    ]

    private static func reading(_ format: BankFormat, emptyBank: Invariants.EmptyBank) -> @Sendable ([UInt8], UInt64) -> Verdict {
        { input, variant in
            let data = Data(input)
            _ = BankFormat.detect(fileName: variant & 2 == 0 ? "upload" : "upload.txt", data: data)
            var invariants = Invariants(input: input)
            let read = invariants.readStrictlyAndSkipping(emptyBank: emptyBank) { skipInvalid throws(ImportError) in
                try format.read(data, defaults: ImportDefaults(skipInvalid: skipInvalid))
            }
            return Verdict(accepted: read.skipping != nil, violations: invariants.violations)
        }
    }

    /// CSV in each answer-column mode, read whole and a few rows at a time (the path large files
    /// take): both ways must agree on whether the file is good and on its questions.
    private static func readCSV(_ input: [UInt8], variant: UInt64) -> Verdict {
        let data = Data(input)
        var invariants = Invariants(input: input)
        let columns = CSVReader.AnswerColumn.allCases
        let column = columns[Int((variant >> 2) % UInt64(columns.count))]
        let read = invariants.readStrictlyAndSkipping(emptyBank: .refused) { skipInvalid throws(ImportError) in
            try CSVReader(options: CSVReader.Options(answerColumn: column, skipInvalid: skipInvalid)).readResult(data)
        }
        let skipInvalid = variant & 1 == 1
        let whole = skipInvalid ? read.skipping : read.strict
        let options = CSVReader.Options(answerColumn: column, skipInvalid: skipInvalid)
        var batches = CSVBatchReader(data: data, options: options)
        var entries: [BankEntry] = []
        do {
            while let batch = try batches.next(limit: Int((variant >> 4) % 3) + 1) { entries += batch }
            if let whole {
                let questions = whole.bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions)
                if Set(questions) != Set(entries.map(\.question)) || questions.count != entries.count {
                    invariants.violations.append("read in batches, \(entries.count) questions; read whole, \(questions.count), or others")
                }
            } else {
                invariants.violations.append("read in batches, the file is good (\(entries.count) questions); read whole, it is refused")
            }
        } catch {
            if whole != nil { invariants.violations.append("read whole, the file is good; read in batches, it is refused: \(error)") }
        }
        return Verdict(accepted: read.skipping != nil, violations: invariants.violations)
    }

    /// A workbook whose sheet (or, in half the runs, whose shared strings) is the input: mutating
    /// a ZIP's bytes would mostly break its checksums, so the XML inside is what is fuzzed; in a
    /// quarter of the runs a few of the archive's own bytes are overwritten too (its headers and
    /// directory, as a damaged or forged file has them).
    private static func readXLSX(_ input: [UInt8], variant: UInt64) -> Verdict {
        let strings = variant & 4 == 0 ? Data(Seeds.xlsxSharedStrings.utf8) : Data(input)
        let sheet = variant & 4 == 0 ? Data(input) : Data(Seeds.xlsxSheetOfStrings.utf8)
        var data = XLSXWriter.archive([
            ("xl/workbook.xml", Data(Seeds.xlsxWorkbook.utf8)),
            ("xl/_rels/workbook.xml.rels", Data(Seeds.xlsxRelations.utf8)),
            ("xl/worksheets/sheet1.xml", sheet),
            ("xl/sharedStrings.xml", strings),
        ])
        let damaged = variant & 8 != 0 && variant & 16 != 0 && !data.isEmpty
        if damaged {
            for k in 0..<3 {
                let position = Int((variant >> UInt64(20 + 13 * k)) % UInt64(data.count))
                data[data.startIndex + position] = UInt8(truncatingIfNeeded: variant >> UInt64(8 * k))
            }
        }
        // Problems name lines of the XML part, which is the input (the fixed part has one line);
        // a damaged archive may inflate to other text, of up to a part's size in lines.
        var invariants = damaged ? Invariants(lineCount: 64 << 20) : Invariants(input: input)
        let read = invariants.readStrictlyAndSkipping(emptyBank: .refused) { skipInvalid throws(ImportError) in
            try BankFormat.detect(fileName: "", data: data).read(data, defaults: ImportDefaults(skipInvalid: skipInvalid))
        }
        return Verdict(accepted: read.skipping != nil, violations: invariants.violations)
    }

    /// The JSON parser under the three readers built on it.
    private static func readJSON(_ input: [UInt8], variant: UInt64) -> Verdict {
        let data = Data(input)
        var invariants = Invariants(input: input)
        let formats: [(BankFormat, Invariants.EmptyBank)] = [(.bundle, .allowed), (.openTriviaDB, .refused), (.remote, .refused)]
        var accepted = false
        for (format, emptyBank) in formats {
            let read = invariants.readStrictlyAndSkipping(emptyBank: emptyBank) { skipInvalid throws(ImportError) in
                try format.read(data, defaults: ImportDefaults(skipInvalid: skipInvalid))
            }
            accepted = accepted || read.skipping != nil
        }
        return Verdict(accepted: accepted, violations: invariants.violations)
    }

    private static let feedURL = URL(string: "https://news.example.org/feed/")

    private static func readFeed(_ input: [UInt8], variant: UInt64) -> Verdict {
        var invariants = Invariants(input: input)
        let reader = NewsFeedReader(feedURL: variant & 1 == 0 ? feedURL : nil, now: Date(timeIntervalSince1970: 1_700_000_000))
        let read = invariants.read({ () throws(ImportError) in try reader.read(Data(input)) }) { $0.check($1) }
        return Verdict(accepted: read != nil, violations: invariants.violations)
    }

    /// HTML character references, decoded where Open Trivia DB's default encoding puts them: the
    /// input is the question's text and its correct answer.
    private static func readEntities(_ input: [UInt8], variant: UInt64) -> Verdict {
        let text = jsonString(String(decoding: input, as: UTF8.self))
        let document = """
            {"response_code": 0, "results": [{"category": "Entities: \(variant & 2 == 0 ? "Text" : "&amp;")", "type": "multiple",
             "difficulty": "easy", "question": \(text), "correct_answer": \(text),
             "incorrect_answers": ["&lt;", "&#8217;", "&#x27;&quot;"]}]}
            """
        let bytes = Array(document.utf8)
        var invariants = Invariants(input: bytes)
        let read = invariants.readStrictlyAndSkipping(emptyBank: .refused) { skipInvalid throws(ImportError) in
            try OpenTriviaReader(defaults: ImportDefaults(skipInvalid: skipInvalid), encoding: .htmlEntities).read(Data(bytes))
        }
        return Verdict(accepted: read.skipping != nil, violations: invariants.violations)
    }

    /// The cloze codec (`MoodleCloze`): text it accepts is written back and read again to the
    /// same gap fill.
    private static func readCloze(_ input: [UInt8], variant: UInt64) -> Verdict {
        let text = String(decoding: input, as: UTF8.self)
        guard let parsed = try? MoodleCloze.parse(text) else { return Verdict() }
        var verdict = Verdict(accepted: true)
        let gapFill = parsed.gapFill
        if !GapFill.gapCountRange.contains(gapFill.gaps.count) {
            verdict.violations.append("accepted with \(gapFill.gaps.count) gaps")
        }
        let written = MoodleCloze.write(gapFill)
        do {
            let again = try MoodleCloze.parse(written).gapFill
            if again != gapFill { verdict.violations.append("written as \(written.debugDescription), read back differently") }
        } catch where written.utf8.count > MoodleCloze.maxLength {
            // Escapes lengthen answers: text accepted near the limit may be written past it, and
            // is then refused whole, saying so.
        } catch {
            verdict.violations.append("written as \(written.debugDescription), refused: \(error)")
        }
        return verdict
    }

    /// The TeX converter (`MathText`): whatever the text, the HTML holds only the elements it
    /// writes, so nothing typed in a question becomes markup.
    private static func readTeX(_ input: [UInt8], variant: UInt64) -> Verdict {
        let text = String(decoding: input, as: UTF8.self)
        let (html, problems) = MathText.html(text)
        _ = MathText.plainText(text)
        var verdict = Verdict(accepted: problems.isEmpty)
        if let stray = TeXCheck.strayMarkup(in: html) { verdict.violations.append("wrote markup it does not make: \(stray)") }
        return verdict
    }

    private static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{0}"..."\u{1F}": out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
