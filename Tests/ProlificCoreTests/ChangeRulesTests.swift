import Testing

@testable import ProlificCore

/// The pull-request rules of `check --since`, on values: who may add, change or remove which file.
@Suite struct ChangeRulesTests {
    let commitTime = Make.time("2026-11-03T12:00:00Z")
    let moon = Make.slug("moon")
    let one = Make.number(1)

    func profile(_ name: String, emails: [String] = [], forge: String? = nil) -> User {
        var user = Make.user(name)
        user.emails = emails
        user.forge = forge
        user.origin.positions = ["emails": TextPosition(line: 4, column: 9), "forge": TextPosition(line: 5, column: 8)]
        return user
    }

    var ann: User { profile("ann", emails: ["ann@example.org", "Ann.Abel@Work.example"], forge: "ann-gh") }

    func by(_ email: String, login: String? = nil, maintainer: Bool = false, at time: String? = nil) -> ChangeAuthor {
        ChangeAuthor(email: email, forgeLogin: login, isMaintainer: maintainer, time: time.map(Make.time) ?? commitTime)
    }

    var open: Round { Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z") }
    var closed: Round {
        Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-02T00:00:00Z")
    }

    func rules(_ violations: [ChangeViolation]) -> [ChangeViolation.Rule] { violations.map(\.rule) }

    // MARK: Identity

    @Test func aCommitSpeaksForAPlayerThroughAnEmailTheProfileLists() {
        #expect(ChangeRules.identity(of: by("ann@example.org"), for: ann.handle, profile: ann, action: "add this snippet") == nil)
        // Emails compare without case.
        #expect(ChangeRules.identity(of: by("ann.abel@work.EXAMPLE"), for: ann.handle, profile: ann, action: "x") == nil)
        let impostor = ChangeRules.identity(of: by("bo@example.org"), for: ann.handle, profile: ann, action: "add this snippet")
        #expect(impostor?.rule == .notOwner)
        #expect(
            impostor?.message
                == "only @ann may add this snippet; bo@example.org is not one of the emails in @ann's profile")
    }

    @Test func withoutAProfileOrEmailsOnlyMaintainersSpeakForAPlayer() {
        let none = ChangeRules.identity(of: by("ann@example.org"), for: ann.handle, profile: nil, action: "add this ballot")
        #expect(none?.message == "only @ann may add this ballot, and @ann has no profile to list the emails that may")
        let empty = ChangeRules.identity(of: by("ann@example.org"), for: ann.handle, profile: profile("ann"), action: "add this ballot")
        #expect(empty?.rule == .notOwner)
        #expect(empty?.message.contains("lists no 'emails'") == true)
    }

    @Test func aKnownForgeLoginMustBeTheOneTheProfileNames() {
        #expect(ChangeRules.identity(of: by("ann@example.org", login: "Ann-GH"), for: ann.handle, profile: ann, action: "x") == nil)
        let other = ChangeRules.identity(of: by("ann@example.org", login: "mallory"), for: ann.handle, profile: ann, action: "x")
        #expect(other?.rule == .forgeLogin)
        #expect(other?.message.contains("names forge login 'ann-gh', but the pull request is by 'mallory'") == true)
        // A profile without a forge login is matched by email alone.
        let plain = profile("ann", emails: ["ann@example.org"])
        #expect(ChangeRules.identity(of: by("ann@example.org", login: "anyone"), for: ann.handle, profile: plain, action: "x") == nil)
    }

    @Test func maintainersAreTheirEmailsOrWithAForgeLoginAProfileBindingBoth() {
        let keeper = profile("kee", emails: ["keeper@example.org"], forge: "keeper-gh")
        let listed: Set<String> = ["keeper@example.org"]
        #expect(ChangeRules.isMaintainer(email: "Keeper@Example.org", forgeLogin: nil, maintainers: listed, profiles: []))
        #expect(!ChangeRules.isMaintainer(email: "bo@example.org", forgeLogin: nil, maintainers: listed, profiles: [keeper]))
        // Anyone can commit as keeper@example.org; the forge vouches only for the login.
        #expect(!ChangeRules.isMaintainer(email: "keeper@example.org", forgeLogin: "mallory", maintainers: listed, profiles: [keeper]))
        #expect(!ChangeRules.isMaintainer(email: "keeper@example.org", forgeLogin: "keeper-gh", maintainers: listed, profiles: []))
        #expect(ChangeRules.isMaintainer(email: "keeper@example.org", forgeLogin: "KEEPER-gh", maintainers: listed, profiles: [keeper]))
    }

