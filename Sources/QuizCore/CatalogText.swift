import Foundation

/// The rules for what authors type as a subject's, topic's or quiz's name and description.
public enum CatalogText {
    public static let maxNameLength = 200
    public static let maxDescriptionLength = 2_000

    /// Every broken rule; `nameField` is "name" for subjects and topics, "title" for quizzes.
    /// A nil value is one left as it was, so it is not checked.
    public static func validationErrors(name: String?, description: String?, nameField: String = "name") -> [Question.ValidationError] {
        var errors: [Question.ValidationError] = []
        if let name { check(name: name, field: nameField, into: &errors) }
        if let description, description.count > maxDescriptionLength {
            errors.append(.init(field: "description", message: "is longer than \(maxDescriptionLength) characters"))
        }
        return errors
    }

    private static func check(name: String, field nameField: String, into errors: inout [Question.ValidationError]) {
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            errors.append(.init(field: nameField, message: "is empty"))
        } else if name.count > maxNameLength {
            errors.append(.init(field: nameField, message: "is longer than \(maxNameLength) characters"))
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            errors.append(.init(field: nameField, message: "must not contain control characters"))
        }
    }
}
