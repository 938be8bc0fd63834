/// An ordering question (Kahoot's puzzle, Moodle's ordering): items to put in order.
///
/// Items are kept in their right order, so an item's stored id is its right position (1-based);
/// players see them shuffled under other ids. Solo play gives the share of items in their right
/// place (Moodle's absolute-position grading); live games give points only for the whole order.
public struct Ordering: Sendable, Hashable {
    public static let itemCountRange = 3...8
    public static let maxItemLength = 200

    /// In the right order.
    public var items: [String]

    public init(items: [String]) {
        self.items = items
    }

    /// `order` lists every item's id once, in the order the player put them.
    public func check(_ order: [Int]) throws(GradingError) {
        guard order.count == items.count, Set(order) == Set(1...max(1, items.count)) else {
            throw .notAnOrder(itemCount: items.count)
        }
    }

    /// For each place, whether the player put the right item there.
    public func placesRight(_ order: [Int]) throws(GradingError) -> [Bool] {
        try check(order)
        return order.enumerated().map { $0.element == $0.offset + 1 }
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
