import HTTPTypes
import Hummingbird

extension Request {
    /// One cookie's value, found by scanning the Cookie headers. `request.cookies` parses every
    /// cookie with its attributes on each access, which showed up in the question page's profile.
    func cookie(_ name: String) -> String? {
        for header in headers[values: .cookie] {
            if let value = Self.cookie(name, in: header) { return value }
        }
        return nil
    }

    static func cookie(_ name: String, in header: String) -> String? {
        let bytes = Array(header.utf8)
        let wanted = Array(name.utf8)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: ";") { end += 1 }
            var nameStart = start
            while nameStart < end && bytes[nameStart] == UInt8(ascii: " ") { nameStart += 1 }
            let nameEnd = nameStart + wanted.count
            if nameEnd < end, bytes[nameEnd] == UInt8(ascii: "="), bytes[nameStart..<nameEnd].elementsEqual(wanted) {
                var valueEnd = end
                while valueEnd > nameEnd + 1 && bytes[valueEnd - 1] == UInt8(ascii: " ") { valueEnd -= 1 }
                return String(decoding: bytes[(nameEnd + 1)..<valueEnd], as: UTF8.self)
            }
            start = end + 1
        }
        return nil
    }
}
