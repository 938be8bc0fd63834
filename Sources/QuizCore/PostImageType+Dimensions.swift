import Foundation

extension PostImageType {
    /// Width and height in pixels as the image's header states them; nil when the header is cut
    /// short or malformed. Reads only headers, never decodes pixels.
    public static func dimensions(of data: Data) -> (width: Int, height: Int)? {
        guard let type = sniff(data.prefix(16)) else { return nil }
        // A JPEG's frame header may come after long metadata (EXIF, ICC profile): walk it all.
        let bytes = [UInt8](type == .jpeg ? data.prefix(maxBytes) : data.prefix(64 << 10))
        let size: (Int, Int)? = switch type {
        case .png: pngSize(bytes)
        case .jpeg: jpegSize(bytes)
        case .webp: webpSize(bytes)
        }
        guard let size, size.0 > 0, size.1 > 0 else { return nil }
        return (size.0, size.1)
    }

    /// Whether a picture of `size` is within `maxPixels`; a product past `Int` is not.
    public static func isWithinPixelLimit(_ size: (width: Int, height: Int)) -> Bool {
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        return !overflow && pixels <= maxPixels
    }

    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func le24(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 }

    /// The IHDR chunk comes first: width and height big-endian at bytes 16 and 20.
    private static func pngSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        let width = be16(b, 16) << 16 | be16(b, 18), height = be16(b, 20) << 16 | be16(b, 22)
        return (width, height)
    }

    /// Walks the markers to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC).
    private static func jpegSize(_ b: [UInt8]) -> (Int, Int)? {
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if (0xD0...0xD9).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = be16(b, i + 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (be16(b, i + 7), be16(b, i + 5))
            }
            i += 2 + length
        }
        return nil
    }

    /// VP8 (lossy), VP8L (lossless) and VP8X (extended) each keep the size in their own way.
    private static func webpSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 30 else { return nil }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return (le16(b, 26) & 0x3FFF, le16(b, 28) & 0x3FFF)
        case "VP8L":
            guard b[20] == 0x2F else { return nil }
            let bits = UInt32(b[21]) | UInt32(b[22]) << 8 | UInt32(b[23]) << 16 | UInt32(b[24]) << 24
            return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            return (le24(b, 24) + 1, le24(b, 27) + 1)
        default:
            return nil
        }
    }
}
