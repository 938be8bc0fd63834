import Foundation

/// Turns a typed answer (or an accepted answer, or a choice text) into the key it is compared by,
/// so that "  The Hague!" and "hague" or "Saint-Étienne" and "saint etienne" match.
///
/// Steps, in order:
/// 1. Unicode compatibility normalisation (NFKC): full-width "ＡＢＣ１２３" is "abc123", "ﬁ" is "fi".
/// 2. Case folding: lowercase, plus final sigma "ς" → "σ" and German "ß"/"ẞ" → "ss" (so "Straße"
///    matches "STRASSE").
/// 3. Diacritics removed: combining accents of Latin, Greek and Cyrillic, Hebrew points and Arabic
///    vowel marks ("é" → "e", "ü" → "u", "İ" → "i"). Marks that are part of a letter in other scripts
///    (Devanagari vowel signs, Japanese dakuten: "が" stays "が") are kept. Letters whose accent is
///    not a separate mark are mapped by a small table: ı→i, ø→o, ł→l, đ→d, ħ→h, æ→ae, œ→oe.
/// 4. Letters (every script) and digits are kept; a "." between two digits is kept ("3.14");
///    punctuation, symbols, emoji and whitespace become single spaces; invisible format characters
///    (soft hyphen, zero-width joiner) are dropped. The result is trimmed.
/// 5. One leading English article ("the ", "a ", "an ") is removed when something follows it:
///    "The Hague" → "hague", but "A" stays "a". Only one is removed, so "The The" → "the".
///
/// The result is in NFC. ASCII input, the common case, takes a byte-level path with no Foundation
/// calls; both paths give the same result for ASCII (a test checks this).
public enum AnswerNormalizer {
    public static func normalize(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return normalizeASCII(s) }
        return normalizeLatin(s) ?? normalizeUnicode(s)
    }

    // MARK: - ASCII path

    static func normalizeASCII(_ s: String) -> String {
        if let result = s.utf8.withContiguousStorageIfAvailable(normalizeASCII(bytes:)) { return result }
        return Array(s.utf8).withUnsafeBufferPointer(normalizeASCII(bytes:))
    }

    /// One pass, one allocation (none for results of up to 15 bytes, which Swift stores inline).
    private static func normalizeASCII(bytes: UnsafeBufferPointer<UInt8>) -> String {
        // Each kept byte or inserted space replaces at least one input byte, so the input's length
        // bounds the output's.
        String(unsafeUninitializedCapacity: bytes.count) { out in
            var count = 0
            var pendingSpace = false
            for index in bytes.indices {
                let byte = bytes[index]
                var kept: UInt8 = 0
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    kept = byte
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    kept = byte + 32
                case UInt8(ascii: "."):
                    // A decimal point survives only between two digits.
                    let afterDigit = !pendingSpace && count > 0 && isASCIIDigit(out[count - 1])
                    let beforeDigit = index + 1 < bytes.count && isASCIIDigit(bytes[index + 1])
                    if afterDigit && beforeDigit { kept = byte }
                default:
                    break
                }
                guard kept != 0 else {
                    pendingSpace = true
                    continue
                }
                if pendingSpace && count > 0 {
                    out[count] = UInt8(ascii: " ")
                    count += 1
                }
                pendingSpace = false
                out[count] = kept
                count += 1
            }
            let article = leadingArticleLength(UnsafeBufferPointer(rebasing: out[..<count]))
            if article > 0 {
                for index in article..<count { out[index - article] = out[index] }
            }
            return count - article
        }
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Bytes to drop for a leading "the ", "a " or "an " that has something after it.
    private static func leadingArticleLength(_ out: UnsafeBufferPointer<UInt8>) -> Int {
        for article in articles where out.count > article.count && out.starts(with: article) {
            return article.count
        }
        return 0
    }

    private static let articles: [[UInt8]] = [Array("the ".utf8), Array("an ".utf8), Array("a ".utf8)]

    // MARK: - Latin path

    /// What the Unicode path makes of one character of Latin-1 Supplement or Latin Extended-A/B,
    /// learnt by running it between two letters: nothing, a word break, or letters.
    enum LatinEntry: Sendable {
        case dropped
        case separator
        case letters([UInt8])
        /// Depends on its neighbours (a fraction, say): only the Unicode path gets it right.
        case complex
    }

    static let latinRange: ClosedRange<UInt32> = 0x80...0x24F

    static let latinTable: [LatinEntry] = latinRange.map { value in
        guard let scalar = Unicode.Scalar(value) else { return .complex }
        let result = normalizeUnicode("z\(Character(scalar))z")
        if result == "zz" { return .dropped }
        if result == "z z" { return .separator }
        guard result.count >= 3, result.hasPrefix("z"), result.hasSuffix("z"), !result.contains(" "), !result.contains(".") else {
            return .complex
        }
        return .letters(Array(result.utf8.dropFirst().dropLast()))
    }

    /// Accented Latin text ("Zürich", "São Paulo", "Straße") without Foundation's normalisation,
    /// which costs ten times more. Nil when the text has anything else, or a "." (whose meaning
    /// depends on the digits around it): the Unicode path takes those.
    static func normalizeLatin(_ s: String) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        var pendingSpace = false
        func emit(_ bytes: some Collection<UInt8>) {
            if pendingSpace && !out.isEmpty { out.append(UInt8(ascii: " ")) }
            pendingSpace = false
            out.append(contentsOf: bytes)
        }
        for scalar in s.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                let byte = UInt8(value)
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): emit(CollectionOfOne(byte))
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): emit(CollectionOfOne(byte + 32))
                case UInt8(ascii: "."): return nil
                default: pendingSpace = true
                }
                continue
            }
            guard latinRange.contains(value) else { return nil }
            switch latinTable[Int(value - latinRange.lowerBound)] {
            case .dropped: continue
            case .separator: pendingSpace = true
            case .letters(let bytes): emit(bytes)
            case .complex: return nil
            }
        }
        let article = out.withUnsafeBufferPointer(leadingArticleLength)
        return String(decoding: out[article...], as: UTF8.self)
    }

    // MARK: - Unicode path

    static func normalizeUnicode(_ s: String) -> String {
        // NFKD then (at the end) NFC equals NFKC, and the decomposed form exposes accents as marks.
        let decomposed = StreamSafe.limited(s).decomposedStringWithCompatibilityMapping.lowercased()
        let scalars = Array(decomposed.unicodeScalars)
        var out = String.UnicodeScalarView()
        var lastKept: Unicode.Scalar? = nil  // nil at the start and after a pending space
        var pendingSpace = false
        // Only a kept mark or a Hangul jamo can compose with what precedes it; without any, the
        // text is already NFC and the costly recomposition is skipped.
        var mayCompose = false

        func emit(_ scalar: Unicode.Scalar) {
            if pendingSpace && !out.isEmpty { out.append(" ") }
            pendingSpace = false
            out.append(scalar)
            lastKept = scalar
        }
        func breakWord() {
            pendingSpace = true
            lastKept = nil
        }

        for (index, scalar) in scalars.enumerated() {
            if let mapped = foldedLetters[scalar] {
                mapped.unicodeScalars.forEach(emit)
                continue
            }
            switch classify(scalar) {
            case .wordPart:
                if isHangulJamo(scalar.value) { mayCompose = true }
                emit(scalar)
            case .mark:
                // A mark only means something attached to a letter or digit.
                if lastKept != nil {
                    mayCompose = true
                    emit(scalar)
                } else {
                    breakWord()
                }
            case .dropped:
                continue
            case .separator:
                if scalar == ".", let previous = lastKept, isDigit(previous),
                   index + 1 < scalars.count, isDigit(scalars[index + 1]) {
                    emit(scalar)
                } else {
                    breakWord()
                }
            }
        }
        let composed = mayCompose ? String(out).precomposedStringWithCanonicalMapping : String(out)
        let utf8 = Array(composed.utf8)
        let articleLength = utf8.withUnsafeBufferPointer(leadingArticleLength)
        return articleLength == 0 ? composed : String(decoding: utf8[articleLength...], as: UTF8.self)
    }

    private enum ScalarClass { case wordPart, mark, dropped, separator }

    private static func classify(_ scalar: Unicode.Scalar) -> ScalarClass {
        if isRemovedDiacritic(scalar.value) || scalar.properties.isVariationSelector { return .dropped }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            return .wordPart
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return .mark
        case .format:
            return .dropped
        default:
            return .separator
        }
    }

    private static func isHangulJamo(_ value: UInt32) -> Bool {
        (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value) || (0xD7B0...0xD7FF).contains(value)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .decimalNumber
    }

    /// Combining marks treated as accents: removing them is what players expect when typing.
    private static func isRemovedDiacritic(_ value: UInt32) -> Bool {
        switch value {
        case 0x0300...0x036F,  // Combining Diacritical Marks (Latin, Greek tonos, Cyrillic breve)
             0x0483...0x0489,  // Cyrillic titlo and friends
             0x0591...0x05BD, 0x05BF, 0x05C1...0x05C2, 0x05C4...0x05C5, 0x05C7,  // Hebrew points
             0x0610...0x061A, 0x064B...0x065F, 0x0670,  // Arabic vowel marks
             0x1AB0...0x1AFF,  // Combining Diacritical Marks Extended
             0x1DC0...0x1DFF,  // Combining Diacritical Marks Supplement
             0x20D0...0x20FF,  // Combining Marks for Symbols
             0xFE20...0xFE2F:  // Combining Half Marks
            return true
        default:
            return false
        }
    }

    /// Lowercase letters that fold further: case folding proper (ς, ß) and accented letters
    /// without a decomposition, which players type without the accent.
    private static let foldedLetters: [Unicode.Scalar: String] = [
        "ς": "σ", "ß": "ss", "ı": "i", "ø": "o", "ł": "l", "đ": "d", "ħ": "h", "æ": "ae", "œ": "oe",
    ]
}
