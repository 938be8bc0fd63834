@testable import QuizServer
import QuizUseCases
import Testing

@Suite struct SessionTokensTests {
    @Test func theStoredHashIsTheTokensSHA256InLowercaseHex() {
        // SHA-256("abc") from FIPS 180-2, appendix B.1.
        #expect(SessionTokens.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func tokensAre256RandomBitsInURLSafeBase64() {
        let tokens = Set((0..<100).map { _ in SessionTokens.make() })
        #expect(tokens.count == 100)
        #expect(tokens.allSatisfy { $0.count == 43 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
    }
}
