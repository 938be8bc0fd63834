/// Reed–Solomon error correction codewords over GF(256) as QR codes use it: field polynomial
/// x⁸ + x⁴ + x³ + x² + 1 (0x11D), generator polynomial (x − α⁰)(x − α¹)…(x − α^(degree−1)).
struct ReedSolomon {
    /// The generator's coefficients after its leading 1, highest degree first.
    private let generator: [UInt8]

    init(degree: Int) {
        precondition((1...255).contains(degree), "Reed–Solomon degree out of range: \(degree)")
        // Start from the polynomial 1 and multiply by (x − αⁱ) once per root; in GF(256)
        // subtraction is addition, an exclusive or.
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                coefficients[index] = GF256.multiply(coefficients[index], root)
                if index + 1 < degree { coefficients[index] ^= coefficients[index + 1] }
            }
            root = GF256.multiply(root, 2)
        }
        generator = coefficients
    }

    /// The remainder of data(x) · x^degree divided by the generator: the codewords that follow
    /// the data.
    func remainder(of data: some Collection<UInt8>) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in remainder.indices {
                remainder[index] ^= GF256.multiply(generator[index], factor)
            }
        }
        return remainder
    }
}

/// Arithmetic in GF(2⁸) with the field polynomial 0x11D, through tables of powers of α = 2.
enum GF256 {
    /// αⁱ for i in 0..<255, then once more so that a sum of two logarithms needs no modulo.
    private static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for index in 0..<255 {
            table[index] = UInt8(value)
            table[index + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    private static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for index in 0..<255 { table[Int(exponents[index])] = index }
        return table
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
    }
}
