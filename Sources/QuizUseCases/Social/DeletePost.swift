import Foundation
import QuizCore
import QuizStore

/// Deleting a post: only its author may; its picture's file goes when no other post shows it.
package struct DeletePost: Sendable {
    package enum Failure: Error, Equatable {
        case notFound
        /// Someone else's post.
        case notYours
    }

    let store: any SocialStore
    let images: ImageFiles

    package init(store: any SocialStore, images: ImageFiles) {
        self.store = store
        self.images = images
    }

    package func callAsFunction(postId: Int64, userId: Int64) async throws {
        do {
            if let unused = try await store.deletePost(id: postId, userId: userId) { images.remove(unused) }
        } catch StoreError.notFound {
            throw Failure.notFound
        } catch SocialError.forbidden {
            throw Failure.notYours
        }
    }
}
