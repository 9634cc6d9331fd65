/// Removing a player (`user remove`): the profile goes, their work stays.
///
/// Their snippets stay in the stories (and in the open round, where they can still win),
/// attributed to "a former contributor"; their ballots in open rounds are withdrawn, those of
/// closed rounds stay so every recorded tally re-checks. The handle is listed under `former` in
/// prolific.yml with the profile's `joined`, so the fair tally weighs their past votes as before
/// and nobody takes the handle over.
public enum Removal {
    /// The `former` entry for removing `user` at `now`.
    public static func former(_ user: User, now: Timestamp) throws(RuleViolation) -> FormerUser {
        guard user.joined <= now else {
            throw RuleViolation("@\(user.handle) joined at \(user.joined), after --now \(now)")
        }
        return FormerUser(handle: user.handle, joined: user.joined, removed: now)
    }

    /// The picture that goes with the profile: the one `user add --avatar` put beside it, named
    /// `<handle>.<ext>`. Any other image there may be someone else's, so it stays.
    public static func avatarFile(of user: User) -> String? {
        guard let avatar = user.avatar, avatar.hasPrefix("\(user.handle).") else { return nil }
        let ext = avatar.dropFirst(user.handle.rawValue.count + 1)
        guard !ext.isEmpty, ext.allSatisfy({ $0.isLetter && $0.isASCII }) else { return nil }
        return avatar
    }

    /// Whether `handle` may be given to a new player: never a former player's.
    public static func checkNewHandle(_ handle: Handle, former: [FormerUser]) throws(RuleViolation) {
        if let gone = former.first(where: { $0.handle == handle }) {
            throw RuleViolation(
                "'\(handle)' belonged to a player removed at \(gone.removed); their entries still use it, so choose another handle")
        }
    }
}
