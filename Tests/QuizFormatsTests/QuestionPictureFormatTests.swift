import Foundation
import QuizCore
import QuizFormats
import Testing

/// Pictures through the formats: Moodle XML reads `@@PLUGINFILE@@` images with their embedded
/// file and writes them back the same way, the bundle carries them, and the other formats list the
/// questions whose picture they left out.
@Suite struct QuestionPictureFormatTests {
    /// A real 8×6 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAAEUlEQVR4nGMQUDDAihgGUgIAQOESAYIG6jMAAAAASUVORK5CYII=")!

    static func moodleQuestion(alt: String) -> String {
        """
          <question type="shortanswer">
            <name><text>Planet</text></name>
            <questiontext format="html">
              <text><![CDATA[<p>Which planet is this?</p><p><img src="@@PLUGINFILE@@/saturn%20rings.png" \(alt) width="8" height="6"></p>]]></text>
              <file name="saturn rings.png" path="/" encoding="base64">\(png.base64EncodedString())</file>
            </questiontext>
            <answer fraction="100"><text>Saturn</text></answer>
          </question>

        """
    }

    func bank(_ question: Question) -> Bank {
        Bank(subjects: [BankSubject(name: "Space", topics: [BankTopic(name: "Planets", questions: [question])])])
    }

    @Test func aCSVImageColumnNamesThePictureToDownloadWithItsAlt() throws {
        let text = """
            question,option1,option2,answer,image,image_alt
            Which planet has rings?,Saturn,Mars,Saturn,https://example.org/saturn.png,A ringed planet
            Which is red?,Saturn,Mars,Mars,http://example.org/mars.webp,
            No picture?,Yes,No,Yes,,
            """
        #expect(CSVReader.namesPictures(Data(text.utf8)))
        #expect(!CSVReader.namesPictures(Data("question,option1,option2,answer\nQ,A,B,A\n".utf8)))
        let questions = try readCSV(text).subjects.flatMap(\.topics).flatMap { $0.quizzes.flatMap(\.questions) }
        #expect(questions.map { $0.picture?.address } == ["https://example.org/saturn.png", "http://example.org/mars.webp", nil])
        #expect(questions.map { $0.picture?.alt } == ["A ringed planet", QuestionPicture.fallbackAlt, nil])
        #expect(questions[0].picture?.data == nil, "the reader downloads nothing")

        let problems = csvProblems("""
            question,option1,option2,answer,image,image_alt
            Q1?,A,B,A,file:///etc/passwd,x
            Q2?,A,B,A,not an address,x
            Q3?,A,B,A,https://example.org/p.png,\(String(repeating: "a", count: 501))
            """)
        #expect(problems.map(\.line) == [2, 3, 4])
        #expect(problems.map(\.column) == [5, 5, 6])
        #expect(problems[0].message.contains("http or https address"))
        #expect(problems[2].message.contains("image_alt is longer than 500"))
    }

    @Test func moodleXMLReadsTheQuestionTextsImageAsItsPicture() throws {
        let result = try readMoodleXML(moodleQuiz(Self.moodleQuestion(alt: #"alt="A planet &amp; its rings""#)))
        let question = try #require(moodleXMLQuestions(result.bank).first)
        #expect(question.text == "Which planet is this?")
        let picture = try #require(question.picture)
        #expect(picture.alt == "A planet & its rings")
        #expect(picture.width == 8 && picture.height == 6)
        #expect(picture.type == .png && picture.data == Self.png)
        #expect(!result.warnings.contains { $0.message.contains("image") || $0.message.contains("picture") }, "\(result.warnings)")
    }

    @Test func aMoodleImageWithoutAltGetsTheFallbackNeverItsFileName() throws {
        let result = try readMoodleXML(moodleQuiz(Self.moodleQuestion(alt: #"alt="" role="presentation""#)))
        #expect(moodleXMLQuestions(result.bank).first?.picture?.alt == QuestionPicture.fallbackAlt)
    }

    @Test func aClozeWithAPictureKeepsItThroughMoodleXML() throws {
        let cloze = Self.moodleQuestion(alt: #"alt="Rings""#)
            .replacing(#"type="shortanswer""#, with: #"type="cloze""#)
            .replacing("<p>Which planet is this?</p>", with: "<p>Name it.</p><p>It is {1:SHORTANSWER:=Saturn~%50%a gas giant}.</p>")
        let read = try readMoodleXML(moodleQuiz(cloze))
        let question = try #require(moodleXMLQuestions(read.bank).first)
        #expect(question.kind == .gapFill && question.picture?.data == Self.png)
        let written = MoodleXMLWriter().write(read.bank)
        #expect(try readMoodleXML(written.text).bank == read.bank)
    }

    @Test func aMoodleXMLFileWithAPictureRoundTrips() throws {
        let read = try readMoodleXML(moodleQuiz(Self.moodleQuestion(alt: #"alt="Rings""#)))
        let written = try #require(BankFormat.moodleXML.write(read.bank))
        #expect(written.skipped.isEmpty)
        let text = String(decoding: written.data, as: UTF8.self)
        #expect(text.contains(#"<img src="@@PLUGINFILE@@/picture.png" alt="Rings" width="8" height="6">"#))
        #expect(text.contains(#"<file name="picture.png" path="/" encoding="base64">"#))
        let again = try MoodleXMLReader().read(written.data)
        #expect(moodleXMLQuestions(again.bank) == moodleXMLQuestions(read.bank))
    }

    @Test func theBundleCarriesPicturesAndRefusesOnesThatAreNot() throws {
        let picture = try QuestionPicture.carried(Self.png, alt: "Rings").get()
        let question = Question(text: "Which planet is this?", body: .typedAnswer(["Saturn"]), picture: picture)
        let data = BundleCodec().write(bank(question))
        #expect(try BundleCodec().read(data).subjects.first?.topics.first?.questions == [question])

        let svg = Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8).base64EncodedString()
        let bad = String(decoding: data, as: UTF8.self).replacingOccurrences(of: Self.png.base64EncodedString(), with: svg)
        #expect(throws: ImportError.self) { try BundleCodec().read(Data(bad.utf8)) }
    }

    @Test func formatsWithoutPicturesListTheQuestionsThatLostOne() throws {
        let picture = try QuestionPicture.carried(Self.png, alt: "Rings").get()
        let question = Question(text: "Which planet is this?", body: .typedAnswer(["Saturn"]), picture: picture)
        for format in [BankFormat.csv, .gift, .aiken] {
            let written = try #require(format.write(bank(question)))
            #expect(written.skipped.contains { $0.message.contains("picture was left out") && $0.question == question.text }, "\(format)")
        }
        #expect(BankFormat.bundle.write(bank(question))?.skipped.isEmpty == true)
    }
}
