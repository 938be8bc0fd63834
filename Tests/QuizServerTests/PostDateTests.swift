import Foundation
@testable import QuizServer
import QuizStore
import Testing

@Suite struct PostDateTests {
    @Test func datesAreWrittenInUTCByArithmetic() {
        func check(_ seconds: TimeInterval) -> [String] {
            let date = SocialPages.postDate(Date(timeIntervalSince1970: seconds))
            return [date.shown, date.iso]
        }
        #expect(check(0) == ["1 Jan 1970, 00:00 UTC", "1970-01-01T00:00:00Z"])
        #expect(check(1_800_000_000) == ["15 Jan 2027, 08:00 UTC", "2027-01-15T08:00:00Z"])
        #expect(check(951_782_400 + 3_661) == ["29 Feb 2000, 01:01 UTC", "2000-02-29T01:01:01Z"])
        #expect(check(-1) == ["31 Dec 1969, 23:59 UTC", "1969-12-31T23:59:59Z"])
    }
}
