import Foundation

/// What a live player may be called, and when two names are too alike to share a game.
/// A host's roster lists every name, so a name's cost is its bytes, not the characters it shows:
/// a few letters under stacked combining marks were 20 "characters" and 3.5 KB each.
public enum Nickname {
    /// Characters a chosen nickname may have; a signed-in player plays under their username (up to 32).
    public static let characters = 1...20
    /// UTF-8 bytes: 20 four-byte characters (emoji, CJK) fit; marks stacked on them do not.
    public static let maxBytes = 80
    /// A signed-in player's username, as registration allows it (32 characters of up to 4 bytes),
    /// and room for " (2)" when a look-alike took it in the game.
    public static let maxUsernameBytes = 140
    /// Combining marks on one character: enough for Vietnamese and Indic scripts, not for "Zalgo" text.
    public static let maxMarksPerCharacter = 4

    /// The name as shown: trimmed, within its length in characters and bytes, no control,
    /// format or other invisible characters, and something visible in it.
    public static func checked(_ raw: String, username: Bool = false) throws(LiveGameError) -> String {
        let name = StreamSafe.limited(raw.trimmingCharacters(in: .whitespacesAndNewlines)).precomposedStringWithCanonicalMapping
        let (length, bytes) = username ? (1...40, maxUsernameBytes) : (characters, maxBytes)
        guard length.contains(name.count), name.utf8.count <= bytes else { throw .nicknameInvalid }
        var visible = false
        for character in name {
            var marks = 0
            for scalar in character.unicodeScalars {
                let properties = scalar.properties
                switch properties.generalCategory {
                case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator:
                    throw .nicknameInvalid
                case .nonspacingMark, .spacingMark, .enclosingMark:
                    marks += 1
                default:
                    // Hangul fillers and other default-ignorable letters show nothing; variation
                    // selectors (emoji presentation) are the exception.
                    if properties.isDefaultIgnorableCodePoint && !properties.isVariationSelector { throw .nicknameInvalid }
                    if !properties.isWhitespace && !blanks.contains(scalar.value) { visible = true }
                }
            }
            guard marks <= maxMarksPerCharacter else { throw .nicknameInvalid }
        }
        guard visible else { throw .nicknameInvalid }
        return name
    }

    /// Symbols that draw as nothing: the Braille blank, the musical null notehead, the
    /// ideographic and Hangul half-width spaces that are not whitespace.
    static let blanks: Set<UInt32> = [0x2800, 0x1D159, 0x3164, 0xFFA0, 0x115F, 0x1160]

    /// The key two nicknames are "the same" by: compatibility forms folded ("Ａｎｎ"), case and
    /// accents ignored, invisible characters and spaces dropped, and Cyrillic and Greek letters
    /// that look Latin read as the Latin ones ("Аlice" with a Cyrillic А is "alice").
    public static func key(_ name: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in name.precomposedStringWithCompatibilityMapping.unicodeScalars {
            // Capitals first: "I" and "l" differ only once lowercased.
            if let latin = capitals[scalar.value] { folded.append(latin) } else { folded.append(scalar) }
        }
        var key = String.UnicodeScalarView()
        for scalar in String(folded).lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            let properties = scalar.properties
            switch properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .control, .format, .spaceSeparator: continue
            default: break
            }
            if properties.isWhitespace || properties.isDefaultIgnorableCodePoint || blanks.contains(scalar.value) { continue }
            key.append(smalls[scalar.value] ?? scalar)
        }
        return String(key)
    }

    /// Look-alikes of Latin letters among capitals (Latin I and digits included). I, i, l, 1 and |
    /// all read as "l", and O, o and 0 as "o".
    private static let capitals: [UInt32: Unicode.Scalar] = table([
        ("I", "l"), ("1", "l"), ("|", "l"), ("0", "o"),
        ("А", "a"), ("В", "b"), ("Е", "e"), ("Ѕ", "s"), ("І", "l"), ("Ј", "j"), ("К", "k"), ("М", "m"), ("Н", "h"),
        ("О", "o"), ("Р", "p"), ("С", "c"), ("Т", "t"), ("У", "y"), ("Х", "x"), ("Ү", "y"), ("Ԛ", "q"), ("Ԝ", "w"),
        ("Α", "a"), ("Β", "b"), ("Ε", "e"), ("Ζ", "z"), ("Η", "h"), ("Ι", "l"), ("Κ", "k"), ("Μ", "m"), ("Ν", "n"),
        ("Ο", "o"), ("Ρ", "p"), ("Τ", "t"), ("Υ", "y"), ("Χ", "x"),
    ])

    /// Look-alikes of Latin letters among small letters, after lowercasing.
    private static let smalls: [UInt32: Unicode.Scalar] = table([
        ("а", "a"), ("е", "e"), ("ё", "e"), ("о", "o"), ("р", "p"), ("с", "c"), ("у", "y"), ("х", "x"), ("ѕ", "s"),
        ("i", "l"), ("і", "l"), ("ї", "l"), ("ј", "j"), ("ԁ", "d"), ("һ", "h"), ("ԛ", "q"), ("ԝ", "w"), ("ӏ", "l"), ("ү", "y"),
        ("к", "k"), ("м", "m"), ("н", "h"), ("т", "t"), ("в", "b"),
        ("α", "a"), ("ο", "o"), ("ν", "v"), ("ι", "l"), ("κ", "k"), ("ρ", "p"), ("τ", "t"), ("υ", "u"), ("χ", "x"),
        ("ε", "e"), ("ζ", "z"), ("η", "n"), ("β", "b"), ("μ", "u"), ("ı", "l"),
    ])

    private static func table(_ pairs: [(Unicode.Scalar, Unicode.Scalar)]) -> [UInt32: Unicode.Scalar] {
        Dictionary(pairs.map { ($0.0.value, $0.1) }, uniquingKeysWith: { first, _ in first })
    }
}
