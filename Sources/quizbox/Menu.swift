import Foundation
import QuizText

/// A numbered list to choose from: arrow keys and Enter, or the item's number, at a terminal;
/// a typed number on a line otherwise.
struct Menu {
    enum Choice: Equatable {
        case item(Int)
        /// `q`, Escape or the end of input: go back one screen.
        case back
    }

    /// One line above the list; nil when the screen already says what is asked (a question's text).
    var title: String?
    var items: [String]
    /// What going back means here, shown in the hint ("go back", "quit"), in the player's language.
    var backLabel = t("go back")

    func choose(on terminal: Terminal) -> Choice {
        guard !items.isEmpty else { return .back }
        return terminal.interactive ? chooseWithKeys(terminal) : chooseByLine(terminal)
    }

    /// Several items (a multiple-choice answer): Space or a number ticks, Enter sends.
    func chooseSeveral(on terminal: Terminal) -> Set<Int>? {
        terminal.interactive ? tickWithKeys(terminal) : tickByLine(terminal)
    }

    private func chooseWithKeys(_ terminal: Terminal) -> Choice {
        var selected = 0
        var typed = ""
        var drawn = 0
        while true {
            drawn = draw(on: terminal, selected: selected, ticked: nil, erasing: drawn,
                         hint: t("↑/↓ and Enter, or type a number · q to {back}", ["back": backLabel]))
            switch terminal.readKey() {
            case .up: selected = (selected + items.count - 1) % items.count; typed = ""
            case .down: selected = (selected + 1) % items.count; typed = ""
            case .enter: return .item(selected)
            case .backspace: typed = ""
            case .escape, .endOfInput, .interrupted, .character("q"), .character("Q"): return .back
            case .character(let key) where key.isASCII && key.isNumber:
                guard let number = Int(typed + String(key)), (1...items.count).contains(number) else {
                    typed = ""
                    continue
                }
                // Chosen at once unless another digit could still make a longer number on the list.
                if number * 10 > items.count { return .item(number - 1) }
                typed += String(key)
                selected = number - 1
            default: continue
            }
        }
    }

    private func tickWithKeys(_ terminal: Terminal) -> Set<Int>? {
        var selected = 0
        var ticked = Set<Int>()
        var drawn = 0
        while true {
            drawn = draw(on: terminal, selected: selected, ticked: ticked, erasing: drawn,
                         hint: t("↑/↓ and Space (or a number) to tick · Enter to answer · q to {back}", ["back": backLabel]))
            switch terminal.readKey() {
            case .up: selected = (selected + items.count - 1) % items.count
            case .down: selected = (selected + 1) % items.count
            case .space: ticked.formSymmetricDifference([selected])
            case .enter where !ticked.isEmpty: return ticked
            case .escape, .endOfInput, .interrupted, .character("q"), .character("Q"): return nil
            case .character(let key) where key.isASCII && key.isNumber:
                if let number = key.wholeNumberValue, (1...items.count).contains(number) {
                    selected = number - 1
                    ticked.formSymmetricDifference([selected])
                }
            default: continue
            }
        }
    }

    /// Draws the list over the `erasing` lines drawn before; returns how many lines it drew.
    private func draw(on terminal: Terminal, selected: Int, ticked: Set<Int>?, erasing: Int, hint: String) -> Int {
        if erasing > 0 { terminal.write("\u{1B}[\(erasing)A\r\u{1B}[J") }
        let room = max(terminal.width - 8, 10)
        var lines = title.map { [$0] } ?? []
        for (index, item) in items.enumerated() {
            let pointer = index == selected ? "\u{1B}[7m>" : " "
            let box = ticked.map { $0.contains(index) ? "[x] " : "[ ] " } ?? ""
            let text = item.count > room ? String(item.prefix(room - 1)) + "…" : item
            lines.append("\(pointer) \(index + 1). \(box)\(text)\u{1B}[0m")
        }
        lines.append("\u{1B}[2m\(hint)\u{1B}[0m")
        for line in lines { terminal.line(line) }
        return lines.count
    }

    private func listByLine(_ terminal: Terminal) {
        if let title { terminal.line(title) }
        for (index, item) in items.enumerated() { terminal.line("  \(index + 1). \(item)") }
    }

    private func chooseByLine(_ terminal: Terminal) -> Choice {
        listByLine(terminal)
        while true {
            terminal.write(t("Choose 1–{count} (q to {back}): ", ["count": String(items.count), "back": backLabel]))
            guard let answer = terminal.readLine()?.trimmingCharacters(in: .whitespaces), answer.lowercased() != "q" else { return .back }
            if let number = Int(answer), (1...items.count).contains(number) { return .item(number - 1) }
            terminal.line(t("There is no {answer} on the list.", ["answer": answer]))
        }
    }

    private func tickByLine(_ terminal: Terminal) -> Set<Int>? {
        listByLine(terminal)
        while true {
            terminal.write(t("Choose one or more, e.g. 1,3 (q to {back}): ", ["back": backLabel]))
            guard let answer = terminal.readLine()?.trimmingCharacters(in: .whitespaces), answer.lowercased() != "q" else { return nil }
            let numbers = answer.split { $0 == "," || $0 == " " }.compactMap { Int($0) }
            if !numbers.isEmpty, numbers.allSatisfy((1...items.count).contains) { return Set(numbers.map { $0 - 1 }) }
            terminal.line(t("Give the numbers of your answers, separated by commas."))
        }
    }
}