    // MARK: Files only maintainers change

    @Test func configRoundFilesAndOtherFilesAreTheMaintainers() {
        for file in [ContentFile.config, .round(moon, one), .other] {
            for kind in [ChangeKind.added, .modified, .deleted] {
                #expect(rules(ChangeRules.maintainersOnly(file, kind, by: by("ann@example.org"))) == [.maintainersOnly])
                #expect(ChangeRules.maintainersOnly(file, kind, by: by("keeper@example.org", maintainer: true)).isEmpty)
            }
        }
        #expect(
            ChangeRules.maintainersOnly(.round(moon, one), .modified, by: by("ann@example.org")).first?.message
                == "round.md is written by the CLI ('project new', 'close'); only a maintainer may change it")
    }

    // MARK: Profiles

    @Test func aNewProfileListsItsAuthorsEmail() {
        let dan = profile("dan", emails: ["dan@example.org"], forge: "dan-gh")
        #expect(ChangeRules.profile(dan.handle, .added, before: nil, after: dan, by: by("dan@example.org")).isEmpty)
        #expect(ChangeRules.profile(dan.handle, .added, before: nil, after: dan, by: by("dan@example.org", login: "dan-gh")).isEmpty)
        let someoneElse = ChangeRules.profile(dan.handle, .added, before: nil, after: dan, by: by("bo@example.org"))
        #expect(rules(someoneElse) == [.selfRegistration])
        #expect(someoneElse.first?.message == "a new profile lists its author's email in 'emails'; bo@example.org is not listed")
        #expect(someoneElse.first?.position == TextPosition(line: 4, column: 9))
        let otherLogin = ChangeRules.profile(dan.handle, .added, before: nil, after: dan, by: by("dan@example.org", login: "bo-gh"))
        #expect(rules(otherLogin) == [.forgeLogin])
        #expect(rules(ChangeRules.profile(dan.handle, .added, before: nil, after: nil, by: by("dan@example.org"))) == [.selfRegistration])
    }

    @Test func aProfileIsChangedThroughAnEmailItListedBefore() {
        var edited = ann
        edited.bio = "New bio."
        #expect(ChangeRules.profile(ann.handle, .modified, before: ann, after: edited, by: by("ann@example.org")).isEmpty)
        // Taking it over: bo adds his email and commits the change.
        var taken = ann
        taken.emails.append("bo@example.org")
        let takeover = ChangeRules.profile(ann.handle, .modified, before: ann, after: taken, by: by("bo@example.org"))
        #expect(rules(takeover) == [.notOwner])
        #expect(takeover.first?.message.contains("bo@example.org is not one of the emails in @ann's profile before this commit") == true)
        // A profile made without emails is the maintainers' until they add some.
        let bare = profile("ann")
        #expect(rules(ChangeRules.profile(ann.handle, .modified, before: bare, after: taken, by: by("ann@example.org"))) == [.notOwner])
        #expect(rules(ChangeRules.profile(ann.handle, .modified, before: nil, after: ann, by: by("ann@example.org"))) == [.maintainersOnly])
        #expect(rules(ChangeRules.profile(ann.handle, .deleted, before: ann, after: nil, by: by("ann@example.org"))) == [.maintainersOnly])
        #expect(ChangeRules.profile(ann.handle, .modified, before: bare, after: taken, by: by("k@example.org", maintainer: true)).isEmpty)
    }

    @Test func aProfileListsNoMaintainersEmailAndNoneAnotherProfileLists() {
        let maintainers: Set<String> = ["keeper@example.org"]
        let bo = profile("bo", emails: ["bo@example.org"])
        var keepers = bo
        keepers.emails.append("Keeper@Example.org")
        let found = ChangeRules.emails(of: bo.handle, before: bo, after: keepers, maintainers: maintainers, others: [ann], by: by("bo@example.org"))
        #expect(rules(found) == [.maintainersOnly])
        #expect(found.first?.message == "Keeper@Example.org is a maintainer's email; only a maintainer may add it to a profile")
        #expect(found.first?.position == TextPosition(line: 4, column: 9))
        var anns = bo
        anns.emails.append("ANN@example.org")
        let taken = ChangeRules.emails(of: bo.handle, before: bo, after: anns, maintainers: maintainers, others: [ann], by: by("bo@example.org"))
        #expect(rules(taken) == [.emailTaken])
        #expect(taken.first?.message == "ANN@example.org is already listed in @ann's profile; an email belongs to one profile only")
        // A new profile adds all its emails; its own are no other profile's.
        #expect(ChangeRules.addedEmails(before: nil, after: ann) == ann.emails)
        #expect(ChangeRules.emails(of: ann.handle, before: nil, after: ann, maintainers: maintainers, others: [ann], by: by("ann@example.org")).isEmpty)
        // Emails listed before the commit are not judged again, and a maintainer may add any.
        #expect(ChangeRules.emails(of: bo.handle, before: keepers, after: keepers, maintainers: maintainers, others: [], by: by("bo@example.org")).isEmpty)
        #expect(
            ChangeRules.emails(of: bo.handle, before: bo, after: keepers, maintainers: maintainers, others: [], by: by("k@x.org", maintainer: true))
                .isEmpty)
    }

    @Test func aMaintainerJudgedAsAPlayerIsToldTheForgeBindingIsMissing() {
        #expect(
            ChangeRules.unboundMaintainer(email: "keeper@example.org", forgeLogin: "mallory")
                == "keeper@example.org is a maintainer's email, but the forge binding is missing: no profile on the base revision "
                + "lists it in 'emails' with 'forge: mallory', so the commit is judged as a player's")
    }

    // MARK: Snippets and ballots

    func snippet(_ author: String, at time: String) -> Submission { Make.submission(author, at: time) }

    @Test func aPlayerAddsChangesAndRemovesTheirOwnSnippetInAnOpenRound() {
        let own = snippet("ann", at: "2026-11-03T10:00:00Z")
        for kind in [ChangeKind.added, .modified, .deleted] {
            let after = kind == .deleted ? nil : own
            #expect(
                ChangeRules.submission(own.id, in: moon, one, kind, after: after, round: open, profile: ann, by: by("ann@example.org"))
                    .isEmpty, "\(kind)")
        }
    }

    @Test func anotherPlayersSnippetOrBallotIsNotYours() {
        let own = snippet("ann", at: "2026-11-03T10:00:00Z")
        let added = ChangeRules.submission(own.id, in: moon, one, .added, after: own, round: open, profile: ann, by: by("bo@example.org"))
        #expect(rules(added) == [.notOwner])
        let removed = ChangeRules.submission(own.id, in: moon, one, .deleted, after: nil, round: open, profile: ann, by: by("bo@example.org"))
        #expect(removed.first?.message == "only @ann may remove this snippet; bo@example.org is not one of the emails in @ann's profile")
        let ballot = Make.ballot("ann", at: "2026-11-03T11:00:00Z", for: [Make.id("bo", "2026-11-02T10:00:00Z")])
        let edited = ChangeRules.ballot(ann.handle, in: moon, one, .modified, after: ballot, round: open, profile: ann, by: by("bo@example.org"))
        #expect(edited.first?.message == "only @ann may change this ballot; bo@example.org is not one of the emails in @ann's profile")
    }

    @Test func nothingInAClosedRoundChanges() {
        let own = snippet("ann", at: "2026-11-01T10:00:00Z")
        for kind in [ChangeKind.added, .modified, .deleted] {
            let found = ChangeRules.submission(
                own.id, in: moon, one, kind, after: kind == .deleted ? nil : own, round: closed, profile: ann, by: by("ann@example.org"))
            #expect(rules(found) == [.closedRound], "\(kind)")
            #expect(
                found.first?.message
                    == "round 1 of 'moon' closed at 2026-11-02T00:00:00Z; nothing in it may be added, changed or removed")
        }
        let ballot = Make.ballot("ann", at: "2026-11-01T11:00:00Z", for: [])
        #expect(
            rules(ChangeRules.ballot(ann.handle, in: moon, one, .added, after: ballot, round: closed, profile: ann, by: by("ann@example.org")))
                == [.closedRound])
        // A round without a readable round.md can't be shown to be open.
        #expect(
            rules(ChangeRules.submission(own.id, in: moon, one, .added, after: own, round: nil, profile: ann, by: by("ann@example.org")))
                == [.maintainersOnly])
    }

    @Test func entriesAreStampedInsideTheWindowAndNotAfterTheirCommit() {
        let early = snippet("ann", at: "2026-10-31T23:59:59Z")
        let found = ChangeRules.submission(early.id, in: moon, one, .added, after: early, round: open, profile: ann, by: by("ann@example.org"))
        #expect(rules(found) == [.outsideWindow])
        #expect(
            found.first?.message
                == "submitted at 2026-10-31T23:59:59Z, outside round 1's window (from 2026-11-01T00:00:00Z, before 2026-11-08T00:00:00Z)")
        #expect(found.first?.position == TextPosition(line: 3, column: 12))
        let future = snippet("ann", at: "2026-11-03T12:00:01Z")
        let late = ChangeRules.submission(future.id, in: moon, one, .added, after: future, round: open, profile: ann, by: by("ann@example.org"))
        #expect(rules(late) == [.afterCommit])
        #expect(late.first?.message == "submitted at 2026-11-03T12:00:01Z, after the commit was made at 2026-11-03T12:00:00Z")
        // At the deadline is outside the window; a ballot's `cast` is held to the same.
        let atDeadline = Make.ballot("ann", at: "2026-11-08T00:00:00Z", for: [])
        let both = ChangeRules.ballot(
            ann.handle, in: moon, one, .modified, after: atDeadline, round: open, profile: ann, by: by("ann@example.org"))
        #expect(rules(both) == [.outsideWindow, .afterCommit])
        #expect(both.first?.message.hasPrefix("cast at 2026-11-08T00:00:00Z, outside round 1's window") == true)
        // Stamped exactly at the commit is fine.
        let now = snippet("ann", at: "2026-11-03T12:00:00Z")
        #expect(ChangeRules.submission(now.id, in: moon, one, .added, after: now, round: open, profile: ann, by: by("ann@example.org")).isEmpty)
    }

    @Test func aCommitMadeAfterTheDeadlineChangesNothingInTheRound() {
        let own = snippet("ann", at: "2026-11-03T10:00:00Z")
        let late = by("ann@example.org", at: "2026-11-08T00:00:00Z")
        for kind in [ChangeKind.added, .modified, .deleted] {
            let found = ChangeRules.submission(
                own.id, in: moon, one, kind, after: kind == .deleted ? nil : own, round: open, profile: ann, by: late)
            #expect(rules(found) == [.afterDeadline], "\(kind)")
        }
        // A ballot whose `cast` stays in time while its `for` changes: the commit's time decides.
        let ballot = Make.ballot("ann", at: "2026-11-03T11:00:00Z", for: [Make.id("bo", "2026-11-02T10:00:00Z")])
        let inTime = by("ann@example.org", at: "2026-11-07T23:59:59Z")
        #expect(ChangeRules.ballot(ann.handle, in: moon, one, .modified, after: ballot, round: open, profile: ann, by: inTime).isEmpty)
        let found = ChangeRules.ballot(ann.handle, in: moon, one, .modified, after: ballot, round: open, profile: ann, by: late)
        #expect(rules(found) == [.afterDeadline])
        #expect(
            found.first?.message
                == "committed at 2026-11-08T00:00:00Z, not before round 1's deadline (2026-11-08T00:00:00Z); "
                + "nothing in the round may be added, changed or removed once its deadline has passed")
        // A closed round says so once; a maintainer may still.
        #expect(rules(ChangeRules.ballot(ann.handle, in: moon, one, .modified, after: ballot, round: closed, profile: ann, by: late)) == [.closedRound])
        #expect(
            ChangeRules.ballot(
                ann.handle, in: moon, one, .modified, after: ballot, round: open, profile: ann,
                by: by("k@example.org", maintainer: true, at: "2026-11-09T00:00:00Z")
            ).isEmpty)
    }

    @Test func aRoundClosedOnTheBaseTakesNothingFromThePullRequest() {
        #expect(ChangeRules.roundOnBase(moon, one, open, base: "origin/main").isEmpty)
        #expect(ChangeRules.roundOnBase(moon, one, nil, base: "origin/main").isEmpty, "no round.md on the base: the commits' own rules judge it")
        let found = ChangeRules.roundOnBase(moon, one, closed, base: "origin/main")
        #expect(rules(found) == [.closedRound])
        #expect(
            found.first?.message
                == "round 1 of 'moon' closed at 2026-11-02T00:00:00Z on the base branch ('origin/main'), so nothing in it may be "
                + "added, changed or removed: withdraw this change, or rebase the pull request on 'origin/main' and make it in an open round")
    }

    @Test func everyViolationOfOneChangeIsReported() {
        let early = snippet("ann", at: "2026-10-31T00:00:00Z")
        let found = ChangeRules.submission(early.id, in: moon, one, .added, after: early, round: closed, profile: ann, by: by("bo@example.org"))
        #expect(rules(found) == [.notOwner, .closedRound, .outsideWindow])
        #expect(
            ChangeRules.submission(early.id, in: moon, one, .added, after: early, round: closed, profile: ann, by: by("k@x.org", maintainer: true))
                .isEmpty)
    }

    // MARK: Projects

    @Test func aProjectsOwnerChangesItsTitleTagsAndStarterOnly() {
        let before = Make.project()
        var after = before
        after.title = "A new title"
        after.tags = ["night"]
        after.starter = "Once, again."
        #expect(ChangeRules.project(moon, .modified, before: before, after: after, profile: ann, by: by("ann@example.org")).isEmpty)
        let stranger = ChangeRules.project(moon, .modified, before: before, after: after, profile: ann, by: by("bo@example.org"))
        #expect(rules(stranger) == [.notOwner])
        after.roundLimit = 9
        after.status = .complete
        let keys = ChangeRules.project(moon, .modified, before: before, after: after, profile: ann, by: by("ann@example.org"))
        #expect(rules(keys) == [.projectKeys])
        #expect(
            keys.first?.message
                == "the project's owner may change 'title', 'tags' and the starter text; a maintainer changes 'rounds', 'status'")
        #expect(keys.first?.position == TextPosition(line: 8, column: 9), "at the first changed key with a known position")
        #expect(rules(ChangeRules.project(moon, .added, before: nil, after: after, profile: nil, by: by("ann@example.org"))) == [.maintainersOnly])
        #expect(rules(ChangeRules.project(moon, .deleted, before: before, after: nil, profile: ann, by: by("ann@example.org"))) == [.maintainersOnly])
        #expect(rules(ChangeRules.project(moon, .modified, before: before, after: nil, profile: ann, by: by("ann@example.org"))) == [.maintainersOnly])
        #expect(ChangeRules.project(moon, .modified, before: before, after: after, profile: nil, by: by("k@x.org", maintainer: true)).isEmpty)
    }

    // MARK: Avatars and reports

    @Test func avatarsAreTheirPlayersAndReportsAreFiledNotEdited() {
        #expect(ChangeRules.avatar(ann.handle, .added, profile: ann, by: by("ann@example.org")).isEmpty)
        #expect(rules(ChangeRules.avatar(ann.handle, .modified, profile: ann, by: by("bo@example.org"))) == [.notOwner])
        let report = ReportID(reporter: ann.handle, time: Make.time("2026-11-03T10:00:00Z"))
        // Readers need not be players: anyone files a report, and only maintainers settle one.
        #expect(ChangeRules.report(report, .added, by: by("reader@example.net")).isEmpty)
        #expect(rules(ChangeRules.report(report, .modified, by: by("ann@example.org"))) == [.maintainersOnly])
        #expect(rules(ChangeRules.report(report, .deleted, by: by("ann@example.org"))) == [.maintainersOnly])
        #expect(ChangeRules.report(report, .deleted, by: by("k@example.org", maintainer: true)).isEmpty)
    }

    // MARK: Identities in profiles

    @Test func emailsAndLoginsAreCheckedLoosely() {
        #expect(GitIdentity.isEmail("ann@example.org"))
        #expect(GitIdentity.isEmail("ann+prolific@localhost"))
        for bad in ["ann", "@example.org", "ann@", "a@b@c", "ann @example.org", "ann@exa\tmple.org", String(repeating: "a", count: 250) + "@x.org"] {
            #expect(!GitIdentity.isEmail(bad), "\(bad)")
        }
        #expect(GitIdentity.isLogin("ann-gh"))
        #expect(GitIdentity.isLogin("Ann_Abel.2"))
        for bad in ["", "ann gh", "ann@gh", "ánn", String(repeating: "a", count: 101)] {
            #expect(!GitIdentity.isLogin(bad), "\(bad)")
        }
        #expect(GitIdentity.same("Ann@Example.ORG", "ann@example.org"))
    }
}
