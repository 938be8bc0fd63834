import Foundation

/// The dates news feeds write: RFC 822 in RSS (`Sat, 07 Sep 2002 09:42:31 GMT`), RFC 3339 in
/// Atom (`2003-12-13T18:30:02Z`, `2003-12-13T18:30:02.25+01:00`).
///
/// RFC 822 as feeds really write it: the weekday is optional and not checked, two-digit years are
/// 19xx/20xx (below 50 is 20xx), seconds are optional, and the zone is `GMT`/`UT`/`UTC`/`Z`, a US
/// zone (`EST`, `PDT` …), or `+hhmm`/`-hhmm` (an unknown zone name counts as UTC). Month names are
/// matched on their first three letters, ignoring case.
enum FeedDate {
    static func rfc822(_ text: String) -> Date? {
        var words = text.replacingOccurrences(of: ",", with: " ").split(whereSeparator: \.isWhitespace).map(String.init)
        if let first = words.first, Int(first) == nil { words.removeFirst() }  // the weekday
        guard words.count >= 4, let day = Int(words[0]), let month = monthNumber(words[1]), var year = Int(words[2]) else { return nil }
        if words[2].count == 2 { year += year < 50 ? 2000 : 1900 }
        let time = words[3].split(separator: ":").map { Int($0) }
        guard time.count == 2 || time.count == 3, let hour = time[0], let minute = time[1] else { return nil }
        let second = time.count == 3 ? time[2] : 0
        guard let second else { return nil }
        let offset = words.count >= 5 ? zoneOffset(words[4]) : 0
        guard let offset else { return nil }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: 0, offset: offset)
    }

    static func rfc3339(_ text: String) -> Date? {
        let scalars = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[index..<(index + digits)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < scalars.count, characters.utf8.contains(scalars[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2) else { return nil }
        // A date alone (some feeds write one) is midnight UTC.
        if index == scalars.count { return make(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, fraction: 0, offset: 0) }
        guard expect("Tt "), let hour = number(2), expect(":"), let minute = number(2) else { return nil }
        var second = 0
        if expect(":") {
            guard let value = number(2) else { return nil }
            second = value
        }
        var fraction = 0.0
        if expect(".") {
            var scale = 0.1
            let start = index
            while index < scalars.count, (48...57).contains(scalars[index]) {
                fraction += Double(scalars[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if expect("Zz") {
            offset = 0
        } else if index < scalars.count, scalars[index] == UInt8(ascii: "+") || scalars[index] == UInt8(ascii: "-") {
            let sign = scalars[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(":")
            guard let minutes = number(2) else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == scalars.count else { return nil }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction, offset: offset)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func monthNumber(_ word: String) -> Int? {
        months.firstIndex(of: String(word.lowercased().prefix(3))).map { $0 + 1 }
    }

    private static let zones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6,
        "pst": -8, "pdt": -7,
    ]

    /// Seconds east of UTC.
    private static func zoneOffset(_ zone: String) -> Int? {
        if let hours = zones[zone.lowercased()] { return hours * 3600 }
        guard let sign = zone.first, sign == "+" || sign == "-" else {
            // An unknown name ("CEST", "AEST") is read as UTC rather than losing the date.
            return zone.allSatisfy(\.isLetter) ? 0 : nil
        }
        let digits = zone.dropFirst().filter { $0 != ":" }
        guard digits.count == 4, let value = Int(digits) else { return nil }
        let seconds = (value / 100) * 3600 + (value % 100) * 60
        return sign == "-" ? -seconds : seconds
    }

    private static func make(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double, offset: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second), (1...9999).contains(year) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day  // 31 February is not a date
        else { return nil }
        return date.addingTimeInterval(fraction - Double(offset))
    }
}
