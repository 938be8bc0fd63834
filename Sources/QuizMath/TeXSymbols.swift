/// The TeX commands the converter knows, by what they become.
enum TeXSymbols {
    /// Letters: \alpha is α. Upper-case Greek is set upright, as TeX does.
    static let greek: [String: String] = [
        "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε", "zeta": "ζ", "eta": "η",
        "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "omicron": "ο",
        "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ",
        "phi": "ϕ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
        "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ",
        "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    ]

    /// Identifiers that are symbols rather than letters.
    static let ordinary: [String: String] = [
        "infty": "∞", "partial": "∂", "nabla": "∇", "emptyset": "∅", "varnothing": "∅", "ell": "ℓ", "hbar": "ℏ", "aleph": "ℵ",
        "Re": "ℜ", "Im": "ℑ", "wp": "℘", "imath": "ı", "jmath": "ȷ", "prime": "′", "angle": "∠", "triangle": "△",
        "degree": "°", "top": "⊤", "bot": "⊥", "square": "□", "Box": "□",
    ]

    /// Operators, relations, arrows and punctuation: \leq is ≤.
    static let operators: [String: String] = [
        "pm": "±", "mp": "∓", "times": "×", "div": "÷", "cdot": "⋅", "ast": "∗", "star": "⋆", "circ": "∘", "bullet": "∙",
        "oplus": "⊕", "ominus": "⊖", "otimes": "⊗", "odot": "⊙", "cap": "∩", "cup": "∪", "setminus": "∖", "wedge": "∧",
        "land": "∧", "vee": "∨", "lor": "∨", "neg": "¬", "lnot": "¬",
        "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "equiv": "≡", "sim": "∼",
        "simeq": "≃", "cong": "≅", "propto": "∝", "ll": "≪", "gg": "≫", "leqslant": "⩽", "geqslant": "⩾",
        "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "supset": "⊃", "subseteq": "⊆", "supseteq": "⊇",
        "forall": "∀", "exists": "∃", "nexists": "∄", "mid": "∣", "parallel": "∥", "perp": "⊥", "vdash": "⊢", "models": "⊨",
        "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔", "Rightarrow": "⇒",
        "Leftarrow": "⇐", "Leftrightarrow": "⇔", "implies": "⟹", "iff": "⟺", "mapsto": "↦", "longrightarrow": "⟶",
        "longleftarrow": "⟵", "uparrow": "↑", "downarrow": "↓", "rightleftharpoons": "⇌",
        "ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "colon": ":", "therefore": "∴", "because": "∵",
        "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "vert": "|", "Vert": "‖",
        "lbrace": "{", "rbrace": "}", "backslash": "∖",
    ]

    /// Operators that take their limits under and over in display: \sum is ∑.
    static let largeOperators: [String: String] = [
        "sum": "∑", "prod": "∏", "coprod": "∐", "bigcup": "⋃", "bigcap": "⋂", "bigoplus": "⨁", "bigotimes": "⨂",
        "bigvee": "⋁", "bigwedge": "⋀",
    ]

    /// Integrals: their limits stay beside them.
    static let integrals: [String: String] = ["int": "∫", "iint": "∬", "iiint": "∭", "oint": "∮"]

    /// Function names set upright; the ones with limits under them in display.
    static let functions: Set<String> = [
        "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "coth",
        "log", "ln", "lg", "exp", "deg", "det", "dim", "gcd", "hom", "ker", "arg", "Pr",
    ]
    static let limitFunctions: Set<String> = ["lim", "limsup", "liminf", "max", "min", "sup", "inf"]

    /// Marks over a base: \hat{x}; `stretches` marks cover the whole base.
    static let accents: [String: String] = [
        "hat": "^", "widehat": "^", "bar": "¯", "overline": "¯", "vec": "→", "overrightarrow": "→", "dot": "˙", "ddot": "¨",
        "tilde": "~", "widetilde": "~", "check": "ˇ", "acute": "´", "grave": "`", "breve": "˘",
    ]

    /// Spaces, in ems.
    static let spaces: [String: String] = [
        ",": "0.1667", "thinspace": "0.1667", ":": "0.2222", ">": "0.2222", "medspace": "0.2222", ";": "0.2778",
        "thickspace": "0.2778", " ": "0.25", "quad": "1", "qquad": "2", "!": "-0.1667", "negthinspace": "-0.1667",
    ]

    /// What may follow \left, \right, \big and friends.
    static let delimiters: [String: String] = [
        "(": "(", ")": ")", "[": "[", "]": "]", "\\{": "{", "\\}": "}", "|": "|", "\\|": "‖", ".": "", "/": "/",
        "\\langle": "⟨", "\\rangle": "⟩", "\\lfloor": "⌊", "\\rfloor": "⌋", "\\lceil": "⌈", "\\rceil": "⌉",
        "\\vert": "|", "\\Vert": "‖", "\\lbrace": "{", "\\rbrace": "}", "<": "⟨", ">": "⟩",
    ]

    /// Fonts: \mathbb{R} is ℝ, written as Unicode's mathematical letters (MathML Core styles only
    /// "normal" itself).
    static func styled(_ text: String, font: String) -> String? {
        let exceptions: [String: [Character: Character]] = [
            "mathbb": ["C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"],
            "mathcal": ["B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ"],
            "mathfrak": ["C": "ℭ", "H": "ℌ", "I": "ℑ", "R": "ℜ", "Z": "ℨ"],
        ]
        let starts: [String: (UInt32, UInt32?, UInt32?)] = [
            "mathbf": (0x1D400, 0x1D41A, 0x1D7CE), "boldsymbol": (0x1D400, 0x1D41A, 0x1D7CE), "bm": (0x1D400, 0x1D41A, 0x1D7CE),
            "mathbb": (0x1D538, 0x1D552, 0x1D7D8), "mathcal": (0x1D49C, nil, nil), "mathscr": (0x1D49C, nil, nil),
            "mathfrak": (0x1D504, 0x1D51E, nil), "mathsf": (0x1D5A0, 0x1D5BA, 0x1D7E2), "mathtt": (0x1D670, 0x1D68A, 0x1D7F6),
        ]
        guard let (upper, lower, digit) = starts[font] else { return nil }
        var out = ""
        for character in text {
            if let special = exceptions[font]?[character] { out.append(special); continue }
            guard let ascii = character.asciiValue else { return nil }
            let scalar: UInt32?
            switch ascii {
            case 65...90: scalar = upper + UInt32(ascii - 65)
            case 97...122: scalar = lower.map { $0 + UInt32(ascii - 97) }
            case 48...57: scalar = digit.map { $0 + UInt32(ascii - 48) }
            case 32: out.append(" "); continue
            default: scalar = nil
            }
            guard let scalar, let unicode = Unicode.Scalar(scalar) else { return nil }
            out.unicodeScalars.append(unicode)
        }
        return out
    }
}
