import Foundation
import QuizCore
import QuizTestSupport
import Testing

@Suite struct PictureDimensionsTests {
    @Test func widthAndHeightAreReadFromEachKindsHeader() {
        #expect(PostImageType.dimensions(of: PictureBytes.png(width: 640, height: 480)).map { $0.width == 640 && $0.height == 480 } == true)
        #expect(PostImageType.dimensions(of: PictureBytes.jpeg(width: 1024, height: 768)).map { $0.width == 1024 && $0.height == 768 } == true)
        #expect(PostImageType.dimensions(of: PictureBytes.webpLossless(width: 300, height: 200)).map { $0.width == 300 && $0.height == 200 } == true)
        #expect(PostImageType.dimensions(of: PictureBytes.webpExtended(width: 4000, height: 3000)).map { $0.width == 4000 && $0.height == 3000 } == true)
    }

    @Test func aHeaderCutShortOrWithoutASizeGivesNone() {
        #expect(PostImageType.dimensions(of: PictureBytes.png(width: 640, height: 480).prefix(20)) == nil)
        #expect(PostImageType.dimensions(of: PictureBytes.png(width: 0, height: 480)) == nil)
        #expect(PostImageType.dimensions(of: Data([0xFF, 0xD8, 0xFF, 0xD9])) == nil)
        #expect(PostImageType.dimensions(of: Data("<svg width='10' height='10'/>".utf8)) == nil)
    }

    @Test func aPictureNeedsAltText() {
        var question = Question(text: "Which planet is this?", body: .typedAnswer(["Saturn"]),
                                picture: QuestionPicture(hash: String(repeating: "a", count: 64), type: .png, alt: " ", width: 2, height: 2))
        #expect(question.validationErrors().map(\.field) == ["picture.alt"])
        question.picture?.alt = String(repeating: "x", count: QuestionPicture.maxAltLength + 1)
        #expect(question.validationErrors().map(\.field) == ["picture.alt"])
        question.picture?.alt = "A ringed planet"
        #expect(question.validationErrors().isEmpty)
        #expect(question.picture?.url == "/images/\(String(repeating: "a", count: 64)).png")
    }

    /// A few hundred bytes can claim a picture that takes gigabytes to show: 20,000 × 20,000 is
    /// 1.5 GiB decoded in every browser that shows it, though each side is within the old cap.
    @Test func aPictureOfMoreThanFortyMegapixelsIsRefusedWhateverItsKind() {
        let bombs = [PictureBytes.png(width: 20_000, height: 20_000), PictureBytes.jpeg(width: 7_000, height: 7_000),
                     PictureBytes.webpLossless(width: 16_384, height: 16_384), PictureBytes.webpExtended(width: 8_001, height: 5_000)]
        for bytes in bombs {
            guard case .failure(let refusal) = QuestionPicture.carried(bytes, alt: "x") else {
                Issue.record("accepted \(PostImageType.dimensions(of: bytes).map { "\($0.width) × \($0.height)" } ?? "?")")
                continue
            }
            #expect(refusal.message.contains("40 megapixels"), "\(refusal.message)")
        }
        // A 40-megapixel photo is still welcome.
        guard case .success(let photo) = QuestionPicture.carried(PictureBytes.jpeg(width: 8_000, height: 5_000), alt: "x") else {
            Issue.record("a 40-megapixel photo was refused")
            return
        }
        #expect(photo.width == 8_000 && photo.height == 5_000)
    }
}
