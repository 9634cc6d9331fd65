import ProlificCore

extension Game {
    /// What `follow` or `unfollow` did.
    public struct FollowReceipt: Sendable {
        public var user: User
        /// False when the profile already said so and was left as it was.
        public var changed: Bool
    }

    /// `follow`: adds `target` to the follows of `handle`, rewriting their profile atomically.
    ///
    /// The target must exist now (`check` reports follows of unknown projects and people);
    /// following it again changes nothing.
    public func follow(_ target: Following.Target, by handle: Handle) throws(Diagnostics) -> FollowReceipt {
        try locked { () throws(Diagnostics) in
            let user = try reader.loadUser(handle)
            let follows: User.Follows?
            do throws(RuleViolation) { follows = try Following.follow(target, by: user) } catch { throw Self.refuse(error) }
            switch target {
            case .project(let slug):
                guard FileSystem.exists(layout.projectFile(slug)) else {
                    throw Self.refuse("unknown project '\(slug)': there is no \(layout.projectFile(slug))")
                }
            case .user(let other):
                guard FileSystem.exists(layout.userFile(other)) else {
                    throw Self.refuse("unknown user '\(other)': there is no \(layout.userFile(other))")
                }
            }
            return try rewrite(user, follows: follows)
        }
    }

    /// `unfollow`: removes `target` from the follows of `handle`; a follow that isn't there changes nothing.
    public func unfollow(_ target: Following.Target, by handle: Handle) throws(Diagnostics) -> FollowReceipt {
        try locked { () throws(Diagnostics) in
            let user = try reader.loadUser(handle)
            return try rewrite(user, follows: Following.unfollow(target, by: user))
        }
    }

    /// Writes `user`'s profile with `follows`, everything else as it was read; nil writes nothing.
    private func rewrite(_ user: User, follows: User.Follows?) throws(Diagnostics) -> FollowReceipt {
        guard let follows else { return FollowReceipt(user: user, changed: false) }
        var user = user
        user.follows = follows
        let snapshot = user
        try write({ () throws(AtomicFile.Failure) in try UserFile.render(snapshot) }, to: layout.userFile(user.handle))
        return FollowReceipt(user: user, changed: true)
    }
}
