import Foundation
import QuizCore

/// A subject's or quiz's cover when it has no picture: one of eight colours and four patterns
/// picked from its name (the same name, the same cover, on every page and instance) and its
/// initial. Drawn by CSS classes: the pages' Content-Security-Policy allows no inline style, and
/// no picture service is asked.
struct CoverArt: Equatable {
    static let colours = 8
    static let patterns = 4

    var colour: Int
    var pattern: Int
    var initial: String

    init(_ name: String) {
        // FNV-1a: stable across runs and machines, unlike `hashValue`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.lowercased().utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        // Names that differ in their last letter differ in the low bits only: mix them through.
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        colour = Int(hash % UInt64(Self.colours))
        pattern = Int((hash >> 32) % UInt64(Self.patterns))
        initial = name.trimmingCharacters(in: .whitespacesAndNewlines).first.map { String($0).uppercased() } ?? "?"
    }

    var classes: String { "cover cover-c\(colour) cover-p\(pattern)" }
}

/// How a tile shows its cover: its picture when it has one, else the one drawn from its name.
/// Flat, distinct names: a template section falls through to its parent for a missing key.
struct CoverView: Encodable {
    var coverPictureUrl: String?
    var coverPictureWidth: Int?
    var coverPictureHeight: Int?
    var coverClasses: String
    var coverInitial: String

    init(name: String, picture: CoverPicture?) {
        let art = CoverArt(name)
        coverPictureUrl = picture?.url
        coverPictureWidth = picture?.width
        coverPictureHeight = picture?.height
        coverClasses = art.classes
        coverInitial = art.initial
    }
}
