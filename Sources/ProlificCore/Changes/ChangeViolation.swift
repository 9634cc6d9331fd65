/// A change a commit may not make: the rule it breaks and why, in words fit to show the user.
public struct ChangeViolation: Hashable, Sendable {
    /// The rules of `check --since`, named as `--json` reports them.
    public enum Rule: String, Hashable, Sendable, CaseIterable {
        /// A file only maintainers change: prolific.yml, round.md, a new project, a removed profile.
        case maintainersOnly = "maintainers-only"
        /// A player's file changed by a commit that isn't theirs.
        case notOwner = "not-owner"
        /// A new profile that doesn't list its author's email.
        case selfRegistration = "self-registration"
        /// A pull request by a forge login other than the one the owner's profile names.
        case forgeLogin = "forge-login"
        /// A project owner changing what only the CLI and maintainers change.
        case projectKeys = "project-keys"
        /// A change in a closed round.
        case closedRound = "closed-round"
        /// An entry stamped outside its round's window.
        case outsideWindow = "outside-window"
        /// An entry stamped after the commit that made it.
        case afterCommit = "after-commit"
        /// An entry added, changed or removed by a commit made at or after its round's deadline.
        case afterDeadline = "after-deadline"
        /// An email added to a profile while another profile lists it.
        case emailTaken = "email-taken"
    }

    public var rule: Rule
    public var message: String
    /// Where in the file (as of the commit) the problem is, when it is about one key.
    public var position: TextPosition?

    public init(_ rule: Rule, _ message: String, at position: TextPosition? = nil) {
        self.rule = rule
        self.message = message
        self.position = position
    }
}
