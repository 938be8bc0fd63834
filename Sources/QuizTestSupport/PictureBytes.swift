import Foundation

/// Headers of each kind, built byte by byte: only the header is read, never the pixels.
public enum PictureBytes {
    public static func png(width: Int, height: Int) -> Data {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + be32(width) + be32(height)
                    + [8, 6, 0, 0, 0] + [0, 0, 0, 0])
    }

    /// SOI, an APP0 segment to skip, then a baseline frame header.
    public static func jpeg(width: Int, height: Int) -> Data {
        Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
             + [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3]
             + [UInt8](repeating: 0, count: 9))
    }

    public static func webpLossless(width: Int, height: Int) -> Data {
        let bits = UInt32(width - 1) | UInt32(height - 1) << 14
        return Data(Array("RIFF".utf8) + [30, 0, 0, 0] + Array("WEBPVP8L".utf8) + [10, 0, 0, 0, 0x2F]
                    + [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24 & 0xFF)] + [0, 0, 0, 0, 0])
    }

    public static func webpExtended(width: Int, height: Int) -> Data {
        func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
        return Data(Array("RIFF".utf8) + [30, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
                    + le24(width - 1) + le24(height - 1))
    }
}
