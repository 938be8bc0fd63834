/// An ordering question (Kahoot's puzzle, Moodle's ordering): items to put in order.
///
/// Items are kept in their right order, so an item's stored id is its right position (1-based).
/// Players see them under public ids (`ids`, set when a question is presented), in the order of
/// those ids: an order only the server can work out. Solo play gives the share of items in their right
/// place (Moodle's absolute-position grading); live games give points only for the whole order.
public struct Ordering: Sendable, Hashable {
    public static let itemCountRange = 3...8
    public static let maxItemLength = 200

    /// In the right order.
    public var items: [String]
    /// Each item's id: 1...n as stored, public ids once presented.
    public var ids: [Int]

    public init(items: [String], ids: [Int]? = nil) {
        self.items = items
        self.ids = ids ?? items.indices.map { $0 + 1 }
    }

    /// The items as a player sees them before answering: ordered by id.
    public var shown: [(id: Int, text: String)] {
        zip(ids, items).map { (id: $0, text: $1) }.sorted { $0.id < $1.id }
    }

    /// `order` lists every item's id once, in the order the player put them.
    public func check(_ order: [Int]) throws(GradingError) {
        guard order.count == items.count, Set(order) == Set(ids) else {
            throw .notAnOrder(itemCount: items.count)
        }
    }

    /// For each place, whether the player put the right item there.
    public func placesRight(_ order: [Int]) throws(GradingError) -> [Bool] {
        try check(order)
        return zip(order, ids).map { $0 == $1 }
    }

    /// The share of items in their right place.
    public func credit(for order: [Int]) throws(GradingError) -> Credit {
        let right = try placesRight(order)
        return Credit(right: right.count(where: { $0 }), of: items.count)
    }

    /// Live games' rule: all or nothing.
    public func isWhollyRight(_ order: [Int]) throws(GradingError) -> Bool {
        try placesRight(order).allSatisfy { $0 }
    }

    func findProblems(_ fail: (String, String) -> Void) {
        if !Ordering.itemCountRange.contains(items.count) {
            fail("items", "needs 3 to 8 items, has \(items.count)")
        }
        validateDistinctTexts(items, field: { "items[\($0)]" }, maxLength: Ordering.maxItemLength, fail)
    }
}

/// Blank, too long and repeated texts of a list ("items[2]: repeats items[0]"), compared as choices are.
func validateDistinctTexts(_ texts: [String], field: (Int) -> String, maxLength: Int, _ fail: (String, String) -> Void) {
    // Lists here hold at most a few dozen texts; a hostile long list is already an error and is
    // not compared pairwise.
    let compares = texts.count <= 40
    var keys: [String] = []
    for (index, text) in texts.enumerated() {
        if isBlank(text) {
            fail(field(index), "is empty")
            keys.append("")
            continue
        }
        if exceeds(text, maxLength) {
            fail(field(index), "is longer than \(maxLength) characters")
        }
        guard compares else { continue }
        let key = Question.choiceKey(text)
        if let earlier = keys.firstIndex(of: key) {
            fail(field(index), "repeats \(field(earlier)) (\"\(texts[earlier])\")")
        }
        keys.append(key)
    }
}
