/// The rules of following: a player's favourite projects and people (`follows` in their profile).
public enum Following {
    /// What a player follows: a project or another player.
    public enum Target: Hashable, Sendable, CustomStringConvertible {
        case project(Slug)
        case user(Handle)

        /// As messages name it: `project 'moon'` or `@ann`.
        public var description: String {
            switch self {
            case .project(let slug): "project '\(slug)'"
            case .user(let handle): "@\(handle)"
            }
        }
    }

    /// The follows of `user` after they follow `target`, or nil if they already do.
    ///
    /// Nobody follows themselves; whether the target exists is for the caller, who can see the
    /// content directory. A new follow goes last, so a profile's list keeps its order.
    public static func follow(_ target: Target, by user: User) throws(RuleViolation) -> User.Follows? {
        var follows = user.follows
        switch target {
        case .project(let slug):
            if follows.projects.contains(slug) { return nil }
            follows.projects.append(slug)
        case .user(let handle):
            if handle == user.handle { throw RuleViolation("@\(handle) cannot follow themselves") }
            if follows.users.contains(handle) { return nil }
            follows.users.append(handle)
        }
        return follows
    }

    /// The follows of `user` without `target`, or nil if they don't follow it.
    ///
    /// Unfollowing needs no existing target, so a follow of a project or player that has gone
    /// can still be removed.
    public static func unfollow(_ target: Target, by user: User) -> User.Follows? {
        var follows = user.follows
        switch target {
        case .project(let slug):
            guard follows.projects.contains(slug) else { return nil }
            follows.projects.removeAll { $0 == slug }
        case .user(let handle):
            guard follows.users.contains(handle) else { return nil }
            follows.users.removeAll { $0 == handle }
        }
        return follows
    }
}
