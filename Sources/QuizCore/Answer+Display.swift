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
        }
    }
}

extension Question {
    /// `answer` in words: choice texts rather than ids, a number with the question's unit. nil for
    /// a choice the question no longer has.
    public func display(_ answer: Answer) -> String? {
        let choices = body.choices
        switch answer {
        case .choice(let id): return choices.first { $0.id == id }?.text
        case .choices(let ids): return choices.filter { ids.contains($0.id) }.sorted { $0.id < $1.id }.map(\.text).joined(separator: ", ")
        case .bool(let value): return value ? "True" : "False"
        case .text(let text): return text
        case .number(let number):
            guard case .numeric(_, _, let unit?) = body, !unit.isEmpty else { return NumberFormatting.plain(number) }
            return "\(NumberFormatting.plain(number)) \(unit)"
        }
    }
}

public enum NumberFormatting {
    /// 8848 rather than 8848.0, 3.14 as 3.14.
    public static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
