/// What a commit may change in the content: the pull-request checks of `prolific check --since`.
///
/// A contributor may add their own snippet to an open round, add or replace their own ballot in an
/// open round (before its deadline), and create or edit their own profile (listing no maintainer's
/// email and none another profile lists). Nobody may change another player's files, touch a closed
/// round, or change prolific.yml or round.md (the maintainers' and the CLI's); a project's owner may
/// change its title, tags and starter text. Maintainers may change anything.
/// Each rule takes the file's values before and after the commit (nil when absent or unreadable)
/// and who made it, and returns every violation, so one run explains them all.
public enum ChangeRules {
    /// A commit is a maintainer's when its author email is one of `maintainers` (lowercased).
    ///
    /// When the forge login is known, an email proves nothing on its own (anyone can commit as
    /// anyone), so the login must also be the `forge` of a profile in `profiles` that lists the
    /// email. The caller passes the profiles of the base revision, which the pull request can't
    /// have changed.
    public static func isMaintainer(email: String, forgeLogin: String?, maintainers: Set<String>, profiles: [User]) -> Bool {
        guard maintainers.contains(email.lowercased()) else { return false }
        guard let login = forgeLogin else { return true }
        return profiles.contains { profile in
            profile.forge.map { GitIdentity.same($0, login) } == true
                && profile.emails.contains { GitIdentity.same($0, email) }
        }
    }

    /// Why a commit by a maintainer's email is judged as a player's: with a forge login, the email
    /// counts only through a profile on the base revision that lists it with that login.
    public static func unboundMaintainer(email: String, forgeLogin: String) -> String {
        "\(email) is a maintainer's email, but the forge binding is missing: no profile on the base revision lists it in "
            + "'emails' with 'forge: \(forgeLogin)', so the commit is judged as a player's"
    }

    /// A pull request changes nothing in a round that is closed on the branch it goes into (`base`,
    /// as the check was given it), however open the round was when its commits were made: each
    /// commit is judged against its own parent, so without this a round closed on the base branch
    /// after the pull request branched off would take a late entry and break the recorded tally.
    public static func roundOnBase(_ slug: Slug, _ number: RoundNumber, _ round: Round?, base: String) -> [ChangeViolation] {
        guard let closed = round?.closed else { return [] }
        return [
            ChangeViolation(
                .closedRound,
                "round \(number) of '\(slug)' closed at \(closed) on the base branch ('\(base)'), so nothing in it may be added, "
                    + "changed or removed: withdraw this change, or rebase the pull request on '\(base)' and make it in an open round")
        ]
    }

    /// Whether a commit speaks for `owner`: their profile lists the commit's author email and, when
    /// the forge login is known and the profile names one, it is that login.
    ///
    /// `action` says what the commit did ("add this snippet"); `listed` names the list the email
    /// was looked for in, for messages.
    public static func identity(
        of author: ChangeAuthor, for owner: Handle, profile: User?, action: String, listed: String? = nil
    ) -> ChangeViolation? {
        let only = "only @\(owner) may \(action)"
        guard let profile else {
            return ChangeViolation(.notOwner, "\(only), and @\(owner) has no profile to list the emails that may")
        }
        guard !profile.emails.isEmpty else {
            return ChangeViolation(
                .notOwner, "\(only), and @\(owner)'s profile lists no 'emails'; until it does, only a maintainer may")
        }
        guard profile.emails.contains(where: { GitIdentity.same($0, author.email) }) else {
            return ChangeViolation(
                .notOwner, "\(only); \(author.email) is not one of the emails in \(listed ?? "@\(owner)'s profile")")
        }
        if let login = author.forgeLogin, let forge = profile.forge, !GitIdentity.same(login, forge) {
            return ChangeViolation(
                .forgeLogin, "\(only); @\(owner)'s profile names forge login '\(forge)', but the pull request is by '\(login)'")
        }
        return nil
    }

    /// prolific.yml, round.md and every file that isn't a player's are the maintainers' (and the CLI's).
    public static func maintainersOnly(_ file: ContentFile, _ kind: ChangeKind, by author: ChangeAuthor) -> [ChangeViolation] {
        if author.isMaintainer { return [] }
        let message =
            switch file {
            case .config: "prolific.yml is the maintainers'; only a maintainer may \(kind.verb) it"
            case .round: "round.md is written by the CLI ('project new', 'close'); only a maintainer may \(kind.verb) it"
            case .project: "only a maintainer may \(kind.verb) a project ('prolific project new' starts one)"
            case .profile: "only a maintainer may \(kind.verb) a profile"
            case .report: "anyone may file a report; only a maintainer may \(kind.verb) one ('moderate dismiss')"
            default:
                "only a maintainer may \(kind.verb) this file; players add snippets, ballots, reports, "
                    + "their profile and its avatar (users/<handle>.png)"
            }
        return [ChangeViolation(.maintainersOnly, message)]
    }

    /// A player's avatar beside the profiles (`users/<handle>.png`) is changed only by the player.
    public static func avatar(_ handle: Handle, _ kind: ChangeKind, profile: User?, by author: ChangeAuthor) -> [ChangeViolation] {
        if author.isMaintainer { return [] }
        return identity(of: author, for: handle, profile: profile, action: "\(kind.verb) this avatar").map { [$0] } ?? []
    }

    /// Anyone may file a new report (readers need not be players, so there is no identity to
    /// match); changing or removing reports is moderation, the maintainers'.
    public static func report(_ id: ReportID, _ kind: ChangeKind, by author: ChangeAuthor) -> [ChangeViolation] {
        kind == .added ? [] : maintainersOnly(.report(id), kind, by: author)
    }
}
