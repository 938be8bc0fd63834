/// One broken rule of a form: `field` names it as the API and the form do (a path such as
/// "choices[2].text" for a question), `message` says what is wrong. Questions, practice settings,
/// registrations and assignments report their rules as these, so every adapter shows them alike.
public struct FieldError: Error, Sendable, Hashable, CustomStringConvertible {
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}
