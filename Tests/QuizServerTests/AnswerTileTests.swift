import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
@testable import QuizServer
import Testing

/// The quiz pages' answer tiles look like the live game's: the same colour and shape for the same
/// choice, whatever order the choices are shown in, with keys 1–9.
@Suite struct AnswerTileTests {
    @Test func theShapesAreTheLiveGamesShapes() throws {
        let script = String(decoding: try #require(StaticFile.all["live-common.js"]).data.readableBytesView, as: UTF8.self)
        let regex = /\['([a-z]+)', '([^']+)'\]/
        let live = script.matches(of: regex).map { (String($0.output.1), String($0.output.2)) }
        #expect(live.count == QuestionFragments.AnswerLook.shapes.count)
        for (mine, theirs) in zip(QuestionFragments.AnswerLook.shapes, live) {
            #expect(mine == theirs)
        }
        #expect(script.contains("const TRUE_VARIANT = \(QuestionFragments.AnswerLook.trueVariant);"))
        #expect(script.contains("const FALSE_VARIANT = \(QuestionFragments.AnswerLook.falseVariant);"))
    }

    @Test func aChoiceKeepsItsLookWhereverItIsShown() throws {
        let choices = [Choice(id: 3, text: "Paris", isCorrect: true), Choice(id: 1, text: "Rome", isCorrect: false),
                       Choice(id: 2, text: "Oslo", isCorrect: false)]
        let question = Question(id: 7, text: "Capital of France?", body: .singleChoice(choices))
        let fields = QuestionFragments.Fields(question)
        #expect(fields.choices.map(\.text) == ["Paris", "Rome", "Oslo"], "shown in the question's order")
        #expect(fields.choices.map(\.variant) == [2, 0, 1], "looks by the ids' order: Rome (1) is the first look")
        #expect(fields.choices.map(\.shape) == ["circle", "triangle", "diamond"])
        #expect(fields.choices.map(\.key) == ["1", "2", "3"], "keys by place on the page")
        let truth = QuestionFragments.Fields(Question(id: 8, text: "Paris is in France.", body: .trueFalse(true)))
        #expect(truth.truth?.shape == "diamond" && truth.falsehood?.shape == "triangle" && truth.twoTiles == true)
    }
}

/// "Add to Home Screen" gives an icon: every page names the icon and the manifest, which the
/// page's own policy lets the browser fetch, and both are served.
@Suite struct HomeScreenIconTests {
    @Test func pagesNameAnIconAndAManifestThatAreServed() async throws {
        try await withApp { client, _ in
            let page = try await client.call(.get, "/login")
            let html = page.raw
            #expect(html.contains(#"<link rel="manifest" href="/static/manifest.webmanifest">"#))
            #expect(html.contains(#"<link rel="apple-touch-icon" href="/static/icon-180.png">"#))
            #expect(page.headers[.contentSecurityPolicy]?.contains("manifest-src 'self'") == true)
            let manifest = try await client.call(.get, "/static/manifest.webmanifest")
            #expect(manifest.status == .ok && manifest.headers[.contentType] == "application/manifest+json")
            let icons = try #require(manifest["icons"] as? [[String: Any]])
            for icon in icons {
                let file = try await client.call(.get, try #require(icon["src"] as? String))
                #expect(file.status == .ok, "\(icon)")
                #expect(file.headers[.contentType] == icon["type"] as? String)
            }
            let favicon = try await client.call(.get, "/favicon.ico")
            #expect(favicon.status == .ok && favicon.headers[.contentType] == "image/png")
        }
    }
}
