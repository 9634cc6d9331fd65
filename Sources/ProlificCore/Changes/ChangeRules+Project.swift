extension ChangeRules {
    /// The keys of project.md its owner may change: the rest is the CLI's and the maintainers'.
    public static let ownerKeys = "'title', 'tags' and the starter text"

    /// A project is started and removed by maintainers. Its owner may change its title, tags and
    /// starter text; its owner, created time, rounds, round length, status and visibility are the
    /// CLI's and the maintainers'. `profile` is the owner's profile, as before the commit.
    public static func project(
        _ slug: Slug, _ kind: ChangeKind, before: Project?, after: Project?, profile: User?, by author: ChangeAuthor
    ) -> [ChangeViolation] {
        if author.isMaintainer { return [] }
        guard kind == .modified else { return maintainersOnly(.project(slug), kind, by: author) }
        guard let before, let after else {
            let when = before == nil ? "before" : "after"
            return [
                ChangeViolation(
                    .maintainersOnly,
                    "project.md doesn't parse \(when) this commit, so the change can't be judged; only a maintainer may make it")
            ]
        }
        var found: [ChangeViolation] = []
        if let violation = identity(of: author, for: before.owner, profile: profile, action: "change project.md (its owner)") {
            found.append(violation)
        }
        let changed = maintainerKeys(before, after)
        if !changed.isEmpty {
            let keys = changed.map { "'\($0)'" }.joined(separator: ", ")
            found.append(
                ChangeViolation(
                    .projectKeys, "the project's owner may change \(ownerKeys); a maintainer changes \(keys)",
                    at: changed.lazy.compactMap { after.origin.positions[$0] }.first))
        }
        return found
    }

    /// The keys of project.md outside the owner's that differ between two versions, in file order.
    static func maintainerKeys(_ a: Project, _ b: Project) -> [String] {
        var keys: [String] = []
        if a.owner != b.owner { keys.append("owner") }
        if a.created != b.created { keys.append("created") }
        if a.roundLimit != b.roundLimit { keys.append("rounds") }
        if a.roundLength != b.roundLength { keys.append("round-length") }
        if a.status != b.status { keys.append("status") }
        if a.visibility != b.visibility { keys.append("visibility") }
        return keys
    }
}
