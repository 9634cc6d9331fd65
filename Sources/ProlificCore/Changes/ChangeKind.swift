/// Whether a file is new, changed or gone after a commit.
public enum ChangeKind: String, Hashable, Sendable {
    case added, modified, deleted

    /// The verb for messages: "add", "change", "remove".
    public var verb: String {
        switch self {
        case .added: "add"
        case .modified: "change"
        case .deleted: "remove"
        }
    }
}
