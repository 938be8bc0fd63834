import Foundation
import QuizCore
import QuizFormats
import QuizTestSupport
import Testing

/// Sound clips through the formats: Moodle XML reads a clip its editor embedded (an `<audio>`
/// with a `<source>`, or a link the media filter plays) and writes one back the same way, the
/// bundle carries it, and the other formats list the questions whose clip they left out.
@Suite struct QuestionSoundFormatTests {
    static let wav = SoundBytes.wav(seconds: 0.5)

    static func moodleQuestion(media: String, fileName: String = "queen song.wav", data: Data = wav) -> String {
        """
          <question type="shortanswer">
            <name><text>Song</text></name>
            <questiontext format="html">
              <text><![CDATA[<p>Name the band.</p>\(media)]]></text>
              <file name="\(fileName)" path="/" encoding="base64">\(data.base64EncodedString())</file>
            </questiontext>
            <answer fraction="100"><text>Queen</text></answer>
          </question>

        """
    }

    func bank(_ question: Question) -> Bank {
        Bank(subjects: [BankSubject(name: "Music", topics: [BankTopic(name: "Bands", questions: [question])])])
    }

    @Test func moodleXMLReadsAClipAsItsEditorWritesItWithoutItsAddressInTheText() throws {
        // Atto's media plugin: the address again as the fallback content.
        let atto = #"<p><audio controls="true" title="A piano and a choir"><source src="@@PLUGINFILE@@/queen%20song.wav">@@PLUGINFILE@@/queen%20song.wav</audio></p>"#
        let result = try readMoodleXML(moodleQuiz(Self.moodleQuestion(media: atto)))
        let question = try #require(moodleXMLQuestions(result.bank).first)
        #expect(question.text == "Name the band.")
        let audio = try #require(question.audio)
        #expect(audio.type == .wav && audio.data == Self.wav && abs(audio.seconds - 0.5) < 0.01)
        #expect(audio.description == "A piano and a choir")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    @Test func aLinkedClipIsReadWithTheFallbackDescriptionNeverItsFileName() throws {
        let link = #"<p><a href="@@PLUGINFILE@@/queen%20song.wav">queen song.wav</a></p>"#
        let question = try #require(moodleXMLQuestions(try readMoodleXML(moodleQuiz(Self.moodleQuestion(media: link))).bank).first)
        #expect(question.audio?.description == QuestionAudio.fallbackDescription)
        #expect(question.audio?.data == Self.wav)
    }

    @Test func aDamagedClipIsLeftOutWithAWarningNamingIt() throws {
        let cut = Data(Self.wav.prefix(20))
        let media = #"<p><audio controls="true"><source src="@@PLUGINFILE@@/queen%20song.wav"></audio></p>"#
        let result = try readMoodleXML(moodleQuiz(Self.moodleQuestion(media: media, data: cut)))
        #expect(moodleXMLQuestions(result.bank).first?.audio == nil)
        #expect(result.warnings.contains { $0.message.contains("the sound clip queen song.wav looks like WAV but its headers are cut short or damaged") },
                "\(result.warnings)")
    }

    @Test func aMoodleXMLFileWithAClipRoundTrips() throws {
        let media = #"<p><audio controls="true" title="Piano &amp; choir"><source src="@@PLUGINFILE@@/queen%20song.wav"></audio></p>"#
        let read = try readMoodleXML(moodleQuiz(Self.moodleQuestion(media: media)))
        #expect(moodleXMLQuestions(read.bank).first?.audio?.description == "Piano & choir")
        let written = try #require(BankFormat.moodleXML.write(read.bank))
        #expect(written.skipped.isEmpty)
        let text = String(decoding: written.data, as: UTF8.self)
        #expect(text.contains(#"<audio controls="true" title="Piano &amp; choir"><source src="@@PLUGINFILE@@/sound.wav"></audio>"#))
        #expect(text.contains(#"<file name="sound.wav" path="/" encoding="base64">"#))
        let again = try MoodleXMLReader().read(written.data)
        #expect(moodleXMLQuestions(again.bank) == moodleXMLQuestions(read.bank))
    }

    @Test func theBundleCarriesClipsAndRefusesOnesThatAreNot() throws {
        let audio = try QuestionAudio.carried(Self.wav, description: "A piano and a choir").get()
        let question = Question(text: "Name the band.", body: .typedAnswer(["Queen"]), audio: audio)
        let data = BundleCodec().write(bank(question))
        #expect(try BundleCodec().read(data).subjects.first?.topics.first?.questions == [question])

        let notSound = Data("<html>not a clip</html>".utf8).base64EncodedString()
        let bad = String(decoding: data, as: UTF8.self).replacingOccurrences(of: Self.wav.base64EncodedString(), with: notSound)
        #expect(throws: ImportError.self) { try BundleCodec().read(Data(bad.utf8)) }
    }

    @Test func formatsWithoutClipsListTheQuestionsThatLostOne() throws {
        let audio = try QuestionAudio.carried(Self.wav, description: "A piano").get()
        let question = Question(text: "Name the band.", body: .typedAnswer(["Queen"]), audio: audio)
        for format in [BankFormat.csv, .gift, .aiken] {
            let written = try #require(format.write(bank(question)))
            #expect(written.skipped.contains { $0.message.contains("sound clip was left out") && $0.question == question.text }, "\(format)")
        }
        #expect(BankFormat.bundle.write(bank(question))?.skipped.isEmpty == true)
    }
}
