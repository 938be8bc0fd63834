// The code as images: SVG for pages, PBM for tools and tests.

extension QRCode {
    /// A standalone SVG: a white square, then one black path holding each horizontal run of dark
    /// modules as a rectangle. The `viewBox` counts modules, so it scales sharply to any size;
    /// `width` and `height` give `moduleSize` pixels a module.
    ///
    /// Colours are `fill` attributes, not styles, and there is no script or external reference, so
    /// it may be inlined under a strict Content-Security-Policy. With a `title`, the image is
    /// announced by screen readers as that title.
    ///
    /// - Parameter quietZone: the light margin in modules; the standard asks for at least 4.
    public func svg(moduleSize: Int = 8, quietZone: Int = 4, title: String?) -> String {
        precondition(moduleSize > 0 && quietZone >= 0, "moduleSize must be positive, quietZone not negative")
        let side = size + 2 * quietZone
        let pixels = side * moduleSize
        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(pixels)" height="\#(pixels)""#
        svg += #" viewBox="0 0 \#(side) \#(side)" shape-rendering="crispEdges""#
        if let title {
            let escaped = Self.xmlEscaped(title)
            svg += #" role="img" aria-label="\#(escaped)"><title>\#(escaped)</title>"#
        } else {
            svg += ">"
        }
        svg += ##"<rect width="\##(side)" height="\##(side)" fill="#fff"/><path fill="#000" d=""##
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else {
                    x += 1
                    continue
                }
                let start = x
                while x < size && self[x, y] { x += 1 }
                let width = x - start
                svg += "M\(start + quietZone) \(y + quietZone)h\(width)v1h-\(width)z"
            }
        }
        svg += #""/></svg>"#
        return svg
    }

    /// A plain PBM (P1) image, 1 for dark, `moduleSize` pixels a module and `quietZone` light
    /// modules around; rows are wrapped at 70 characters as the format asks.
    public func pbm(moduleSize: Int = 1, quietZone: Int = 4) -> String {
        precondition(moduleSize > 0 && quietZone >= 0, "moduleSize must be positive, quietZone not negative")
        let pixels = (size + 2 * quietZone) * moduleSize
        var image = "P1\n\(pixels) \(pixels)\n"
        image.reserveCapacity(image.utf8.count + pixels * (pixels + pixels / 70 + 1))
        for row in 0..<pixels {
            let y = row / moduleSize - quietZone
            for column in 0..<pixels {
                image += self[column / moduleSize - quietZone, y] ? "1" : "0"
                if (column + 1) % 70 == 0 && column + 1 < pixels { image += "\n" }
            }
            image += "\n"
        }
        return image
    }

    /// Text safe inside an attribute or an element. Characters XML 1.0 forbids (most controls)
    /// are dropped: one would make the whole SVG unreadable.
    static func xmlEscaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": continue
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
