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

    /// A player adds to a profile no email that is a maintainer's (with a forge login, the profile
    /// would bind that email to the player's login, and make them a maintainer once merged) and none
    /// that another profile lists: an email speaks for one player. `maintainers` are the
    /// maintainers' emails, lowercased, as of the base revision; `others` are the other profiles as
    /// the commit left them.
    public static func emails(
        of handle: Handle, before: User?, after: User?, maintainers: Set<String>, others: [User], by author: ChangeAuthor
    ) -> [ChangeViolation] {
        if author.isMaintainer { return [] }
        guard let after else { return [] }
        let at = after.origin.positions["emails"]
        var found: [ChangeViolation] = []
        for email in addedEmails(before: before, after: after) {
            if maintainers.contains(email.lowercased()) {
                found.append(
                    ChangeViolation(.maintainersOnly, "\(email) is a maintainer's email; only a maintainer may add it to a profile", at: at))
            } else if let other = others.first(where: { $0.handle != handle && $0.emails.contains { GitIdentity.same($0, email) } })
            {
                found.append(
                    ChangeViolation(
                        .emailTaken, "\(email) is already listed in @\(other.handle)'s profile; an email belongs to one profile only",
                        at: at))
            }
        }
        return found
    }

    /// The emails `after` lists that `before` didn't (compared without case), in file order.
    public static func addedEmails(before: User?, after: User?) -> [String] {
        guard let after else { return [] }
        let old = before?.emails ?? []
        return after.emails.filter { email in !old.contains { GitIdentity.same($0, email) } }
    }

    /// A player adds, changes or removes their own snippet only in an open round, with a commit made
    /// before the round's deadline; its `submitted` falls inside the round's window and not after
    /// the commit.
    public static func submission(
        _ id: SubmissionID, in slug: Slug, _ number: RoundNumber, _ kind: ChangeKind, after: Submission?, round: Round?,
        profile: User?, by author: ChangeAuthor
    ) -> [ChangeViolation] {
        let stamp = after.map { Stamp(key: "submitted", time: $0.submitted, origin: $0.origin) }
        return entry(
            "snippet", owner: id.author, in: slug, number, kind, stamp: stamp, round: round, profile: profile, by: author)
    }

    /// A player adds, replaces or removes their own ballot only in an open round, with a commit made
    /// before the round's deadline; its `cast` falls inside the round's window and not after the
    /// commit.
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
    /// after it, for a round the commit creates); nil when it has no readable round.md. The commit's
    /// own time (`author.time`) is held to the deadline: a `cast` or `submitted` left as it was
    /// doesn't make a late change to the file (a ballot's `for`, a snippet's text) an early one.
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
        } else if author.time >= round.closes {
            found.append(
                ChangeViolation(
                    .afterDeadline,
                    "committed at \(author.time), not before round \(number)'s deadline (\(round.closes)); "
                        + "nothing in the round may be added, changed or removed once its deadline has passed"))
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
