import Foundation
import QuizCore
import QuizStore
import Synchronization

/// How everyone answered a poll or a word cloud so far: shown after answering one, solo. Read
/// from the stored answers, and kept a few seconds, so a busy poll is counted once per few
/// seconds rather than once per page.
package enum Opinions: Sendable, Equatable {
    /// Each choice with how many chose it, in the order the choices are shown.
    case poll([Share])
    /// The most common words, most common first.
    case words([Share])

    package struct Share: Sendable, Equatable {
        package var text: String
        package var count: Int
    }

    package var shares: [Share] {
        switch self {
        case .poll(let shares), .words(let shares): shares
        }
    }

    package var total: Int { shares.reduce(0) { $0 + $1.count } }

    /// The most different answers read: a word cloud of thousands of words is unreadable, and
    /// reading them all is a cost.
    static let readLimit = 2_000
    /// Words shown.
    package static let shownWords = 30

    /// From the stored answers' counts (`{"choiceId":3}`, `{"text":"Tea"}`, late ones too).
    /// `question` is as stored: its choice ids are the stored ones.
    static func tally(_ question: Question, counts: [(answer: String, count: Int)]) -> Opinions? {
        switch question.body {
        case .poll(let poll):
            var byChoice: [Int: Int] = [:]
            for (stored, count) in counts {
                guard case .choice(let id)? = GivenAnswer(stored: stored)?.answer else { continue }
                byChoice[id, default: 0] += count
            }
            return .poll(zip(poll.ids, poll.choices).map { Share(text: $1, count: byChoice[$0] ?? 0) })
        case .wordCloud:
            var tally = WordCloud.Tally()
            for (stored, count) in counts {
                guard case .text(let text)? = GivenAnswer(stored: stored)?.answer else { continue }
                tally.add(text, times: count)
            }
            return .words(tally.top(shownWords).map { Share(text: $0.text, count: $0.count) })
        default:
            return nil
        }
    }
}

/// The last tallies read, by question, for a few seconds.
package final class OpinionCache: Sendable {
    private let entries = Mutex<[Int64: (read: Date, opinions: Opinions)]>([:])
    static let lifetime: TimeInterval = 5
    static let maxEntries = 1_000

    package init() {}

    func opinions(of question: Question, store: any AttemptStore, now: Date) async throws -> Opinions? {
        guard let id = question.id, question.kind == .poll || question.kind == .wordCloud else { return nil }
        if let kept = entries.withLock({ $0[id] }), now.timeIntervalSince(kept.read) < Self.lifetime { return kept.opinions }
        guard let opinions = Opinions.tally(question, counts: try await store.answerCounts(questionId: id, limit: Opinions.readLimit)) else {
            return nil
        }
        entries.withLock { entries in
            if entries.count >= Self.maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[id] = (now, opinions)
        }
        return opinions
    }
}
