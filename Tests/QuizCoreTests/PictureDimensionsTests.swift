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
}
