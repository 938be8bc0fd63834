import Foundation
import QuizCore

/// A Moodle question's picture: the first `<img src="@@PLUGINFILE@@/name">` of the question text
/// whose `<file name="name" encoding="base64">` is embedded in the `<questiontext>`. Its alt text
/// is the tag's `alt`, else `QuestionPicture.fallbackAlt`.
enum MoodleXMLPicture {
    static let pluginFile = "@@PLUGINFILE@@/"

    /// An `<img>` tag's `src` and `alt`, in the order they appear in the HTML.
    struct ImageTag: Equatable {
        var src: String
        var alt: String
    }

    /// What reading found: the picture, or why an embedded image could not be one.
    struct Found {
        var picture: QuestionPicture?
        var refusals: [String] = []
        /// `<img>` tags in the question text.
        var tagCount = 0
    }

    static func read(_ questionText: MoodleXMLElement?) -> Found {
        guard let holder = questionText else { return Found() }
        let raw = holder.child("text")?.text ?? holder.text
        let tags = imageTags(in: raw)
        var found = Found(tagCount: tags.count)
        for tag in tags {
            guard let (decodedName, data) = embeddedFile(tag.src, in: holder) else { continue }
            guard let data else {
                found.refusals.append("the picture \(decodedName) is not valid base64")
                continue
            }
            let alt = MoodleXMLText.html(tag.alt, newlinesBreakLines: false).text
            switch QuestionPicture.carried(data, alt: alt.isEmpty ? QuestionPicture.fallbackAlt : alt) {
            case .success(let picture):
                found.picture = picture
                return found
            case .failure(let refusal):
                found.refusals.append("the picture \(decodedName) \(refusal.message)")
            }
        }
        return found
    }

    /// The file of the `<questiontext>` that `src` names as `@@PLUGINFILE@@/name` (the name as
    /// written or percent-decoded), embedded in base64: its decoded name and bytes (nil bytes when
    /// they are not base64); nil when `src` names no such file.
    static func embeddedFile(_ src: String, in holder: MoodleXMLElement) -> (name: String, data: Data?)? {
        guard src.hasPrefix(pluginFile) else { return nil }
        let name = String(src.dropFirst(pluginFile.count))
        let decodedName = name.removingPercentEncoding ?? name
        guard let file = holder.children("file").first(where: { $0.attributes["name"] == decodedName || $0.attributes["name"] == name }),
              (file.attributes["encoding"] ?? "base64").lowercased() == "base64" else { return nil }
        return (decodedName, Data(base64Encoded: file.text, options: .ignoreUnknownCharacters))
    }

    /// Every `<img …>` tag's `src` and `alt` (quoted with " or ', or bare), entities left as written.
    /// Linear in the text's length.
    static func imageTags(in html: String) -> [ImageTag] {
        tags("<img", in: html).map { ImageTag(src: attribute("src", in: $0) ?? "", alt: attribute("alt", in: $0) ?? "") }
    }

    /// The insides of every tag named as `opening` says (such as `<img`, any case), in order. One
    /// pass over the bytes: a text of 20,000 `<a` costs its length, not its length squared.
    static func tags(_ opening: String, in html: String) -> [String] {
        let bytes = Array(html.utf8)
        let name = Array(opening.utf8.dropFirst()).map(lowercased)
        var found: [String] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<") else { i += 1; continue }
            var j = i + 1, matched = 0
            while matched < name.count, j < bytes.count, lowercased(bytes[j]) == name[matched] { j += 1; matched += 1 }
            // The name ends at a space, "/" or ">": "<a" is not "<abbr".
            guard matched == name.count, j < bytes.count, isSpace(bytes[j]) || bytes[j] == UInt8(ascii: "/") || bytes[j] == UInt8(ascii: ">") else {
                i += 1
                continue
            }
            guard let end = bytes[j...].firstIndex(of: UInt8(ascii: ">")) else { break }
            found.append(String(decoding: bytes[j..<end], as: UTF8.self))
            i = end + 1
        }
        return found
    }

    /// A tag's attribute value (quoted with " or ', or bare), entities left as written; one pass.
    static func attribute(_ name: String, in tag: String) -> String? {
        let b = Array(tag.utf8), wanted = Array(name.utf8).map(lowercased)
        var i = 0
        while i + wanted.count <= b.count {
            defer { i += 1 }
            guard i == 0 || isSpace(b[i - 1]), (0..<wanted.count).allSatisfy({ lowercased(b[i + $0]) == wanted[$0] }) else { continue }
            var j = i + wanted.count
            while j < b.count, b[j] == UInt8(ascii: " ") { j += 1 }
            guard j < b.count, b[j] == UInt8(ascii: "=") else { continue }
            j += 1
            while j < b.count, b[j] == UInt8(ascii: " ") { j += 1 }
            if j < b.count, b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") {
                let end = b[(j + 1)...].firstIndex(of: b[j]) ?? b.count
                return String(decoding: b[(j + 1)..<end], as: UTF8.self)
            }
            var end = j
            while end < b.count, !isSpace(b[end]), b[end] != UInt8(ascii: "/") { end += 1 }
            return String(decoding: b[j..<end], as: UTF8.self)
        }
        return nil
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}

/// A Moodle question's sound clip: the first file of the question text that an `<audio src>`,
/// an `<audio>`'s `<source src>` or a link (Moodle's media filter plays linked clips) names as
/// `@@PLUGINFILE@@/name`, embedded in the `<questiontext>`, whose bytes are a clip Quizbox plays.
/// Its description is the `<audio>`'s `title`, else `QuestionAudio.fallbackDescription`.
enum MoodleXMLSound {
    struct Found {
        var audio: QuestionAudio?
        var refusals: [String] = []
    }

    static func read(_ questionText: MoodleXMLElement?) -> Found {
        guard let holder = questionText else { return Found() }
        let raw = holder.child("text")?.text ?? holder.text
        let audioTags = MoodleXMLPicture.tags("<audio", in: raw)
        let title = audioTags.lazy.compactMap { MoodleXMLPicture.attribute("title", in: $0) }.first
        let sources = audioTags.compactMap { MoodleXMLPicture.attribute("src", in: $0) }
            + MoodleXMLPicture.tags("<source", in: raw).compactMap { MoodleXMLPicture.attribute("src", in: $0) }
            + MoodleXMLPicture.tags("<a", in: raw).compactMap { MoodleXMLPicture.attribute("href", in: $0) }
        var found = Found()
        for src in sources {
            guard let (decodedName, bytes) = MoodleXMLPicture.embeddedFile(src, in: holder), let data = bytes else { continue }
            let description = title.map { MoodleXMLText.html($0, newlinesBreakLines: false).text } ?? ""
            switch QuestionAudio.carried(data, description: description.isEmpty ? QuestionAudio.fallbackDescription : description) {
            case .success(let audio):
                found.audio = audio
                return found
            case .failure(.notAudio):
                continue  // a link to some other file
            case .failure(let refusal):
                found.refusals.append("the sound clip \(decodedName) \(refusal.message)")
            }
        }
        return found
    }
}
