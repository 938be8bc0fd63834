import Foundation
import Testing
@testable import QuizText

struct CatalogReadingTests {
    @Test func readsEntriesPluralsEscapesAndContinuations() throws {
        let catalog = try Catalog(po: #"""
            # a comment
            msgid ""
            msgstr ""
            "Language: fi\n"
            "Plural-Forms: nplurals=2; plural=(n != 1);\n"

            #: templates/top.mustache
            msgid "Log in"
            msgstr "Kirjaudu sisään"

            msgid "Say \"hi\" "
            "to {name}"
            msgstr "Sano \"hei\" "
            "käyttäjälle {name}"

            msgid "{count} question"
            msgid_plural "{count} questions"
            msgstr[0] "{count} kysymys"
            msgstr[1] "{count} kysymystä"

            #, fuzzy
            msgid "Not sure"
            msgstr "Ehkä"

            msgid "Untranslated"
            msgstr ""
            """#)
        #expect(catalog.header["Language"] == "fi")
        #expect(catalog.exact("Log in") == "Kirjaudu sisään")
        #expect(catalog.exact("Say \"hi\" to {name}") == "Sano \"hei\" käyttäjälle {name}")
        #expect(catalog.plural("{count} question", count: 1) == "{count} kysymys")
        #expect(catalog.plural("{count} question", count: 5) == "{count} kysymystä")
        // Fuzzy and empty entries are not translations: the English shows instead.
        #expect(catalog.exact("Not sure") == nil)
        #expect(catalog.exact("Untranslated") == nil)
    }

    @Test func refusesBrokenFilesWithTheirLine() {
        #expect(throws: Catalog.Malformed.self) { try Catalog(po: "msgid \"a\nmsgstr \"b\"") }
        do {
            _ = try Catalog(po: "msgid \"a\"\nmsgstr \"b\"\nbogus \"c\"")
            Issue.record("a broken catalog was read")
        } catch let error as Catalog.Malformed {
            #expect(error.line == 3)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

struct PatternTests {
    let catalog = Catalog(entries: [
        .init(msgid: "A quiz holds at most {limit} questions.", forms: ["Visassa voi olla enintään {limit} kysymystä."]),
        .init(msgid: "No {what} with that id.", forms: ["Tunnuksella ei löydy: {what}."]),
        .init(msgid: "{count} question", plural: "{count} questions", forms: ["{count} kysymys", "{count} kysymystä"]),
        .init(msgid: "Signing in through {provider} did not work: {reason}. Try again.", forms: ["Kirjautuminen palvelulla {provider} ei onnistunut: {reason}. Yritä uudelleen."]),
        .init(msgid: "{reason}.", forms: ["{reason}!"]),
    ])

    @Test func translatesFilledInMessages() {
        #expect(catalog.matching("A quiz holds at most 200 questions.") == "Visassa voi olla enintään 200 kysymystä.")
        #expect(catalog.matching("Signing in through GitHub did not work: the code expired. Try again.")
                == "Kirjautuminen palvelulla GitHub ei onnistunut: the code expired. Yritä uudelleen.")
    }

    @Test func pluralPatternsPickTheFormByTheCount() {
        #expect(catalog.matching("1 question") == "1 kysymys")
        #expect(catalog.matching("12 questions") == "12 kysymystä")
    }

    @Test func aMessageMustMatchWhollyNotInPart() {
        #expect(catalog.matching("A quiz holds at most 200 questions. Really.") == nil)
        #expect(catalog.matching("Surely a quiz holds at most 200 questions.") == nil)
        #expect(catalog.matching("A quiz holds at most  questions.") == nil)
    }

    @Test func aPatternThatSaysNothingOfItsOwnIsNeverUsed() {
        // "{reason}." would turn every message ending in a period into an exclamation.
        #expect(catalog.matching("Something odd.") == nil)
    }

    @Test func mustacheTagsAreNotPlaceholders() {
        #expect(Pattern.names("Signed in as <strong>{{username}}</strong>") == [])
        #expect(Pattern.names("Page {page} of {pages}") == ["page", "pages"])
        #expect(Pattern.names("JSON {question, answer}") == [])
    }
}

struct LanguageTests {
    @Test func acceptLanguageHonoursQualities() {
        #expect(Language.preferred(acceptLanguage: "fi-FI,fi;q=0.9,en-US;q=0.8,en;q=0.7") == .fi)
        #expect(Language.preferred(acceptLanguage: "en-GB,en;q=0.9,fi;q=0.8") == .en)
        #expect(Language.preferred(acceptLanguage: "sv-SE, fi;q=0.5") == .fi)
        #expect(Language.preferred(acceptLanguage: "de, fr;q=0.8") == nil)
        #expect(Language.preferred(acceptLanguage: "fi;q=0, en;q=0.1") == .en)
        #expect(Language.preferred(acceptLanguage: nil) == nil)
        #expect(Language.preferred(acceptLanguage: String(repeating: "fi,", count: 2_000)) == nil)
    }

    @Test func commandLineLanguageFollowsPOSIXOrder() {
        #expect(Language.fromEnvironment(["LANG": "fi_FI.UTF-8"]) == .fi)
        #expect(Language.fromEnvironment(["LANG": "C.UTF-8"]) == .en)
        #expect(Language.fromEnvironment(["LC_ALL": "en_US.UTF-8", "LANG": "fi_FI.UTF-8"]) == .en)
        #expect(Language.fromEnvironment(["LANGUAGE": "sv:fi", "LANG": "en_US.UTF-8"]) == .fi)
        #expect(Language.fromEnvironment([:]) == .en)
    }
}

struct TextsTests {
    let finnish = Texts.of(.fi)
    let english = Texts.of(.en)

    @Test func numbersAndDatesFollowTheLanguage() {
        #expect(english.number(1234) == "1,234")
        #expect(english.number(999) == "999")
        #expect(finnish.number(1234) == "1234")
        #expect(finnish.number(12345) == "12\u{00A0}345")
        #expect(finnish.number(1_234_567) == "1\u{00A0}234\u{00A0}567")
        #expect(finnish.decimal(2.5) == "2,5")
        let day = Date(timeIntervalSince1970: 1_795_000_000)  // 18 Nov 2026, 11:06 UTC
        #expect(english.date(day) == "18 Nov 2026")
        #expect(finnish.date(day) == "18.11.2026")
        #expect(finnish.dateTime(day) == "18.11.2026 klo 11.06 UTC")
        #expect(english.dateTime(day) == "18 Nov 2026, 11:06 UTC")
        let morning = Date(timeIntervalSince1970: 1_795_000_000 - 2 * 3600)
        #expect(english.dateTime(morning) == "18 Nov 2026, 09:06 UTC")
    }

    @Test func englishIsTheKeyItself() {
        #expect(english("Log in") == "Log in")
        #expect(english.count(1, "{count} question", "{count} questions") == "1 question")
        #expect(english.count(3, "{count} question", "{count} questions") == "3 questions")
        #expect(english.template("<a>[[Log  in\n  now]]</a>") == "<a>Log in now</a>")
    }

    @Test func finnishComesFromTheShippedCatalog() {
        #expect(finnish("Log in") == "Kirjaudu sisään")
        #expect(finnish.count(2, "{count} question", "{count} questions") == "2 kysymystä")
        #expect(finnish.count(1, "{count} question", "{count} questions") == "1 kysymys")
    }

    @Test func scriptStringsAreSafeInsideAScriptElement() {
        let json = Texts.of(.fi).scriptStrings(["Log in"])
        #expect(json.contains("Kirjaudu sisään"))
        #expect(!json.contains("<"))
        #expect(Texts.scriptKeys(in: "a(t('One')); b.t('Two'); t('It\\'s'); format('x')") == ["One", "It's"])
    }
}

struct FillingTests {
    @Test func placeholdersAreFilledAndEverythingElseKept() {
        #expect(Pattern.substitute("Page {page} of {pages}", ["page": "2", "pages": "5"]) == "Page 2 of 5")
        #expect(Pattern.substitute("{count} right", ["count": "3"]) == "3 right")
        #expect(Pattern.substitute("Hi {{name}} and {name}", ["name": "Aino"]) == "Hi {{name}} and Aino")
        #expect(Pattern.substitute("JSON {question, answer} {missing} {", ["question": "x"]) == "JSON {question, answer} {missing} {")
        #expect(Pattern.substitute("ääk {a}ö{b}", ["a": "1", "b": "2"]) == "ääk 1ö2")
        #expect(Pattern.substitute("no braces", [:]) == "no braces")
    }

    @Test func acceptLanguageOddities() {
        #expect(Language.preferred(acceptLanguage: "FI") == .fi)
        #expect(Language.preferred(acceptLanguage: "*") == .en)
        #expect(Language.preferred(acceptLanguage: " fi ; q=0.5 , en;q=0.25") == .fi)
        #expect(Language.preferred(acceptLanguage: "en;q=0.5, fi;q=0.75") == .fi)
        #expect(Language.preferred(acceptLanguage: "fin, finnish, f") == nil)
        #expect(Language.preferred(acceptLanguage: "") == nil)
        #expect(Language.preferred(acceptLanguage: ";;;,,,q=") == nil)
    }
}
