import Foundation

/// A time as a `datetime-local` field sends it ("2026-11-28T14:05"), read in the browser's time
/// zone: the page's script puts the zone's offset for that very date (JavaScript's
/// `getTimezoneOffset()`, minutes from local time to UTC, daylight saving included) into a hidden
/// field beside it. Without the script the field says nothing and the time is read as UTC, which
/// the form then says in words.
enum LocalDateTime {
    /// No zone is further from UTC than 14 hours.
    static let offsets = -14 * 60...14 * 60

    /// nil when `text` is no date and time; an offset that is no number is UTC.
    static func date(_ text: String, offsetMinutes: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "T", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let day = parts[0].split(separator: "-").compactMap { Int($0) }
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false).map { $0.split(separator: ".").first.flatMap { Int($0) } }
        guard day.count == 3, (2...3).contains(time.count), time.allSatisfy({ $0 != nil }) else { return nil }
        let clock = time.compactMap { $0 }
        let components = DateComponents(year: day[0], month: day[1], day: day[2], hour: clock[0], minute: clock[1],
                                        second: clock.count > 2 ? clock[2] : 0)
        guard (1970...9999).contains(day[0]), components.isValidDate(in: Pages.utcCalendar),
              let utc = Pages.utcCalendar.date(from: components) else { return nil }
        let offset = Int(offsetMinutes.trimmingCharacters(in: .whitespaces)).flatMap { offsets.contains($0) ? $0 : nil } ?? 0
        return utc.addingTimeInterval(TimeInterval(offset * 60))
    }

    /// `date` as a `datetime-local` value in UTC (the script shows it in the browser's zone).
    static func utcValue(_ date: Date) -> String {
        let parts = Pages.utcCalendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(String(format: "%04d", parts.year ?? 1970))-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute))"
    }

    /// ISO 8601 for a `<time datetime>` the script rewrites in the browser's zone.
    static func iso(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
