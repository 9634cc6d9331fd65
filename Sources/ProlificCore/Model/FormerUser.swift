/// A player whose profile `user remove` deleted, listed under `former` in prolific.yml.
///
/// Their snippets and closed rounds' ballots stay in the content, so the handle must stay known:
/// `check` accepts it where their entries were left, the fair tally still weighs their past votes
/// by the `joined` their profile had, and nobody can take the handle over later.
public struct FormerUser: Hashable, Sendable {
    public var handle: Handle
    /// When they joined, copied from the deleted profile.
    public var joined: Timestamp
    /// When the profile was removed: no entry of theirs can be newer.
    public var removed: Timestamp

    public init(handle: Handle, joined: Timestamp, removed: Timestamp) {
        self.handle = handle
        self.joined = joined
        self.removed = removed
    }

    /// How the site and `status` name a former player's work.
    public static let displayName = "a former contributor"
}
