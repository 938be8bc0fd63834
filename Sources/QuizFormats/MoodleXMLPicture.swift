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
        let files = holder.children("file")
        for tag in tags where tag.src.hasPrefix(pluginFile) {
            let name = String(tag.src.dropFirst(pluginFile.count))
            let decodedName = name.removingPercentEncoding ?? name
            guard let file = files.first(where: { $0.attributes["name"] == decodedName || $0.attributes["name"] == name }),
                  (file.attributes["encoding"] ?? "base64").lowercased() == "base64" else { continue }
            guard let data = Data(base64Encoded: file.text, options: .ignoreUnknownCharacters) else {
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

    /// Every `<img …>` tag's `src` and `alt` (quoted with " or ', or bare), entities left as written.
    /// Linear in the text's length.
    static func imageTags(in html: String) -> [ImageTag] {
        tags("<img", in: html).map { ImageTag(src: attribute("src", in: $0) ?? "", alt: attribute("alt", in: $0) ?? "") }
    }

    /// The insides of every tag starting with `opening` (such as `<img`), in order.
    static func tags(_ opening: String, in html: String) -> [Substring] {
        var tags: [Substring] = []
        var rest = html[...]
        while let start = rest.range(of: opening, options: .caseInsensitive) {
            guard let end = rest[start.upperBound...].firstIndex(of: ">") else { break }
            let inside = rest[start.upperBound..<end]
            // "<a" also starts "<abbr": a tag's name ends at a space or the end.
            if inside.first.map({ $0.isWhitespace || $0 == "/" }) ?? true { tags.append(inside) }
            rest = rest[rest.index(after: end)...]
        }
        return tags
    }

    static func attribute(_ name: String, in tag: Substring) -> String? {
        var rest = tag
        while let found = rest.range(of: name, options: .caseInsensitive) {
            let before = found.lowerBound == rest.startIndex ? " " : rest[rest.index(before: found.lowerBound)]
            var after = rest[found.upperBound...].drop { $0 == " " }
            rest = rest[found.upperBound...]
            guard before.isWhitespace, after.first == "=" else { continue }
            after = after.dropFirst().drop { $0 == " " }
            if let quote = after.first, quote == "\"" || quote == "'" {
                let value = after.dropFirst().prefix { $0 != quote }
                return String(value)
            }
            return String(after.prefix { !$0.isWhitespace && $0 != "/" })
        }
        return nil
    }
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
        let title = MoodleXMLPicture.tags("<audio", in: raw).lazy.compactMap { MoodleXMLPicture.attribute("title", in: $0) }.first
        let sources = MoodleXMLPicture.tags("<audio", in: raw).compactMap { MoodleXMLPicture.attribute("src", in: $0) }
            + MoodleXMLPicture.tags("<source", in: raw).compactMap { MoodleXMLPicture.attribute("src", in: $0) }
            + MoodleXMLPicture.tags("<a", in: raw).compactMap { MoodleXMLPicture.attribute("href", in: $0) }
        var found = Found()
        let files = holder.children("file")
        for src in sources where src.hasPrefix(MoodleXMLPicture.pluginFile) {
            let name = String(src.dropFirst(MoodleXMLPicture.pluginFile.count))
            let decodedName = name.removingPercentEncoding ?? name
            guard let file = files.first(where: { $0.attributes["name"] == decodedName || $0.attributes["name"] == name }),
                  (file.attributes["encoding"] ?? "base64").lowercased() == "base64",
                  let data = Data(base64Encoded: file.text, options: .ignoreUnknownCharacters) else { continue }
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
