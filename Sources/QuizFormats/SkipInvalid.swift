import QuizCore

extension ProblemList {
    /// What the reader may return: nothing when the file is good; with `skipInvalid`, the
    /// problems of the questions it left out. Throws (all or nothing) otherwise, when a problem
    /// concerns the whole file, or when skipping would leave no question at all.
    func skippedProblems(skipInvalid: Bool, keptAny: Bool, wholeFile: Bool = false) throws(ImportError) -> ProblemList {
        guard !isEmpty else { return self }
        guard skipInvalid, keptAny, !wholeFile, !concernsWholeFile else { throw error }
        return self
    }
}

extension ReadResult {
    init(bank: Bank, warnings: [FormatProblem] = [], skipping problems: ProblemList) {
        self.init(bank: bank, warnings: warnings, skipped: problems.problems, skippedOmittedCount: problems.omittedCount)
    }
}
