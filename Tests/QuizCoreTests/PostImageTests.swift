import Foundation
import QuizCore
import Testing

@Suite struct PostImageTests {
    @Test func imagesAreRecognisedFromTheirFirstBytes() {
        #expect(PostImageType.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == .png)
        #expect(PostImageType.sniff([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46]) == .jpeg)
        #expect(PostImageType.sniff(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)) == .webp)
        #expect(PostImageType.sniff(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8L".utf8)) == .webp)
    }

    @Test func anythingElseIsNotAnImage() {
        #expect(PostImageType.sniff(Array("just text named photo.png".utf8)) == nil)
        #expect(PostImageType.sniff([UInt8]()) == nil)
        #expect(PostImageType.sniff([0x89, 0x50, 0x4E, 0x47]) == nil)  // a PNG signature cut short
        #expect(PostImageType.sniff(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WAVEfmt ".utf8)) == nil)
        #expect(PostImageType.sniff(Array("<svg xmlns='http://www.w3.org/2000/svg'>".utf8)) == nil)
        #expect(PostImageType.sniff(Array("GIF89a".utf8) + [1, 0, 1, 0]) == nil)
    }

    @Test func postTextIsTrimmedAndLimited() throws {
        #expect(try PostText.normalize("  hello\r\nthere \n", hasImage: false) == "hello\nthere")
        #expect(try PostText.normalize("   ", hasImage: true) == "")
        #expect(throws: PostText.Invalid.self) { try PostText.normalize(" \n ", hasImage: false) }
        #expect(try PostText.normalize(String(repeating: "🙂", count: 2_000), hasImage: false).count == 2_000)
        #expect(throws: PostText.Invalid.self) { try PostText.normalize(String(repeating: "a", count: 2_001), hasImage: false) }
        // One character made of thousands of combining marks is refused by its size.
        #expect(throws: PostText.Invalid.self) {
            try PostText.normalize("e" + String(repeating: "\u{301}", count: 20_000), hasImage: false)
        }
    }
}
