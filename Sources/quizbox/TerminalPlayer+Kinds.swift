import Foundation
import QuizAPI
import QuizClient
import QuizCore
import QuizMath
import QuizText

/// The kinds with parts (an ordering, a matching, a gap fill, an estimate's range, a slide) read
/// at the terminal, from the question the API sent (public ids only: nothing says what is right).
extension TerminalPlayer {
    /// nil: the player left; `.some(nil)`: nothing to answer (a slide, read and passed).
    func readParts(_ question: QuizboxClient.Question) -> Answer?? {
        terminal.line(Style.bold(MathText.plainText(question.text)))
        switch question.kind {
        case .ordering: return readOrder(question.items ?? [])
        case .matching: return readMatches(prompts: question.prompts ?? [], options: question.options ?? [])
        case .gapFill: return readGaps(question.passage ?? [])
        case .estimate:
            return readEstimate(minimum: question.minimum ?? 0, maximum: question.maximum ?? 0, unit: question.unit)
        case .slide:
            guard ask(Style.dim(t("Press Enter to go on. "))) != nil else { return nil }
            return .some(nil)
        default:
            return readAnswer(text: nil, kind: question.kind, choices: (question.choices ?? []).map { ($0.id, MathText.plainText($0.text)) }, unit: question.unit)
        }
    }

    /// A live game's ordering, matching, estimate or slide, from the protocol's fields; nil for other kinds.
    func readLiveParts(_ question: LiveEvent.Question) -> Answer??? {
        func options(_ parts: [LiveEvent.Choice]?) -> [Components.Schemas.ChoiceOption] { (parts ?? []).map { .init(id: $0.id, text: $0.text) } }
        switch question.kind {
        case .ordering:
            terminal.line(Style.bold(MathText.plainText(question.text)))
            return .some(readOrder(options(question.items)))
        case .matching:
            terminal.line(Style.bold(MathText.plainText(question.text)))
            return .some(readMatches(prompts: options(question.prompts), options: options(question.answers)))
        case .estimate:
            terminal.line(Style.bold(MathText.plainText(question.text)))
            return .some(readEstimate(minimum: question.estimate?.minimum ?? 0, maximum: question.estimate?.maximum ?? 0, unit: question.unit))
        case .slide:
            // Nothing to answer, and no key to wait for: the host moves the game on.
            terminal.line(Style.bold(MathText.plainText(question.text)))
            terminal.line(Style.dim(t("Look at the big screen: the host moves on.")))
            return .some(.some(nil))
        default:
            return nil
        }
    }

    /// "3 1 2": the items' numbers as listed, in the order the player puts them.
    private func readOrder(_ items: [Components.Schemas.ChoiceOption]) -> Answer?? {
        for (index, item) in items.enumerated() { terminal.line("  \(index + 1). \(MathText.plainText(item.text))") }
        while true {
            guard let typed = ask(t("Their numbers in the right order (like 3 1 2): ")) else { return nil }
            let numbers = typed.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Int($0) }
            if numbers.count == items.count, Set(numbers) == Set(1...max(1, items.count)) {
                return .order(numbers.map { items[$0 - 1].id })
            }
            terminal.line(t("Each number from 1 to {count} once, please.", ["count": String(items.count)]))
        }
    }

    private func readMatches(prompts: [Components.Schemas.ChoiceOption], options: [Components.Schemas.ChoiceOption]) -> Answer?? {
        var matches: [Int: Int] = [:]
        for prompt in prompts {
            guard case .item(let index) = Menu(title: MathText.plainText(prompt.text), items: options.map { MathText.plainText($0.text) }, backLabel: t("leave")).choose(on: terminal)
            else { return nil }
            matches[prompt.id] = options[index].id
        }
        return .matches(matches)
    }

    private func readGaps(_ passage: [Components.Schemas.PassagePart]) -> Answer?? {
        // The text with each gap as [1], [2] …
        terminal.line(passage.map { part in part.gap.map { "[\($0)]" } ?? part.text ?? "" }.joined())
        var gaps: [Int: GapFill.GapAnswer] = [:]
        for part in passage {
            guard let gap = part.gap else { continue }
            if part.gapKind == .choice {
                let choices = part.choices ?? []
                guard case .item(let index) = Menu(title: "[\(gap)]", items: choices.map { MathText.plainText($0.text) }, backLabel: t("leave")).choose(on: terminal)
                else { return nil }
                gaps[gap] = .choice(choices[index].id)
            } else {
                guard let typed = ask("[\(gap)] ") else { return nil }
                let trimmed = typed.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { gaps[gap] = .text(trimmed) }
            }
        }
        return gaps.isEmpty ? .some(nil) : .gaps(gaps)
    }

    private func readEstimate(minimum: Double, maximum: Double, unit: String?) -> Answer?? {
        let range = "\(NumberFormatting.plain(minimum))–\(NumberFormatting.plain(maximum))" + (unit.map { " \($0)" } ?? "")
        while true {
            guard let typed = ask(t("Your estimate ({range}): ", ["range": range])) else { return nil }
            if let number = Double(typed.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")),
               (minimum...max(minimum, maximum)).contains(number) {
                return .number(number)
            }
            terminal.line(t("A number from {range}, please.", ["range": range]))
        }
    }
}
