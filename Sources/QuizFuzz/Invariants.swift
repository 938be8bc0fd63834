import QuizCore
import QuizFormats

/// What every reader promises about what it returns, checked on each fuzzed input. A violation
/// is a sentence saying what is wrong; an empty list means the reader kept its promises.
struct Invariants {
    /// The physical lines of the input (LF, CRLF and a lone CR each end one), counted loosely
    /// (a CRLF counts twice): a problem located past them points outside the file.
    let lineCount: Int
    var violations: [String] = []

    init(input: [UInt8]) {
        lineCount = 1 + input.count(where: { $0 == 0x0A || $0 == 0x0D })
    }

    /// For an input whose lines are not the file's (a damaged archive inflates to other text).
    init(lineCount: Int) {
        self.lineCount = lineCount
    }

    /// Runs a read and checks what it gave: its result with `check`, or its error. Nil when refused.
    mutating func read<Result>(_ read: () throws(ImportError) -> Result, check: (inout Invariants, Result) -> Void) -> Result? {
        do {
            let result = try read()
            check(&self, result)
            return result
        } catch {
            self.check(error)
            return nil
        }
    }

    /// Reads strictly and skipping invalid questions, checks both answers, and that they agree:
    /// a file read strictly reads the same when skipping, with nothing skipped; a file read
    /// skipping something is refused strictly, and one read skipping nothing is not.
    @discardableResult
    mutating func readStrictlyAndSkipping(
        emptyBank: EmptyBank, _ read: (_ skipInvalid: Bool) throws(ImportError) -> ReadResult
    ) -> (strict: ReadResult?, skipping: ReadResult?) {
        let strict = self.read({ () throws(ImportError) in try read(false) }) {
            $0.check($1, skipInvalid: false, emptyBank: emptyBank)
        }
        let skipping = self.read({ () throws(ImportError) in try read(true) }) {
            $0.check($1, skipInvalid: true, emptyBank: emptyBank)
        }
        switch (strict, skipping) {
        case (let strict?, let skipping?) where skipping != strict:
            violations.append("read strictly and skipping, the same file gives two results")
        case (.some, nil):
            violations.append("read strictly, the file is good; skipping invalid questions, it is refused")
        case (nil, let skipping?) where skipping.skipped.isEmpty:
            violations.append("skipping invalid questions, none is skipped; read strictly, the file is refused")
        default:
            break
        }
        return (strict, skipping)
    }

    /// A refusal: at least one problem (never more than `ImportError.maxProblems`), each saying
    /// something and, when it has a place, a place inside the file.
    mutating func check(_ error: ImportError) {
        if error.problems.isEmpty { violations.append("an ImportError without problems") }
        if error.problems.count > ImportError.maxProblems {
            violations.append("\(error.problems.count) problems, over the limit of \(ImportError.maxProblems)")
        }
        check(error.problems, what: "problem")
        _ = error.description
    }

    mutating func check(_ problems: [FormatProblem], what: String) {
        for problem in problems {
            if problem.message.isEmpty { violations.append("a \(what) without a message: \(problem)") }
            if let line = problem.line, !(1...lineCount).contains(line) {
                violations.append("a \(what) on line \(line) of a file of \(lineCount) lines at most: \(problem)")
            }
            if let column = problem.column, column < 1 {
                violations.append("a \(what) in column \(column): \(problem)")
            }
            _ = problem.description
        }
    }

    /// A bank read: every question valid (what the store would refuse never leaves a reader),
    /// no question stored yet, names that are not blank, and the problems of skipped questions
    /// only when skipping was asked for. An empty bank must come with a warning saying why,
    /// where the format allows one at all.
    mutating func check(_ result: ReadResult, skipInvalid: Bool, emptyBank: EmptyBank) {
        let bank = result.bank
        for subject in bank.subjects {
            if isBlank(subject.name) { violations.append("a subject with a blank name") }
            for topic in subject.topics {
                if isBlank(topic.name) { violations.append("a topic with a blank name in \"\(subject.name)\"") }
                for quiz in topic.quizzes where isBlank(quiz.title) {
                    violations.append("a quiz with a blank title in \"\(topic.name)\"")
                }
                for question in topic.questions + topic.quizzes.flatMap(\.questions) {
                    check(question)
                }
            }
        }
        switch emptyBank {
        case .refused where bank.questionCount == 0:
            violations.append("an empty bank read without an error")
        case .warned where bank.questionCount == 0 && result.warnings.isEmpty:
            violations.append("an empty bank read without a warning")
        default:
            break
        }
        if !skipInvalid && (!result.skipped.isEmpty || result.skippedOmittedCount != 0) {
            violations.append("questions skipped although skipping was not asked for")
        }
        if result.skipped.count > ImportError.maxProblems {
            violations.append("\(result.skipped.count) skipped problems, over the limit of \(ImportError.maxProblems)")
        }
        check(result.warnings, what: "warning")
        check(result.skipped, what: "skipped problem")
    }

    enum EmptyBank {
        /// Reading a file without a question is an error.
        case refused
        /// It reads as an empty bank, with a warning (every question was of a kind left out).
        case warned
        /// An empty bank is a bank like any other (a bundle exported from an empty instance).
        case allowed
    }

    private mutating func check(_ question: Question) {
        let errors = question.validationErrors()
        if !errors.isEmpty {
            let text = excerpt(question.text)
            violations.append("question \"\(text)\" breaks QuizCore's rules: \(errors.map(\.description).joined(separator: "; "))")
        }
        if question.id != nil { violations.append("question \"\(excerpt(question.text))\" has an id") }
    }

    /// A feed read: every article one `ArticleDraft` accepts, within the reader's limits.
    mutating func check(_ feed: NewsFeedReader.Feed) {
        if isBlank(feed.sourceName) { violations.append("a feed with a blank source name") }
        if feed.articles.count > NewsFeedReader.maxItems {
            violations.append("\(feed.articles.count) articles, over the limit of \(NewsFeedReader.maxItems)")
        }
        for article in feed.articles {
            let errors = article.validationErrors()
            if !errors.isEmpty {
                violations.append("article \"\(excerpt(article.title))\" is not valid: \(errors.map(\.description).joined(separator: "; "))")
            }
            if article.summary.count > NewsFeedReader.maxSummaryLength {
                violations.append("a summary of \(article.summary.count) characters, over \(NewsFeedReader.maxSummaryLength)")
            }
        }
        if feed.skipped.count > ImportError.maxProblems + 1 {
            violations.append("\(feed.skipped.count) items listed as left out, over the limit of \(ImportError.maxProblems) and a count")
        }
        check(feed.skipped, what: "item left out")
        check(feed.warnings, what: "warning")
    }

    private func excerpt(_ text: String) -> String {
        text.count <= 60 ? text : text.prefix(59) + "…"
    }

    private func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }
}
