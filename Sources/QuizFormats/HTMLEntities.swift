/// Decodes HTML character references in text that is otherwise plain: what Open Trivia DB sends
/// by default, and what GIFT and Moodle XML authors paste into question text.
///
/// - Named references from the HTML 4 set (all 253: `&quot; &amp; &lt; &gt; &apos; &nbsp;`, the
///   Latin-1 letters and symbols, Greek, arrows, maths, typographic quotes, dashes, `&hellip;`,
///   `&euro;` …), case-sensitive as in HTML (`&Eacute;` is "É", `&eacute;` is "é").
/// - Numeric references, decimal `&#039;` and hexadecimal `&#x27;`/`&#X27;`. As HTML5 does,
///   `&#128;`–`&#159;` are read as Windows-1252 (old pages wrote `&#146;` for "’"), and zero,
///   surrogates and values past U+10FFFF become U+FFFD.
/// - The trailing `;` is required. Anything else (`&copy` without it, unknown names such as
///   `&foo;`, a lone `&` as in "Science & Nature") stays exactly as written.
///
/// Decoding happens once, left to right: `&amp;quot;` becomes `&quot;`, never `"`.
enum HTMLEntities {
    static func decode(_ s: String) -> String {
        guard s.utf8.contains(ampersand) else { return s }
        let input = Array(s.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            guard input[i] == ampersand, let (scalar, length) = reference(in: input, at: i) else {
                out.append(input[i])
                i += 1
                continue
            }
            out += Array(String(scalar).utf8)
            i += length
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let ampersand = UInt8(ascii: "&")
    private static let semicolon = UInt8(ascii: ";")
    /// The longest name in the table ("thetasym") is 8 letters; a longer run cannot be a reference.
    private static let maxNameLength = 8

    /// The character an `&…;` at `start` stands for, and how many bytes it spans.
    private static func reference(in input: [UInt8], at start: Int) -> (Character, Int)? {
        var i = start + 1
        if i < input.count, input[i] == UInt8(ascii: "#") {
            i += 1
            let hex = i < input.count && (input[i] == UInt8(ascii: "x") || input[i] == UInt8(ascii: "X"))
            if hex { i += 1 }
            let digitsStart = i
            var value: UInt32 = 0
            while i < input.count, let digit = digit(input[i], hex: hex) {
                // Saturate instead of overflowing: the value only needs to be known as too large.
                value = min(value &* (hex ? 16 : 10) &+ digit, 0x11_0000)
                i += 1
            }
            guard i > digitsStart, i < input.count, input[i] == semicolon else { return nil }
            return (Character(numericScalar(value)), i + 1 - start)
        }
        let nameStart = i
        while i < input.count, i - nameStart <= maxNameLength, isAlphanumeric(input[i]) { i += 1 }
        guard i > nameStart, i < input.count, input[i] == semicolon else { return nil }
        let name = String(decoding: input[nameStart..<i], as: UTF8.self)
        guard let value = named[name], let scalar = Unicode.Scalar(value) else { return nil }
        return (Character(scalar), i + 1 - start)
    }

    private static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// What HTML5 makes of `&#value;`.
    private static func numericScalar(_ value: UInt32) -> Unicode.Scalar {
        let replacement: Unicode.Scalar = "\u{FFFD}"
        if (0x80...0x9F).contains(value) {
            let mapped = windows1252[Int(value - 0x80)]
            return mapped == 0 ? Unicode.Scalar(UInt8(value)) : Unicode.Scalar(mapped) ?? replacement
        }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return replacement }
        return scalar
    }

    /// U+0080–U+009F as Windows-1252 reads them; 0 where it leaves the code point alone.
    private static let windows1252: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// The HTML 4.01 named character references, plus `apos` (XML, HTML5).
    static let named: [String: UInt32] = [
        // Markup-significant and special
        "quot": 34, "amp": 38, "apos": 39, "lt": 60, "gt": 62,
        "OElig": 338, "oelig": 339, "Scaron": 352, "scaron": 353, "Yuml": 376, "circ": 710, "tilde": 732,
        "ensp": 8194, "emsp": 8195, "thinsp": 8201, "zwnj": 8204, "zwj": 8205, "lrm": 8206, "rlm": 8207,
        "ndash": 8211, "mdash": 8212, "lsquo": 8216, "rsquo": 8217, "sbquo": 8218, "ldquo": 8220, "rdquo": 8221,
        "bdquo": 8222, "dagger": 8224, "Dagger": 8225, "permil": 8240, "lsaquo": 8249, "rsaquo": 8250, "euro": 8364,
        // Latin-1 symbols
        "nbsp": 160, "iexcl": 161, "cent": 162, "pound": 163, "curren": 164, "yen": 165, "brvbar": 166,
        "sect": 167, "uml": 168, "copy": 169, "ordf": 170, "laquo": 171, "not": 172, "shy": 173, "reg": 174,
        "macr": 175, "deg": 176, "plusmn": 177, "sup2": 178, "sup3": 179, "acute": 180, "micro": 181,
        "para": 182, "middot": 183, "cedil": 184, "sup1": 185, "ordm": 186, "raquo": 187, "frac14": 188,
        "frac12": 189, "frac34": 190, "iquest": 191, "times": 215, "divide": 247,
        // Latin-1 letters
        "Agrave": 192, "Aacute": 193, "Acirc": 194, "Atilde": 195, "Auml": 196, "Aring": 197, "AElig": 198,
        "Ccedil": 199, "Egrave": 200, "Eacute": 201, "Ecirc": 202, "Euml": 203, "Igrave": 204, "Iacute": 205,
        "Icirc": 206, "Iuml": 207, "ETH": 208, "Ntilde": 209, "Ograve": 210, "Oacute": 211, "Ocirc": 212,
        "Otilde": 213, "Ouml": 214, "Oslash": 216, "Ugrave": 217, "Uacute": 218, "Ucirc": 219, "Uuml": 220,
        "Yacute": 221, "THORN": 222, "szlig": 223, "agrave": 224, "aacute": 225, "acirc": 226, "atilde": 227,
        "auml": 228, "aring": 229, "aelig": 230, "ccedil": 231, "egrave": 232, "eacute": 233, "ecirc": 234,
        "euml": 235, "igrave": 236, "iacute": 237, "icirc": 238, "iuml": 239, "eth": 240, "ntilde": 241,
        "ograve": 242, "oacute": 243, "ocirc": 244, "otilde": 245, "ouml": 246, "oslash": 248, "ugrave": 249,
        "uacute": 250, "ucirc": 251, "uuml": 252, "yacute": 253, "thorn": 254, "yuml": 255,
        // Greek
        "fnof": 402, "Alpha": 913, "Beta": 914, "Gamma": 915, "Delta": 916, "Epsilon": 917, "Zeta": 918,
        "Eta": 919, "Theta": 920, "Iota": 921, "Kappa": 922, "Lambda": 923, "Mu": 924, "Nu": 925, "Xi": 926,
        "Omicron": 927, "Pi": 928, "Rho": 929, "Sigma": 931, "Tau": 932, "Upsilon": 933, "Phi": 934,
        "Chi": 935, "Psi": 936, "Omega": 937, "alpha": 945, "beta": 946, "gamma": 947, "delta": 948,
        "epsilon": 949, "zeta": 950, "eta": 951, "theta": 952, "iota": 953, "kappa": 954, "lambda": 955,
        "mu": 956, "nu": 957, "xi": 958, "omicron": 959, "pi": 960, "rho": 961, "sigmaf": 962, "sigma": 963,
        "tau": 964, "upsilon": 965, "phi": 966, "chi": 967, "psi": 968, "omega": 969, "thetasym": 977,
        "upsih": 978, "piv": 982,
        // Punctuation, letterlike symbols, arrows
        "bull": 8226, "hellip": 8230, "prime": 8242, "Prime": 8243, "oline": 8254, "frasl": 8260,
        "weierp": 8472, "image": 8465, "real": 8476, "trade": 8482, "alefsym": 8501, "larr": 8592,
        "uarr": 8593, "rarr": 8594, "darr": 8595, "harr": 8596, "crarr": 8629, "lArr": 8656, "uArr": 8657,
        "rArr": 8658, "dArr": 8659, "hArr": 8660,
        // Mathematical operators and miscellaneous technical
        "forall": 8704, "part": 8706, "exist": 8707, "empty": 8709, "nabla": 8711, "isin": 8712,
        "notin": 8713, "ni": 8715, "prod": 8719, "sum": 8721, "minus": 8722, "lowast": 8727, "radic": 8730,
        "prop": 8733, "infin": 8734, "ang": 8736, "and": 8743, "or": 8744, "cap": 8745, "cup": 8746,
        "int": 8747, "there4": 8756, "sim": 8764, "cong": 8773, "asymp": 8776, "ne": 8800, "equiv": 8801,
        "le": 8804, "ge": 8805, "sub": 8834, "sup": 8835, "nsub": 8836, "sube": 8838, "supe": 8839,
        "oplus": 8853, "otimes": 8855, "perp": 8869, "sdot": 8901, "lceil": 8968, "rceil": 8969,
        "lfloor": 8970, "rfloor": 8971, "lang": 9001, "rang": 9002, "loz": 9674,
        "spades": 9824, "clubs": 9827, "hearts": 9829, "diams": 9830,
    ]
}
