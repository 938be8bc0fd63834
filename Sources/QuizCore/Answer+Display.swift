/// Answers as a player reads them: after answering, the pages show what was given and what was right.
extension CorrectAnswer {
    public var display: String {
        switch self {
        case .choices(let choices): choices.map(\.text).joined(separator: ", ")
        case .bool(let value): value ? "True" : "False"
        case .text(let text): text
        case .number(let value, let tolerance, let unit):
            NumberFormatting.plain(value) + (tolerance > 0 ? " ± \(NumberFormatting.plain(tolerance))" : "")
                + (unit.map { $0.isEmpty ? "" : " \($0)" } ?? "")
        case .items(let items): items.joined(separator: ", ")
        case .order(let items): items.joined(separator: " → ")
        case .pairs(let pairs): pairs.map { "\($0.prompt): \($0.answer)" }.joined(separator: "; ")
        case .gaps(let answers): answers.joined(separator: "; ")
        case .estimate(let value, let unit): NumberFormatting.plain(value) + (unit.map { $0.isEmpty ? "" : " \($0)" } ?? "")
        case .none: ""
        }
    }
}

extension Question {
    /// `answer` in words: choice texts rather than ids, a number with the question's unit. nil for
    /// a choice the question no longer has.
    public func display(_ answer: Answer) -> String? {
        let choices: [Choice] = if case .poll(let poll) = body {
            poll.shown.map { Choice(id: $0.id, text: $0.text, isCorrect: false) }
        } else {
            body.choices
        }
        switch answer {
        case .choice(let id): return choices.first { $0.id == id }?.text
        case .choices(let ids): return choices.filter { ids.contains($0.id) }.sorted { $0.id < $1.id }.map(\.text).joined(separator: ", ")
        case .bool(let value): return value ? "True" : "False"
        case .text(let text): return text
        case .number(let number):
            let unit: String? = switch body {
            case .numeric(_, _, let unit, _): unit
            case .estimate(let estimate): estimate.unit
            default: nil
            }
            guard let unit, !unit.isEmpty else { return NumberFormatting.plain(number) }
            return "\(NumberFormatting.plain(number)) \(unit)"
        case .order(let ids):
            guard case .ordering(let ordering) = body else { return nil }
            let texts = Dictionary(zip(ordering.ids, ordering.items)) { first, _ in first }
            let items = ids.compactMap { texts[$0] }
            return items.count == ids.count ? items.joined(separator: " → ") : nil
        case .matches(let matches):
            guard case .matching(let matching) = body else { return nil }
            let answers = Dictionary(matching.shownAnswers.map { ($0.id, $0.text) }) { first, _ in first }
            return matching.pairs.enumerated().map { index, pair in
                let given = matches[index + 1].flatMap { answers[$0] }
                return "\(pair.prompt): \(given ?? "—")"
            }.joined(separator: "; ")
        case .gaps(let answers):
            guard case .gapFill(let gapFill) = body else { return nil }
            return gapFill.gaps.enumerated().map { index, weighted in
                switch (weighted.gap, answers[index + 1]) {
                case (.choice, .choice(let id)?): weighted.shownChoices.first { $0.id == id }?.text ?? "—"
                case (_, .text(let text)?): text
                default: "—"
                }
            }.joined(separator: "; ")
        case .read: return ""
        }
    }
}

public enum NumberFormatting {
    /// 8848 rather than 8848.0, 3.14 as 3.14.
    public static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
