extension ChangeRules {
    /// A player creates their own profile, listing their own email in it (self-registration), and
    /// changes it only through an email the profile listed before the change, so nobody takes a
    /// profile over by adding their email to it. Profiles are removed by maintainers.
    public static func profile(
        _ handle: Handle, _ kind: ChangeKind, before: User?, after: User?, by author: ChangeAuthor
    ) -> [ChangeViolation] {
        if author.isMaintainer { return [] }
        switch kind {
        case .deleted:
            return [ChangeViolation(.maintainersOnly, "only a maintainer may remove a profile ('prolific user remove')")]
        case .added:
            guard let after else {
                return [
                    ChangeViolation(
                        .selfRegistration, "the new profile doesn't parse, so whose it is can't be told; only a maintainer may add it")
                ]
            }
            var found: [ChangeViolation] = []
            if !after.emails.contains(where: { GitIdentity.same($0, author.email) }) {
                found.append(
                    ChangeViolation(
                        .selfRegistration, "a new profile lists its author's email in 'emails'; \(author.email) is not listed",
                        at: after.origin.positions["emails"]))
            }
            if let login = author.forgeLogin, let forge = after.forge, !GitIdentity.same(login, forge) {
                found.append(
                    ChangeViolation(
                        .forgeLogin, "the new profile names forge login '\(forge)', but the pull request is by '\(login)'",
                        at: after.origin.positions["forge"]))
            }
            return found
        case .modified:
            guard let before else {
                return [
                    ChangeViolation(
                        .maintainersOnly,
                        "@\(handle)'s profile didn't parse before this commit, so whose it is can't be told; "
                            + "only a maintainer may change it")
                ]
            }
            let violation = identity(
                of: author, for: handle, profile: before, action: "change this profile",
                listed: "@\(handle)'s profile before this commit")
            return violation.map { [$0] } ?? []
        }
    }

    /// A player adds, changes or removes their own snippet only in an open round; its `submitted`
    /// falls inside the round's window and not after the commit.
    public static func submission(
        _ id: SubmissionID, in slug: Slug, _ number: RoundNumber, _ kind: ChangeKind, after: Submission?, round: Round?,
        profile: User?, by author: ChangeAuthor
    ) -> [ChangeViolation] {
        let stamp = after.map { Stamp(key: "submitted", time: $0.submitted, origin: $0.origin) }
        return entry(
            "snippet", owner: id.author, in: slug, number, kind, stamp: stamp, round: round, profile: profile, by: author)
    }

    /// A player adds, replaces or removes their own ballot only in an open round; its `cast` falls
    /// inside the round's window and not after the commit.
    public static func ballot(
        _ voter: Handle, in slug: Slug, _ number: RoundNumber, _ kind: ChangeKind, after: Ballot?, round: Round?,
        profile: User?, by author: ChangeAuthor
    ) -> [ChangeViolation] {
        let stamp = after.map { Stamp(key: "cast", time: $0.cast, origin: $0.origin) }
        return entry("ballot", owner: voter, in: slug, number, kind, stamp: stamp, round: round, profile: profile, by: author)
    }

    /// An entry's time as its file states it.
    struct Stamp {
        var key: String
        var time: Timestamp
        var origin: Origin
    }

    /// The rules snippets and ballots share. `round` is the round as it was before the commit (as
    /// after it, for a round the commit creates); nil when it has no readable round.md.
    static func entry(
        _ what: String, owner: Handle, in slug: Slug, _ number: RoundNumber, _ kind: ChangeKind, stamp: Stamp?,
        round: Round?, profile: User?, by author: ChangeAuthor
    ) -> [ChangeViolation] {
        if author.isMaintainer { return [] }
        var found: [ChangeViolation] = []
        if let violation = identity(of: author, for: owner, profile: profile, action: "\(kind.verb) this \(what)") {
            found.append(violation)
        }
        guard let round else {
            found.append(
                ChangeViolation(
                    .maintainersOnly,
                    "round \(number) of '\(slug)' has no readable round.md to tell whether it is open; "
                        + "only a maintainer may \(kind.verb) its files"
                ))
            return found
        }
        if let closed = round.closed {
            found.append(
                ChangeViolation(
                    .closedRound, "round \(number) of '\(slug)' closed at \(closed); nothing in it may be added, changed or removed"))
        }
        if let stamp, kind != .deleted {
            let at = stamp.origin.positions[stamp.key]
            if stamp.time < round.opened || stamp.time >= round.closes {
                found.append(
                    ChangeViolation(
                        .outsideWindow,
                        "\(stamp.key) at \(stamp.time), outside round \(number)'s window (from \(round.opened), before \(round.closes))",
                        at: at))
            }
            if stamp.time > author.time {
                found.append(
                    ChangeViolation(.afterCommit, "\(stamp.key) at \(stamp.time), after the commit was made at \(author.time)", at: at))
            }
        }
        return found
    }
}
