/// A game rule that an attempted action breaks, in words fit to show the user.
public struct RuleViolation: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
