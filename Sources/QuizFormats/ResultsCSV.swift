import Foundation

/// Results written for a spreadsheet (a live game's, an assignment's report): the one rule for a
/// field, so a nickname or an answer like "=cmd" is shown as text, never run as a formula.
public enum ResultsCSV {
    /// Quoted when needed; a leading =, +, - or @ is defused so a spreadsheet shows it as text.
    public static func field(_ value: String, separator: Character = ",") -> String {
        var value = value
        if let first = value.first, "=+-@\t\r".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == separator || "\"\r\n".contains($0) }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One line of fields, ended as RFC 4180 ends lines.
    public static func line(_ fields: [String], separator: Character = ",") -> String {
        fields.map { field($0, separator: separator) }.joined(separator: String(separator)) + "\r\n"
    }

    /// A share (0...1) in percent with one decimal, "" for none; with `separator` ";" a decimal
    /// comma, as Excel reads in locales such as Finnish.
    public static func percent(_ value: Double?, separator: Character = ",") -> String {
        guard let value else { return "" }
        let text = String(format: "%.1f", value * 100)
        return separator == ";" ? text.replacingOccurrences(of: ".", with: ",") : text
    }
}
