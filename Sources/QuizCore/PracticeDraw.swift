/// Draws a practice round's questions, like Open Trivia DB's session tokens: never a question the
/// player saw in their recent practice, and when every matching question has been seen, it says so
/// instead of repeating one.
///
/// Pure: the caller passes the candidates (from the store), the ids seen recently and the
/// random number generator. Cost: one pass over the candidates, then O(count) to sample; when the
/// candidates are not in position order, bank order takes one more pass over the unseen matches.
public enum PracticeDraw {
    public struct Outcome: Sendable, Hashable {
        /// Drawn question ids, in play order.
        public var questionIds: [Int64]
        /// Candidates that pass every filter, seen or not.
        public var matching: Int
        /// Of those, the ones not seen recently.
        public var unseen: Int
        public var status: Status

        public init(questionIds: [Int64], matching: Int, unseen: Int, status: Status) {
            self.questionIds = questionIds
            self.matching = matching
            self.unseen = unseen
            self.status = status
        }
    }

    /// What the player is told before playing.
    public enum Status: Sendable, Hashable {
        /// As many questions as asked were drawn.
        case full
        /// Fewer unseen questions match than asked; all `available` of them were drawn
        /// ("Only 7 questions match: play those?").
        case fewerThanAsked(available: Int)
        /// Every one of the `matching` questions was seen recently; nothing was drawn
        /// ("You have seen all 40: start over?").
        case poolUsedUp(matching: Int)
        /// No question passes the filters; nothing was drawn.
        case nothingMatches
    }

    /// - Parameters:
    ///   - candidates: the bank's questions, ids unique; in `position` order is fastest for bank order.
    ///   - settings: expected to be valid; a count below 1 draws nothing, name-them-all
    ///     questions never match whatever `kinds` says.
    ///   - seen: ids of the questions the player saw in recent practice.
    public static func draw(
        from candidates: [PracticeCandidate], settings: PracticeSettings, seen: Set<Int64>,
        using generator: inout some RandomNumberGenerator
    ) -> Outcome {
        let filter = Filter(settings)
        let seenIds = IdLookup(seen)
        var matching = 0
        var unseen: [Int] = []  // indices into `candidates`
        unseen.reserveCapacity(candidates.count)
        var inPositionOrder = true
        var last = (position: Int.min, id: Int64.min)

        for index in candidates.indices {
            let candidate = candidates[index]
            guard filter.matches(candidate) else { continue }
            matching += 1
            if seenIds.contains(candidate.id) { continue }
            let key = (position: candidate.position, id: candidate.id)
            if key < last { inPositionOrder = false }
            last = key
            unseen.append(index)
        }

        let wanted = max(0, settings.count)
        let status: Status
        if matching == 0 {
            status = .nothingMatches
        } else if unseen.isEmpty {
            status = .poolUsedUp(matching: matching)
        } else if unseen.count < wanted {
            status = .fewerThanAsked(available: unseen.count)
        } else {
            status = .full
        }
        let take = min(wanted, unseen.count)

        var ids: [Int64] = []
        ids.reserveCapacity(take)
        switch settings.order {
        case .random:
            // Partial Fisher–Yates: after step i, unseen[0...i] is a uniform ordered sample.
            for i in 0..<take {
                let j = Int.random(in: i..<unseen.count, using: &generator)
                unseen.swapAt(i, j)
                ids.append(candidates[unseen[i]].id)
            }
        case .bankOrder:
            if inPositionOrder {
                for i in 0..<take { ids.append(candidates[unseen[i]].id) }
            } else {
                ids = firstByPosition(take, of: unseen, in: candidates)
            }
        }
        return Outcome(questionIds: ids, matching: matching, unseen: unseen.count, status: status)
    }

    /// The `count` earliest of `indices` by (position, id), in that order: one pass keeping a short
    /// sorted list, so a store that returns candidates unordered costs O(n), not a sort.
    private static func firstByPosition(_ count: Int, of indices: [Int], in candidates: [PracticeCandidate]) -> [Int64] {
        guard count > 0 else { return [] }
        func before(_ a: PracticeCandidate, _ b: PracticeCandidate) -> Bool {
            a.position != b.position ? a.position < b.position : a.id < b.id
        }
        var best: [PracticeCandidate] = []
        best.reserveCapacity(count + 1)
        for index in indices {
            let candidate = candidates[index]
            if best.count == count {
                guard before(candidate, best[count - 1]) else { continue }
                best.removeLast()
            }
            var slot = best.count
            while slot > 0 && before(candidate, best[slot - 1]) { slot -= 1 }
            best.insert(candidate, at: slot)
        }
        return best.map(\.id)
    }

    /// The settings' filters, prepared so that testing one candidate costs no hashing in the common
    /// case.
    private struct Filter {
        let wholeBank: Bool
        let subjects: IdLookup
        let topics: IdLookup
        let difficulty: Difficulty?
        let kinds: UInt16  // one bit per kind, see `bit(_:)`

        init(_ settings: PracticeSettings) {
            wholeBank = settings.subjectIds.isEmpty && settings.topicIds.isEmpty
            subjects = IdLookup(settings.subjectIds)
            topics = IdLookup(settings.topicIds)
            difficulty = settings.difficulty
            kinds = settings.effectiveKinds.reduce(0) { $0 | Self.bit($1) }
        }

        @inline(__always)
        func matches(_ candidate: PracticeCandidate) -> Bool {
            if let difficulty, candidate.difficulty != difficulty { return false }
            guard kinds & Self.bit(candidate.kind) != 0 else { return false }
            return wholeBank || subjects.contains(candidate.subjectId) || topics.contains(candidate.topicId)
        }

        @inline(__always)
        static func bit(_ kind: QuestionKind) -> UInt16 {
            switch kind {
            case .singleChoice: 1 << 0
            case .multipleChoice: 1 << 1
            case .trueFalse: 1 << 2
            case .typedAnswer: 1 << 3
            case .numeric: 1 << 4
            case .nameAll: 1 << 5
            case .ordering: 1 << 6
            case .matching: 1 << 7
            case .gapFill: 1 << 8
            case .poll: 1 << 9
            case .wordCloud: 1 << 10
            case .estimate: 1 << 11
            case .slide: 1 << 12
            }
        }
    }

    /// A set of ids as a bitmap over their range when that range is not huge (database ids are
    /// dense), so testing a candidate is a bit test rather than a hash lookup; a `Set` otherwise.
    private struct IdLookup {
        static let maxBitmapBits: Int64 = 1 << 23  // 1 MB

        private let base: Int64
        private let bits: [UInt64]
        private let fallback: Set<Int64>?

        init(_ ids: Set<Int64>) {
            guard let low = ids.min(), let high = ids.max() else {
                (base, bits, fallback) = (0, [], nil)
                return
            }
            let (span, overflow) = high.subtractingReportingOverflow(low)
            guard !overflow, span < Self.maxBitmapBits else {
                (base, bits, fallback) = (0, [], ids)
                return
            }
            var words = [UInt64](repeating: 0, count: Int(span / 64) + 1)
            for id in ids {
                let offset = id &- low
                words[Int(offset >> 6)] |= 1 << UInt64(offset & 63)
            }
            (base, bits, fallback) = (low, words, nil)
        }

        @inline(__always)
        func contains(_ id: Int64) -> Bool {
            if let fallback { return fallback.contains(id) }
            let (offset, overflow) = id.subtractingReportingOverflow(base)
            guard !overflow, offset >= 0, offset >> 6 < Int64(bits.count) else { return false }
            return bits[Int(offset >> 6)] & (1 << UInt64(offset & 63)) != 0
        }
    }
}
