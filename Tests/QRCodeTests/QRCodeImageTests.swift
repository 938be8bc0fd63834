import Foundation
import Testing

import QRCode

/// The SVG and PBM as text; that they read back as the right code is in QRCodeTests.
@Suite struct QRCodeImageTests {
    static let joinURL = QRCodeTests.joinURL

    @Test func svgIsOnePathOfMergedRunsOverAWhiteSquare() throws {
        let code = try QRCode(text: Self.joinURL)
        let svg = code.svg(title: nil)
        let side = code.size + 8
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="\#(side * 8)" height="\#(side * 8)""#))
        #expect(svg.contains(#"viewBox="0 0 \#(side) \#(side)""#))
        #expect(svg.contains(#"shape-rendering="crispEdges""#))
        #expect(svg.contains(##"<rect width="\##(side)" height="\##(side)" fill="#fff"/>"##))
        #expect(!svg.contains("role=") && !svg.contains("<title>"))
        // Nothing a strict Content-Security-Policy would block, nothing fetched.
        for forbidden in ["style", "script", "href", "url(", "<image", "<foreignObject"] {
            #expect(!svg.contains(forbidden), "\(forbidden)")
        }
        #expect(svg.components(separatedBy: "<path").count == 2)

        // Each subpath is one run: together they cover exactly the dark modules, none twice.
        let d = try #require(svg.firstRange(of: #"d=""#).map { svg[$0.upperBound...].prefix { $0 != "\"" } })
        var covered = Set<[Int]>()
        var subpaths = 0
        for subpath in d.split(separator: "z") {
            let numbers = subpath.split(whereSeparator: { "Mhv ".contains($0) }).compactMap { Int($0) }
            try #require(numbers.count == 5 && numbers[2] == -numbers[4] && numbers[3] == 1, "\(subpath)")
            for x in numbers[0]..<numbers[0] + numbers[2] {
                #expect(covered.insert([x - 4, numbers[1] - 4]).inserted)
            }
            subpaths += 1
        }
        let dark = (0..<code.size).flatMap { y in (0..<code.size).filter { code[$0, y] }.map { [$0, y] } }
        #expect(covered == Set(dark))
        let runs = (0..<code.size).reduce(0) { count, y in
            count + (0..<code.size).filter { code[$0, y] && !code[$0 - 1, y] }.count
        }
        #expect(subpaths == runs)
    }

    @Test func svgTitleIsEscapedAndNamesTheImage() throws {
        let code = try QRCode(text: Self.joinURL)
        let svg = code.svg(moduleSize: 2, quietZone: 0, title: "Join <Quiz> & \"win\"\u{7}")
        let escaped = "Join &lt;Quiz&gt; &amp; &quot;win&quot;"
        #expect(svg.contains(#"role="img" aria-label="\#(escaped)"><title>\#(escaped)</title>"#))
        #expect(svg.contains(#"width="\#(code.size * 2)" height="\#(code.size * 2)" viewBox="0 0 \#(code.size) \#(code.size)""#))
    }

    @Test func pbmHasItsHeaderAndShortLines() throws {
        let code = try QRCode(text: Self.joinURL)
        let pbm = code.pbm(moduleSize: 3, quietZone: 4)
        let lines = pbm.split(separator: "\n")
        let side = (code.size + 8) * 3
        #expect(lines.prefix(2) == ["P1", "\(side) \(side)"])
        #expect(lines.dropFirst(2).allSatisfy { $0.count <= 70 && $0.allSatisfy { $0 == "0" || $0 == "1" } })
        #expect(lines.dropFirst(2).joined().count == side * side)
    }
}
