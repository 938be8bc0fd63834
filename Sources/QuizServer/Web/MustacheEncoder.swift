import Foundation

/// Turns a typed page model (any `Encodable` struct) into the dictionaries, arrays, strings,
/// numbers and booleans Mustache renders. Pages are written against typed models; this is the one
/// place that knows Mustache wants untyped values. A nil optional leaves its key out, so
/// `{{#key}}` sections skip it. Values that are already HTML (`PageHTML`) pass through as they are.
enum MustacheEncoder {
    static func encode(_ value: some Encodable) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        encode(value, into: &dictionary)
        return dictionary
    }

    /// Adds the model's fields to `dictionary` (the page's chrome), in place: merging a separate
    /// dictionary in afterwards hashed every key twice on every page.
    static func encode(_ value: some Encodable, into dictionary: inout [String: Any]) {
        let box = Box()
        box.dictionary = dictionary
        dictionary = [:]  // the box holds the only reference, so it grows in place
        try? value.encode(to: NodeEncoder(box: box, codingPath: []))
        dictionary = box.dictionary
    }

    /// Holds the value under construction. Containers add to it in place: copying a dictionary
    /// out and back for every key made a model's encoding quadratic in its fields.
    final class Box {
        enum Kind { case dictionary, array, single }
        var kind = Kind.dictionary
        var dictionary: [String: Any] = [:]
        var array: [Any] = []
        var single: Any = NSNull()

        var value: Any {
            switch kind {
            case .dictionary: dictionary
            case .array: array
            case .single: single
            }
        }
    }

    struct NodeEncoder: Encoder {
        let box: Box
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            box.kind = .dictionary
            return KeyedEncodingContainer(Keyed<Key>(box: box, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            box.kind = .array
            return Unkeyed(box: box, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(box: box, codingPath: codingPath)
        }
    }

    /// A child value: primitives directly, anything else through its own `encode(to:)`.
    static func node(_ value: some Encodable, codingPath: [any CodingKey]) throws -> Any {
        switch value {
        case let value as String: return value
        case let value as Int: return value
        case let value as Int64: return value
        case let value as Bool: return value
        case let value as Double: return value
        case let value as PageHTML: return value.html
        default:
            let box = Box()
            box.kind = .single
            try value.encode(to: NodeEncoder(box: box, codingPath: codingPath))
            return box.value
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        var codingPath: [any CodingKey]

        private func set(_ value: Any, _ key: Key) {
            box.dictionary[key.stringValue] = value
        }

        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(value, key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            set(try MustacheEncoder.node(value, codingPath: codingPath + [key]), key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            preconditionFailure("page models encode nested values as values")
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("page models encode nested values as values")
        }

        mutating func superEncoder() -> any Encoder { NodeEncoder(box: box, codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { NodeEncoder(box: box, codingPath: codingPath) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey]
        var count: Int { box.array.count }

        private func append(_ value: Any) {
            box.array.append(value)
        }

        mutating func encodeNil() throws {}
        mutating func encode(_ value: Bool) throws { append(value) }
        mutating func encode(_ value: String) throws { append(value) }
        mutating func encode(_ value: Int) throws { append(value) }
        mutating func encode(_ value: Int64) throws { append(value) }
        mutating func encode(_ value: Double) throws { append(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { append(try MustacheEncoder.node(value, codingPath: codingPath)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            preconditionFailure("page models encode nested values as values")
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            preconditionFailure("page models encode nested values as values")
        }

        mutating func superEncoder() -> any Encoder { NodeEncoder(box: box, codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws { box.kind = .single; box.single = NSNull() }
        mutating func encode(_ value: Bool) throws { box.kind = .single; box.single = value }
        mutating func encode(_ value: String) throws { box.kind = .single; box.single = value }
        mutating func encode(_ value: Int) throws { box.kind = .single; box.single = value }
        mutating func encode(_ value: Int64) throws { box.kind = .single; box.single = value }
        mutating func encode(_ value: Double) throws { box.kind = .single; box.single = value }
        mutating func encode<T: Encodable>(_ value: T) throws {
            box.kind = .single
            box.single = try MustacheEncoder.node(value, codingPath: codingPath)
        }
    }
}

/// A page model on a hot path writes its values itself: the ones `MustacheEncoder` would give
/// (a test compares the two), without the encoder's dynamic dispatch, which cost the question
/// page, the most requested page, about 3% of its time.
protocol MustacheFields: Encodable {
    func write(into values: inout [String: Any])
}

extension Dictionary where Key == String, Value == Any {
    /// Sets `key` when there is a value: a nil leaves the key out, as the encoder does.
    mutating func set(_ key: String, _ value: Any?) {
        if let value { self[key] = value }
    }
}

/// HTML made by the renderer (a cached fragment, the page chrome), put into a page with `{{{…}}}`.
struct PageHTML: Encodable, Sendable {
    var html: String
    init(_ html: String) { self.html = html }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(html)
    }
}
