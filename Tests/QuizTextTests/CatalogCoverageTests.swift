import Foundation
import Testing
@testable import QuizText

/// Every text the pages, scripts and Swift code ask for has a Finnish translation that keeps its
/// placeholders, Mustache tags and HTML tags. (Messages filled in at run time are checked by the
/// server tests that walk the pages in Finnish.)
struct CatalogCoverageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func files(_ folder: String, ending: String) -> [URL] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.path.hasSuffix(ending) }.sorted { $0.path < $1.path }
    }

    /// Keys with the file that asks for them.
    static func keys() throws -> [(key: String, file: String)] {
        var keys: [(String, String)] = []
        for file in files("Sources/QuizServer/Resources/templates", ending: ".mustache") {
            keys += Texts.marks(in: try String(contentsOf: file, encoding: .utf8)).map { ($0, file.lastPathComponent) }
        }
        for file in files("Sources/QuizServer/Resources/static", ending: ".js") {
            keys += Texts.scriptKeys(in: try String(contentsOf: file, encoding: .utf8)).map { ($0, file.lastPathComponent) }
        }
        // t("…") and t.count(n, "…", "…") with literals, in every module but this one.
        let call = try Regex(#"(?:^|[^\w])t(?:\.count\([^,"]+,\s*|\(\s*)"((?:[^"\\]|\\.)*)""#)
        for file in files("Sources", ending: ".swift") where !file.path.contains("/QuizText/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: call) {
                guard let literal = match.output[1].substring.map(String.init), !literal.contains("\\(") else { continue }
                let key = literal.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\n", with: "\n")
                    .replacingOccurrences(of: "\\\\", with: "\\")
                keys.append((key, file.lastPathComponent))
            }
        }
        return keys
    }

    /// What a translation must keep: `{placeholders}`, Mustache tags and HTML tags.
    static func marks(_ text: String) throws -> [String] {
        let mustache = try Regex(#"\{\{\{?[^}]*\}?\}\}"#)
        let tags = try Regex(#"</?[a-zA-Z][^>]*>"#)
        return Pattern.names(text) + text.matches(of: mustache).map { String(text[$0.range]) }.sorted()
            + text.matches(of: tags).map { String(text[$0.range]) }.sorted()
    }

    @Test(arguments: Language.allCases.filter { $0 != .en })
    func everyKeyIsTranslated(_ language: Language) throws {
        let catalog = try #require(Localization.catalogs[language], "locales/\(language.rawValue).po is missing or broken")
        let keys = try Self.keys()
        #expect(keys.count > 500, "the extractor found too few keys: \(keys.count)")
        let missing = keys.filter { catalog.exact($0.key) == nil }
        #expect(missing.isEmpty, "no \(language.rawValue) text for: \(missing.prefix(20).map { "\($0.file): \($0.key)" })")
    }

    @Test(arguments: Language.allCases.filter { $0 != .en })
    func everyTranslationKeepsItsPlaceholdersAndTags(_ language: Language) throws {
        let catalog = try #require(Localization.catalogs[language])
        var seen = Set<String>()
        for entry in catalog.all {
            #expect(seen.insert(entry.msgid).inserted, "\(entry.msgid) is in the catalog twice")
            #expect(!entry.fuzzy && !entry.forms.isEmpty && entry.forms.allSatisfy { !$0.isEmpty }, "\(entry.msgid) is untranslated")
            if entry.plural != nil { #expect(entry.forms.count == 2, "\(entry.msgid) needs a form for 1 and one for the rest") }
            let expected = try Self.marks(entry.msgid)
            for form in entry.forms {
                #expect(try Self.marks(form) == expected, "\(entry.msgid) → \(form)")
            }
        }
    }

    @Test func theCatalogSaysItsLanguageAndPlurals() throws {
        let catalog = try #require(Localization.catalogs[.fi])
        #expect(catalog.header["Language"] == "fi")
        // Texts.count picks form 0 for 1 and form 1 otherwise: the catalog must agree.
        #expect(catalog.header["Plural-Forms"] == "nplurals=2; plural=(n != 1);")
    }
}
