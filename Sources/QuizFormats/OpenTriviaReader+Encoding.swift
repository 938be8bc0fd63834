import Foundation

extension OpenTriviaReader {
    struct DecodingProblem: Error, Equatable {
        var message: String
    }

    /// One string as the API encoded it, decoded.
    static func decode(_ value: String, _ encoding: Encoding) -> Result<String, DecodingProblem> {
        switch encoding {
        case .htmlEntities:
            return .success(HTMLEntities.decode(value))
        case .url3986:
            return percentDecode(value, plusIsSpace: false)
        case .urlLegacy:
            return percentDecode(value, plusIsSpace: true)
        case .base64:
            guard let data = Data(base64Encoded: value) else {
                return .failure(DecodingProblem(message: "is not valid base64, as the response's encoding requires"))
            }
            guard let text = String(validating: data, as: UTF8.self) else {
                return .failure(DecodingProblem(message: "is base64 of something that is not UTF-8 text"))
            }
            return .success(text)
        }
    }

    private static func percentDecode(_ value: String, plusIsSpace: Bool) -> Result<String, DecodingProblem> {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return .success(value) }
        let input = Array(value.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            switch input[i] {
            case UInt8(ascii: "%"):
                guard i + 2 < input.count, let high = hexValue(input[i + 1]), let low = hexValue(input[i + 2]) else {
                    let column = value.utf8.prefix(i).count(where: { $0 & 0xC0 != 0x80 }) + 1
                    return .failure(DecodingProblem(
                        message: "is not valid URL encoding: the \"%\" at character \(column) is not followed by two hex digits"))
                }
                out.append(high << 4 | low)
                i += 3
            case UInt8(ascii: "+") where plusIsSpace:
                out.append(UInt8(ascii: " "))
                i += 1
            case let byte:
                out.append(byte)
                i += 1
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            return .failure(DecodingProblem(message: "is URL-encoded bytes that are not UTF-8 text"))
        }
        return .success(text)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The encoding the API used, judged from every result at once (one response has one encoding):
    /// - base64 when every string is base64 of UTF-8 text and every `type` decodes to "multiple"
    ///   or "boolean" (a plain "multiple" is not base64 of either, so this cannot misfire);
    /// - URL encoding when `type` and `difficulty` are plain words (they need no escaping), no
    ///   question has a space and some question has a `%XX` escape; `urlLegacy` when some string
    ///   has a `+` (url3986 writes `+` as `%2B`), url3986 otherwise;
    /// - HTML entities, the API's default, in every other case.
    static func detectEncoding(_ results: [OpenTriviaResult]) -> Encoding {
        guard !results.isEmpty else { return .htmlEntities }
        let types: Set<String> = ["multiple", "boolean"]
        let difficulties: Set<String> = ["easy", "medium", "hard"]

        let isBase64 = results.allSatisfy { result in
            guard case .success(let type) = decode(result.type, .base64), types.contains(type) else { return false }
            return result.strings.allSatisfy { if case .success = decode($0, .base64) { true } else { false } }
        }
        if isBase64 { return .base64 }

        let plainWords = results.allSatisfy { result in
            types.contains(result.type) && result.difficulty.map(difficulties.contains) != false
        }
        let noSpaces = results.allSatisfy { !$0.question.contains(" ") }
        let escaped = results.contains { hasPercentEscape($0.question) }
        guard plainWords && noSpaces && escaped else { return .htmlEntities }
        return results.contains { $0.strings.contains { $0.contains("+") } } ? .urlLegacy : .url3986
    }

    private static func hasPercentEscape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.indices.contains { i in
            bytes[i] == UInt8(ascii: "%") && i + 2 < bytes.count && hexValue(bytes[i + 1]) != nil && hexValue(bytes[i + 2]) != nil
        }
    }
}
