/// How templates read the values pages give them: `[String: Any]` trees.
///
/// Pages put in `String`, `Int`, `Bool`, `[String: Any]`, `[String: String]` (`site`,
/// `generated`), lists of those (`[[String: Any]]`, `[[String: String]]`), and the calendar's weeks
/// (`[[String: [[String: Any]]]]`). The common ones are recognised by their exact type, which costs
/// a pointer comparison: a cast of `Any` to `[String: Any]` would also accept a `[String: String]`
/// by converting it (allocating a new dictionary), and protocol casts look the conformance up.
/// Anything else takes a slower path that treats it as swift-mustache did: optionals unwrapped,
/// any string-keyed dictionary, any `Array`/`Set`/reversed collection as a list, other values by
/// their stored properties (`Mirror`).
enum TemplateValues {
    /// The member `name` of `value` (a dictionary's entry), or nil when it has none.
    static func member(_ name: String, of value: Any) -> Any? {
        let type = Swift.type(of: value)
        if type == [String: Any].self { return (value as? [String: Any])?[name] }
        if type == String.self || type == Int.self || type == Bool.self || type == Double.self { return nil }
        if type == [String: String].self { return (value as? [String: String])?[name] }
        if let optional = value as? any TemplateOptional {
            guard let wrapped = optional.templateWrapped else { return nil }
            return member(name, of: wrapped)
        }
        if let dictionary = value as? any TemplateDictionary { return dictionary.templateMember(name) }
        if value is any TemplateList { return nil }
        guard let child = Mirror(reflecting: value).children.first(where: { $0.label == name }) else { return nil }
        if let optional = child.value as? any TemplateOptional { return optional.templateWrapped }
        return child.value
    }

    /// How a value drives `{{#name}}`: false, nil and empty lists are falsy (the spec), a list
    /// renders once per item, `true` once in the same context, anything else once with itself as
    /// the context (an empty string and 0 included, as before).
    enum Truth {
        case falsy
        case truthy
        case push(Any)
        case list([Any])
    }

    /// The truth of a value that isn't one of the common shapes the renderer handles itself.
    static func truth(of value: Any) -> Truth {
        if let bool = value as? Bool { return bool ? .truthy : .falsy }
        if let optional = value as? any TemplateOptional {
            guard let wrapped = optional.templateWrapped else { return .falsy }
            return truth(of: wrapped)
        }
        if let list = value as? any TemplateList {
            let items = list.templateElements
            return items.isEmpty ? .falsy : .list(items)
        }
        return .push(value)
    }

    /// The text of a value that isn't a `String`, `Int` or `Bool`: optionals unwrapped (nil is
    /// empty), anything else as Swift describes it.
    static func text(of value: Any) -> String {
        if let optional = value as? any TemplateOptional {
            guard let wrapped = optional.templateWrapped else { return "" }
            return text(of: wrapped)
        }
        return String(describing: value)
    }
}

/// An `Optional` seen through `Any`.
protocol TemplateOptional {
    var templateWrapped: Any? { get }
}

extension Optional: TemplateOptional {
    var templateWrapped: Any? { map { $0 as Any } }
}

/// A dictionary with `String` keys of any value type.
protocol TemplateDictionary {
    func templateMember(_ name: String) -> Any?
}

extension Dictionary: TemplateDictionary where Key == String {
    func templateMember(_ name: String) -> Any? { self[name].map { $0 as Any } }
}

/// A collection a section iterates (those swift-mustache iterated).
protocol TemplateList {
    var templateElements: [Any] { get }
}

extension Array: TemplateList {
    var templateElements: [Any] { map { $0 as Any } }
}

extension Set: TemplateList {
    var templateElements: [Any] { map { $0 as Any } }
}

extension ReversedCollection: TemplateList {
    var templateElements: [Any] { map { $0 as Any } }
}
