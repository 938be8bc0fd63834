import Foundation

/// Files uploaded on the manage page, kept between the preview and the "Import" click: a browser
/// cannot send the chosen file again without the author choosing it again. Each upload belongs to
/// one user and is kept for `lifetime`; all of them together are bounded by `maxTotalBytes`, the
/// oldest going first. In memory only: a restart just means choosing the file again.
actor ImportUploads {
    struct Upload: Sendable {
        var userId: Int64
        var fileName: String
        var data: Data
        var keptAt: Date
    }

    static let lifetime: TimeInterval = 30 * 60
    static let maxTotalBytes = 64 << 20

    private var uploads: [String: Upload] = [:]

    /// Keeps the file and returns the token the confirm form sends back. A user's earlier upload
    /// is dropped: only the last preview can be confirmed.
    func keep(_ data: Data, fileName: String, userId: Int64, now: Date) -> String {
        uploads = uploads.filter { $0.value.userId != userId && now.timeIntervalSince($0.value.keptAt) < Self.lifetime }
        var total = uploads.values.reduce(data.count) { $0 + $1.data.count }
        for (token, upload) in uploads.sorted(by: { $0.value.keptAt < $1.value.keptAt }) where total > Self.maxTotalBytes {
            uploads[token] = nil
            total -= upload.data.count
        }
        let token = SessionTokens.make()
        uploads[token] = Upload(userId: userId, fileName: fileName, data: data, keptAt: now)
        return token
    }

    /// The user's upload, while it is kept.
    func upload(_ token: String, userId: Int64, now: Date) -> Upload? {
        guard let upload = uploads[token], upload.userId == userId else { return nil }
        guard now.timeIntervalSince(upload.keptAt) < Self.lifetime else {
            uploads[token] = nil
            return nil
        }
        return upload
    }

    func remove(_ token: String) {
        uploads[token] = nil
    }
}
