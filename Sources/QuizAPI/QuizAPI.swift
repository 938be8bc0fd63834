import Foundation

/// The OpenAPI document the generated code in this module comes from.
public enum QuizAPISpec {
    /// The YAML text of `openapi.yaml`, as shipped in this module's resources.
    public static let yaml: Data? = Bundle.module.url(forResource: "openapi", withExtension: "yaml")
        .flatMap { try? Data(contentsOf: $0) }
}
