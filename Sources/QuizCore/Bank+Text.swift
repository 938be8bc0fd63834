/// Every piece of text a bank holds, for checks that apply to all of it.
extension Bank {
    /// Each text with where it is, in file order: names, descriptions, questions, choices, answers.
    public func forEachText(_ body: (_ text: String, _ question: String?) -> Bool) {
        func question(_ q: Question) -> Bool {
            var texts = [q.text] + [q.explanation].compactMap { $0 }
            switch q.body {
            case .singleChoice(let choices), .multipleChoice(let choices): texts += choices.map(\.text)
            case .typedAnswer(let answers, let partial): texts += answers + partial.map(\.text)
            case .numeric(_, _, let unit, let units): texts += [unit].compactMap { $0 } + units.map(\.name)
            case .nameAll(let items, _, _): texts += items.flatMap { [$0.answer] + $0.alternates }
            case .trueFalse, .wordCloud, .slide: break
            case .ordering(let ordering): texts += ordering.items
            case .matching(let matching): texts += matching.pairs.flatMap { [$0.prompt, $0.answer] } + matching.extras
            case .gapFill(let gapFill):
                texts.append(gapFill.text)
                for weighted in gapFill.gaps {
                    switch weighted.gap {
                    case .choice(let alternatives), .typed(let alternatives): texts += alternatives.map(\.text)
                    case .number(_, _, let units): texts += units.map(\.name)
                    }
                }
            case .poll(let poll): texts += poll.choices
            case .estimate(let estimate): texts += [estimate.unit].compactMap { $0 }
            }
            return texts.allSatisfy { body($0, q.text) }
        }
        for subject in subjects {
            guard body(subject.name, nil), body(subject.description, nil) else { return }
            for topic in subject.topics {
                guard body(topic.name, nil), body(topic.description, nil), topic.questions.allSatisfy(question) else { return }
                for quiz in topic.quizzes {
                    guard body(quiz.title, nil), body(quiz.description, nil), quiz.questions.allSatisfy(question) else { return }
                }
            }
        }
    }

    /// The first text holding a NUL character (which no question needs and PostgreSQL cannot
    /// store), with its question when it is in one.
    public var firstTextWithNUL: (text: String, question: String?)? {
        var found: (String, String?)?
        forEachText { text, question in
            if text.unicodeScalars.contains("\u{0}") { found = (text, question); return false }
            return true
        }
        return found
    }
}
