import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// A content directory in a real git repository. Its first commit, by the maintainer
/// keeper@example.org (who commits prolific.yml), holds ann, bob and cat, each listing
/// `<handle>@example.org`, and ann's project moon: round 1 open from 2026-11-01 for 7 days.
struct ChangeRepository {
    let playground: Playground
    let git: Git
    let base: String
    static let keeper = "keeper@example.org"

    init(config: Config = Config.defaults(title: "Test"), forges: [String: String] = [:]) throws {
        playground = try Playground(config: config)
        git = Git(folder: playground.directory.path)
        try git.run(["init", "--quiet"])
        try playground.standardSetup()
        for name in ["ann", "bob", "cat"] {
            let forge = forges[name].map { "forge: \($0)\n" } ?? ""
            let file = "Content/users/\(name).md"
            let text = try playground.directory.read(file)
            try playground.directory.write("---\nemails: [\(name)@example.org]\n\(forge)" + text.dropFirst(4), to: file)
        }
        try git.commit(["."], as: Self.keeper, at: "2026-11-01T00:00:00Z")
        base = try #require(git.output(["rev-parse", "HEAD"]))
    }

    /// Commits every change in the working tree as `who` (a handle, for `<handle>@example.org`, or
    /// an email) at `time`; returns the commit's id.
    @discardableResult
    func commit(as who: String, at time: String) throws -> String {
        try git.commit(["."], as: who.contains("@") ? who : "\(who)@example.org", at: time)
        return try #require(git.output(["rev-parse", "HEAD"]))
    }

    func check(forgeLogin: String? = nil, since: String? = nil) throws -> [ChangeProblem] {
        try PullRequestCheck(layout: ContentLayout(root: playground.root)).run(since: since ?? base, forgeLogin: forgeLogin).problems
    }

    func write(_ text: String, to relative: String) throws { try playground.directory.write(text, to: "Content/\(relative)") }
    func read(_ relative: String) throws -> String { try playground.directory.read("Content/\(relative)") }
    func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: playground.directory.path("Content/\(relative)")) }

    /// Writes a snippet by hand (the CLI would refuse some of them); returns its path.
    @discardableResult
    func snippet(_ author: String, at time: String, round: Int = 1) throws -> String {
        let id = SubmissionID(author: Make.handle(author), time: Make.time(time))
        let path = "projects/moon/rounds/\(Make.number(round).folderName)/submissions/\(id).md"
        try write("---\nauthor: \(author)\nsubmitted: \(time)\n---\n\nBy \(author).\n", to: path)
        return path
    }

    /// Writes a ballot by hand; returns its path.
    @discardableResult
    func ballot(_ voter: String, at time: String, for choices: [String], round: Int = 1) throws -> String {
        let path = "projects/moon/rounds/\(Make.number(round).folderName)/votes/\(voter).yml"
        try write("voter: \(voter)\ncast: \(time)\nfor:\n" + choices.map { "- \($0)\n" }.joined(), to: path)
        return path
    }
}

/// `check --since`: every commit since a revision, judged against the files as they were then.
@Suite(.enabled(if: Git.isInstalled)) struct PullRequestCheckTests {
    func summary(_ problems: [ChangeProblem]) -> [String] {
        problems.map { "\($0.path.split(separator: "/").suffix(2).joined(separator: "/")) \($0.rule.rawValue) \($0.authorEmail)" }
    }

    @Test func contributorsOwnChangesPass() throws {
        let repo = try ChangeRepository()
        // ann and bob submit; bob votes, then replaces his ballot.
        try repo.snippet("ann", at: "2026-11-02T10:00:00Z")
        try repo.commit(as: "ann", at: "2026-11-02T10:01:00Z")
        try repo.snippet("bob", at: "2026-11-02T11:00:00Z")
        try repo.commit(as: "bob", at: "2026-11-02T11:00:00Z")
        try repo.ballot("bob", at: "2026-11-03T00:00:00Z", for: ["ann-20261102100000"])
        try repo.commit(as: "bob", at: "2026-11-03T00:05:00Z")
        try repo.ballot("bob", at: "2026-11-04T00:00:00Z", for: ["ann-20261102100000"])
        try repo.commit(as: "bob", at: "2026-11-04T00:05:00Z")
        // dan registers and votes in one commit; his profile lists the email he commits with.
        try repo.write("---\nname: Dan\njoined: 2026-11-04T00:00:00Z\nemails: [dan@example.org]\n---\n", to: "users/dan.md")
        try repo.ballot("dan", at: "2026-11-04T01:00:00Z", for: ["bob-20261102110000"])
        try repo.commit(as: "Dan@Example.org", at: "2026-11-04T01:00:00Z")
        // ann edits her profile and her project's title, tags and starter text.
        try repo.write(try repo.read("users/ann.md") + "Ann writes at night.\n", to: "users/ann.md")
        let project = try repo.read("projects/moon/project.md")
            .replacingOccurrences(of: "title: The Moon", with: "title: The Late Moon")
            .replacingOccurrences(of: "tags: [space]", with: "tags: [space, night]")
        try repo.write(project + "It was very late.\n", to: "projects/moon/project.md")
        try repo.commit(as: "ann", at: "2026-11-05T00:00:00Z")
        // Files outside the content directory are not the game's.
        try repo.playground.directory.write("# Notes\n", to: "README.md")
        try repo.commit(as: "eve@example.org", at: "2026-11-05T01:00:00Z")

        let report = try PullRequestCheck(layout: ContentLayout(root: repo.playground.root)).run(since: repo.base)
        #expect(report.commits == 7)
        #expect(report.problems == [])
        // And the content they leave is valid as a whole.
        let (content, problems) = repo.playground.reader.loadAll()
        #expect(problems == [])
        #expect(try #require(content).users[Make.handle("dan")]?.emails == ["dan@example.org"])
    }

    @Test func impersonationAndOthersFilesAreReportedWithFileCommitAndRule() throws {
        let repo = try ChangeRepository()
        try repo.snippet("bob", at: "2026-11-02T09:00:00Z")
        try repo.ballot("bob", at: "2026-11-02T09:30:00Z", for: ["ann-20261102100000"])
        try repo.commit(as: "bob", at: "2026-11-02T09:30:00Z")
        // bob commits a snippet in ann's name.
        let forged = try repo.snippet("ann", at: "2026-11-02T10:00:00Z")
        let impersonation = try repo.commit(as: "bob", at: "2026-11-02T10:00:00Z")
        // cat edits bob's ballot, then removes ann's snippet.
        try repo.ballot("bob", at: "2026-11-02T09:30:00Z", for: ["cat-20261102110000"])
        let edit = try repo.commit(as: "cat", at: "2026-11-02T12:00:00Z")
        try repo.remove(forged)
        let removal = try repo.commit(as: "cat", at: "2026-11-02T13:00:00Z")

        let problems = try repo.check()
        #expect(problems.count == 3)
        let first = try #require(problems.first)
        #expect(first.path == "\(repo.playground.root)/\(forged)")
        #expect(first.commit == impersonation)
        #expect(first.authorEmail == "bob@example.org")
        #expect(first.authorName == "bob@example.org")
        #expect(first.rule == .notOwner)
        #expect(first.message == "only @ann may add this snippet; bob@example.org is not one of the emails in @ann's profile")
        #expect(
            first.diagnostic.description
                == "\(first.path):1:1: error: [not-owner] only @ann may add this snippet; bob@example.org is not one of "
                + "the emails in @ann's profile (commit \(impersonation.prefix(7)) by bob@example.org <bob@example.org>)")
        #expect(problems[1].commit == edit)
        #expect(problems[1].path.hasSuffix("votes/bob.yml"))
        #expect(problems[1].message == "only @bob may change this ballot; cat@example.org is not one of the emails in @bob's profile")
        #expect(problems[2].commit == removal)
        #expect(problems[2].message == "only @ann may remove this snippet; cat@example.org is not one of the emails in @ann's profile")
    }

    @Test func aRenameIsARemovalAndAnAddition() throws {
        let repo = try ChangeRepository()
        let ann = try repo.snippet("ann", at: "2026-11-02T10:00:00Z")
        try repo.commit(as: "ann", at: "2026-11-02T10:00:00Z")
        // bob passes ann's snippet off as his own.
        try repo.git.run(["mv", "Content/\(ann)", "Content/projects/moon/rounds/0001/submissions/bob-20261102100000.md"])
        try repo.commit(as: "bob", at: "2026-11-02T11:00:00Z")
        #expect(summary(try repo.check()) == ["submissions/ann-20261102100000.md not-owner bob@example.org"])
    }

    @Test func closedRoundsAreUntouchable() throws {
        let repo = try ChangeRepository()
        let bob = try repo.playground.game("2026-11-02T10:00:00Z").submit(
            to: Make.slug("moon"), by: Make.handle("bob"), ending: false, body: "Bob's turn.")
        _ = try repo.playground.game("2026-11-03T10:00:00Z").vote(in: Make.slug("moon"), by: Make.handle("cat"), for: [bob.id.rawValue])
        try repo.commit(as: ChangeRepository.keeper, at: "2026-11-03T10:00:00Z")
        _ = try repo.playground.game("2026-11-08T00:00:00Z").close(Make.slug("moon"))
        try repo.commit(as: ChangeRepository.keeper, at: "2026-11-08T00:00:00Z")
        // A late snippet and a changed ballot in round 1, a changed round.md; and a fine snippet in round 2.
        try repo.snippet("ann", at: "2026-11-07T00:00:00Z", round: 1)
        try repo.commit(as: "ann", at: "2026-11-09T00:00:00Z")
        try repo.ballot("cat", at: "2026-11-03T10:00:00Z", for: [bob.id.rawValue, "ann-20261107000000"])
        try repo.commit(as: "cat", at: "2026-11-09T01:00:00Z")
        try repo.write(try repo.read("projects/moon/rounds/0001/round.md") + "A note.\n", to: "projects/moon/rounds/0001/round.md")
        try repo.commit(as: "cat", at: "2026-11-09T02:00:00Z")
        try repo.snippet("ann", at: "2026-11-09T03:00:00Z", round: 2)
        try repo.commit(as: "ann", at: "2026-11-09T03:00:00Z")

        let problems = try repo.check()
        #expect(
            summary(problems) == [
                "submissions/ann-20261107000000.md closed-round ann@example.org", "votes/cat.yml closed-round cat@example.org",
                "0001/round.md maintainers-only cat@example.org",
            ])
        #expect(problems[0].message == "round 1 of 'moon' closed at 2026-11-08T00:00:00Z; nothing in it may be added, changed or removed")
        #expect(problems[2].message == "round.md is written by the CLI ('project new', 'close'); only a maintainer may change it")
    }

    @Test func projectFilesAreTheOwnersOnlyForTitleTagsAndStarter() throws {
        let repo = try ChangeRepository()
        let path = "projects/moon/project.md"
        let original = try repo.read(path)
        try repo.write(original.replacingOccurrences(of: "title: The Moon", with: "title: Bob's Moon"), to: path)
        try repo.commit(as: "bob", at: "2026-11-02T00:00:00Z")
        try repo.write(original.replacingOccurrences(of: "rounds: 3", with: "rounds: 5"), to: path)
        try repo.commit(as: "ann", at: "2026-11-02T01:00:00Z")
        // cat makes herself a maintainer, then acts as one: neither counts.
        try repo.write(try repo.read("prolific.yml") + "maintainers: [cat@example.org]\n", to: "prolific.yml")
        try repo.commit(as: "cat", at: "2026-11-02T02:00:00Z")
        try repo.write(try repo.read(path), to: "projects/sun/project.md")
        try repo.write(try repo.read("projects/moon/rounds/0001/round.md"), to: "projects/sun/rounds/0001/round.md")
        try repo.commit(as: "cat", at: "2026-11-02T03:00:00Z")

        let problems = try repo.check()
        #expect(
            summary(problems) == [
                "moon/project.md not-owner bob@example.org", "moon/project.md project-keys ann@example.org",
                "Content/prolific.yml maintainers-only cat@example.org", "sun/project.md maintainers-only cat@example.org",
                "0001/round.md maintainers-only cat@example.org",
            ])
        #expect(problems[0].message == "only @ann may change project.md (its owner); bob@example.org is not one of the emails in @ann's profile")
        #expect(problems[1].message == "the project's owner may change 'title', 'tags' and the starter text; a maintainer changes 'rounds'")
        #expect(problems[1].position == TextPosition(line: 5, column: 9), "at 'rounds' in project.md as that commit left it")
    }

    @Test func entriesStampedOutsideTheirWindowOrAfterTheirCommitAreImplausible() throws {
        let repo = try ChangeRepository()
        try repo.snippet("ann", at: "2026-10-31T23:00:00Z")
        try repo.commit(as: "ann", at: "2026-11-02T00:00:00Z")
        try repo.snippet("bob", at: "2026-11-05T00:00:00Z")
        try repo.commit(as: "bob", at: "2026-11-04T00:00:00Z")
        // The round is still open past its deadline (nobody closed it yet), but the ballot is late.
        try repo.ballot("cat", at: "2026-11-08T00:00:00Z", for: ["bob-20261105000000"])
        try repo.commit(as: "cat", at: "2026-11-09T00:00:00Z")

        let problems = try repo.check()
        #expect(
            summary(problems) == [
                "submissions/ann-20261031230000.md outside-window ann@example.org",
                "submissions/bob-20261105000000.md after-commit bob@example.org", "votes/cat.yml after-deadline cat@example.org",
                "votes/cat.yml outside-window cat@example.org",
            ])
        try #require(problems.count == 4)
        #expect(problems[1].message == "submitted at 2026-11-05T00:00:00Z, after the commit was made at 2026-11-04T00:00:00Z")
        #expect(problems[1].position == TextPosition(line: 3, column: 12))
        #expect(
            problems[3].message
                == "cast at 2026-11-08T00:00:00Z, outside round 1's window (from 2026-11-01T00:00:00Z, before 2026-11-08T00:00:00Z)")
    }

    @Test func entriesCommittedAfterTheDeadlineAreRefused() throws {
        let repo = try ChangeRepository()
        let ann = try repo.snippet("ann", at: "2026-11-02T10:00:00Z")
        try repo.commit(as: "ann", at: "2026-11-02T10:00:00Z")
        try repo.ballot("bob", at: "2026-11-03T00:00:00Z", for: ["ann-20261102100000"])
        try repo.commit(as: "bob", at: "2026-11-03T00:00:00Z")
        #expect(try repo.check() == [])
        // Round 1's deadline is 2026-11-08T00:00:00Z, and nobody has closed it yet. bob changes his
        // choices but keeps his `cast`; ann revises her snippet; cat adds one stamped in time; ann
        // withdraws hers. The commits' own times give them away.
        try repo.ballot("bob", at: "2026-11-03T00:00:00Z", for: ["ann-20261102100000", "cat-20261107000000"])
        let late = try repo.commit(as: "bob", at: "2026-11-08T00:00:00Z")
        try repo.write(try repo.read(ann) + "And then some.\n", to: ann)
        try repo.commit(as: "ann", at: "2026-11-08T01:00:00Z")
        try repo.snippet("cat", at: "2026-11-07T00:00:00Z")
        try repo.commit(as: "cat", at: "2026-11-08T02:00:00Z")
        try repo.remove(ann)
        try repo.commit(as: "ann", at: "2026-11-09T00:00:00Z")

        let problems = try repo.check()
        #expect(
            summary(problems) == [
                "votes/bob.yml after-deadline bob@example.org", "submissions/ann-20261102100000.md after-deadline ann@example.org",
                "submissions/cat-20261107000000.md after-deadline cat@example.org",
                "submissions/ann-20261102100000.md after-deadline ann@example.org",
            ])
        #expect(problems.first?.commit == late)
        #expect(
            problems.first?.message
                == "committed at 2026-11-08T00:00:00Z, not before round 1's deadline (2026-11-08T00:00:00Z); "
                + "nothing in the round may be added, changed or removed once its deadline has passed")
        #expect(problems.first?.position == nil, "about the commit, not a key: 1:1")
    }

    @Test func profilesCanBeRegisteredButNotTakenOver() throws {
        let repo = try ChangeRepository()
        // bob adds his email to ann's profile, then uses it.
        try repo.write(
            try repo.read("users/ann.md").replacingOccurrences(of: "[ann@example.org]", with: "[ann@example.org, bob@example.org]"),
            to: "users/ann.md")
        try repo.commit(as: "bob", at: "2026-11-02T00:00:00Z")
        // eve registers with ann's email; bob registers "dan" for someone else.
        try repo.write("---\nname: Eve\njoined: 2026-11-02T00:00:00Z\nemails: [ann@example.org]\n---\n", to: "users/eve.md")
        try repo.commit(as: "eve", at: "2026-11-02T01:00:00Z")
        try repo.write("---\nname: Dan\njoined: 2026-11-02T00:00:00Z\nemails: [dan@example.org]\n---\n", to: "users/dan.md")
        try repo.commit(as: "bob", at: "2026-11-02T02:00:00Z")
        // cat removes bob's profile.
        try repo.remove("users/bob.md")
        try repo.commit(as: "cat", at: "2026-11-02T03:00:00Z")

        let problems = try repo.check()
        #expect(
            summary(problems) == [
                "users/ann.md not-owner bob@example.org", "users/ann.md email-taken bob@example.org",
                "users/eve.md self-registration eve@example.org", "users/eve.md email-taken eve@example.org",
                "users/dan.md self-registration bob@example.org", "users/bob.md maintainers-only cat@example.org",
            ])
        try #require(problems.count == 6)
        #expect(
            problems[0].message
                == "only @ann may change this profile; bob@example.org is not one of the emails in @ann's profile before this commit")
        #expect(problems[2].message == "a new profile lists its author's email in 'emails'; eve@example.org is not listed")
        #expect(problems[2].position == TextPosition(line: 4, column: 9))
    }

    @Test func aProfileMayNotListAMaintainersEmailOrOneAnotherProfileLists() throws {
        var config = Config.defaults(title: "Test")
        config.maintainers = ["boss@example.org"]
        let repo = try ChangeRepository(config: config)
        func list(_ email: String, in handle: String) throws {
            let path = "users/\(handle).md"
            try repo.write(try repo.read(path).replacingOccurrences(of: "emails: [", with: "emails: [\(email), "), to: path)
        }
        // bob lists a maintainer's email in his own profile: with a forge login, his profile would
        // bind it to his login, and make him a maintainer once merged.
        try list("Boss@Example.org", in: "bob")
        try repo.commit(as: "bob", at: "2026-11-02T00:00:00Z")
        // cat lists the keeper's (who committed prolific.yml), and her new work address.
        try list("keeper@example.org", in: "cat")
        try list("cat@work.example", in: "cat")
        try repo.commit(as: "cat", at: "2026-11-02T01:00:00Z")
        // dan registers with his own email and ann's.
        try repo.write("---\nname: Dan\njoined: 2026-11-02T00:00:00Z\nemails: [dan@example.org, ANN@example.org]\n---\n", to: "users/dan.md")
        try repo.commit(as: "dan", at: "2026-11-02T02:00:00Z")
        // An email of one's own that no other profile lists is fine.
        try list("bob@work.example", in: "bob")
        try repo.commit(as: "bob", at: "2026-11-02T03:00:00Z")

        let problems = try repo.check()
        #expect(
            summary(problems) == [
                "users/bob.md maintainers-only bob@example.org", "users/cat.md maintainers-only cat@example.org",
                "users/dan.md email-taken dan@example.org",
            ])
        try #require(problems.count == 3)
        #expect(problems[0].message == "Boss@Example.org is a maintainer's email; only a maintainer may add it to a profile")
        #expect(problems[0].position == TextPosition(line: 2, column: 9))
        #expect(problems[2].message == "ANN@example.org is already listed in @ann's profile; an email belongs to one profile only")
        #expect(problems[2].position == TextPosition(line: 4, column: 9))
    }

    @Test func aForgeLoginMustMatchTheProfilesAndBindsMaintainers() throws {
        let repo = try ChangeRepository(forges: ["ann": "ann-gh", "cat": "cat-gh"])
        try repo.snippet("ann", at: "2026-11-02T10:00:00Z")
        try repo.commit(as: "ann", at: "2026-11-02T10:00:00Z")
        #expect(try repo.check(forgeLogin: "ann-gh") == [])
        #expect(try repo.check(forgeLogin: "ANN-GH") == [])
        let other = try repo.check(forgeLogin: "mallory")
        #expect(summary(other) == ["submissions/ann-20261102100000.md forge-login ann@example.org"])
        #expect(other.first?.message.hasSuffix("@ann's profile names forge login 'ann-gh', but the pull request is by 'mallory'") == true)
        // bob's profile names no login: his email is enough.
        try repo.snippet("bob", at: "2026-11-02T11:00:00Z")
        try repo.commit(as: "bob", at: "2026-11-02T11:00:00Z")
        #expect(summary(try repo.check(forgeLogin: "bob-gh")) == ["submissions/ann-20261102100000.md forge-login ann@example.org"])
    }

    @Test func maintainersMayDoAnythingTheCLIDoes() throws {
        var config = Config.defaults(title: "Test")
        config.maintainers = ["Boss@Example.org"]
        let repo = try ChangeRepository(config: config)
        let moon = Make.slug("moon")
        let bob = try repo.playground.game("2026-11-02T10:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob.")
        _ = try repo.playground.game("2026-11-03T00:00:00Z").vote(in: moon, by: Make.handle("ann"), for: [bob.id.rawValue])
        try repo.commit(as: "boss@example.org", at: "2026-11-03T00:00:00Z")
        _ = try repo.playground.game("2026-11-08T00:00:00Z").close(moon)
        try repo.write(try repo.read("projects/moon/rounds/0001/round.md") + "Well played.\n", to: "projects/moon/rounds/0001/round.md")
        try repo.commit(as: ChangeRepository.keeper, at: "2026-11-08T00:00:00Z")
        _ = try repo.playground.game("2026-11-08T00:00:00Z").addUser(Make.handle("dan"), name: "Dan", bio: "")
        try repo.write(try repo.read("prolific.yml") + "# Kept by boss.\n", to: "prolific.yml")
        try repo.commit(as: "boss@example.org", at: "2026-11-08T01:00:00Z")
        #expect(try repo.check() == [])

        // With a forge login, a maintainer's email alone proves nothing: a profile must bind it.
        let unbound = try repo.check(forgeLogin: "boss-gh")
        #expect(unbound.count == 6)
        #expect(Set(unbound.map(\.authorEmail)) == ["boss@example.org", ChangeRepository.keeper])
        try repo.write("---\nname: Boss\njoined: 2026-10-01T00:00:00Z\nemails: [boss@example.org]\nforge: boss-gh\n---\n", to: "users/boss.md")
        try repo.commit(as: "boss@example.org", at: "2026-11-08T02:00:00Z")
        // The binding must be on the base revision already: made in the pull request, it is a
        // player's profile listing a maintainer's email, refused too.
        let binding = try repo.check(forgeLogin: "boss-gh")
        #expect(binding.count == 7)
        #expect(summary(Array(binding.suffix(1))) == ["users/boss.md maintainers-only boss@example.org"])
        // Each says why a maintainer's email was judged as a player's.
        #expect(unbound.allSatisfy { $0.message.contains("is a maintainer's email, but the forge binding is missing") })
        #expect(
            unbound.first { $0.authorEmail == "boss@example.org" }?.message.hasSuffix(
                "; boss@example.org is a maintainer's email, but the forge binding is missing: no profile on the base revision "
                    + "lists it in 'emails' with 'forge: boss-gh', so the commit is judged as a player's") == true)
    }

    @Test func aMaintainerBoundToTheForgeLoginIsTrustedWithTheContentInASubfolder() throws {
        var config = Config.defaults(title: "Test")
        config.maintainers = ["boss@example.org"]
        let repo = try ChangeRepository(config: config)
        #expect(repo.playground.root.hasSuffix("/Content"), "the layout 'prolific init' makes: Content/ below the repository's top")
        try repo.write("---\nname: Boss\njoined: 2026-10-01T00:00:00Z\nemails: [Boss@Example.org]\nforge: boss-gh\n---\n", to: "users/boss.md")
        let bound = try repo.commit(as: ChangeRepository.keeper, at: "2026-11-01T01:00:00Z")
        try repo.write(try repo.read("prolific.yml") + "# Kept by boss.\n", to: "prolific.yml")
        try repo.commit(as: "boss@example.org", at: "2026-11-02T00:00:00Z")
        #expect(try repo.check(forgeLogin: "boss-gh", since: bound) == [])
        #expect(try repo.check(forgeLogin: "BOSS-GH", since: bound) == [])
        #expect(summary(try repo.check(forgeLogin: "mallory", since: bound)) == ["Content/prolific.yml maintainers-only boss@example.org"])
    }

    @Test func aPullRequestMayNotTouchARoundThatClosedOnTheBaseBranch() throws {
        let repo = try ChangeRepository()
        let moon = Make.slug("moon")
        // ann's pull request, made while round 1 is open, passes.
        try repo.git.run(["checkout", "--quiet", "-b", "ann-branch"])
        try repo.snippet("ann", at: "2026-11-02T10:00:00Z")
        let annCommit = try repo.commit(as: "ann", at: "2026-11-02T10:00:00Z")
        #expect(try repo.check(since: "main") == [])
        // Meanwhile, main plays round 1 and closes it.
        try repo.git.run(["checkout", "--quiet", "main"])
        let bob = try repo.playground.game("2026-11-02T11:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob.")
        _ = try repo.playground.game("2026-11-03T00:00:00Z").vote(in: moon, by: Make.handle("cat"), for: [bob.id.rawValue])
        try repo.commit(as: ChangeRepository.keeper, at: "2026-11-03T00:00:00Z")
        _ = try repo.playground.game("2026-11-08T00:00:00Z").close(moon)
        try repo.commit(as: ChangeRepository.keeper, at: "2026-11-08T00:00:00Z")

        // Checked again against main, the same pull request would break main once merged.
        try repo.git.run(["checkout", "--quiet", "ann-branch"])
        let problems = try repo.check(since: "main")
        #expect(summary(problems) == ["submissions/ann-20261102100000.md closed-round ann@example.org"])
        #expect(problems.first?.commit == annCommit)
        #expect(
            problems.first?.message
                == "round 1 of 'moon' closed at 2026-11-08T00:00:00Z on the base branch ('main'), so nothing in it may be added, "
                + "changed or removed: withdraw this change, or rebase the pull request on 'main' and make it in an open round")
        // Merging main into the branch hides nothing.
        try repo.git.run(
            ["-c", "user.email=ann@example.org", "-c", "user.name=Ann", "merge", "--quiet", "--no-edit", "main"],
            environment: ["GIT_AUTHOR_DATE": "1794200000 +0000", "GIT_COMMITTER_DATE": "1794200000 +0000"])
        #expect(summary(try repo.check(since: "main")) == ["submissions/ann-20261102100000.md closed-round ann@example.org"])

        // Made on top of main, bob's edit of his winning snippet is refused once, for its commit.
        try repo.git.run(["checkout", "--quiet", "-b", "bob-branch", "main"])
        let winner = "projects/moon/rounds/0001/submissions/\(bob.id).md"
        try repo.write(try repo.read(winner) + "Bob again.\n", to: winner)
        try repo.commit(as: "bob", at: "2026-11-09T00:00:00Z")
        #expect(summary(try repo.check(since: "main")) == ["submissions/\(bob.id).md closed-round bob@example.org"])
        // A maintainer may still edit a closed round (a winner's text is the story's).
        try repo.git.run(["checkout", "--quiet", "-b", "keeper-branch", "main"])
        try repo.write(try repo.read(winner) + "Edited.\n", to: winner)
        try repo.commit(as: ChangeRepository.keeper, at: "2026-11-09T00:00:00Z")
        #expect(try repo.check(since: "main") == [])
    }

    @Test func aMergeIsJudgedOnlyOnWhatItChangedItself() throws {
        let repo = try ChangeRepository()
        try repo.git.run(["checkout", "--quiet", "-b", "ann-branch"])
        try repo.snippet("ann", at: "2026-11-02T10:00:00Z")
        try repo.commit(as: "ann", at: "2026-11-02T10:00:00Z")
        try repo.git.run(["checkout", "--quiet", "main"])
        let bob = try repo.snippet("bob", at: "2026-11-02T11:00:00Z")
        try repo.commit(as: "bob", at: "2026-11-02T11:00:00Z")
        // cat merges ann's branch: nothing of her own.
        try repo.git.run(
            ["-c", "user.email=cat@example.org", "-c", "user.name=Cat", "merge", "--quiet", "--no-edit", "ann-branch"],
            environment: ["GIT_AUTHOR_DATE": "1793700000 +0000", "GIT_COMMITTER_DATE": "1793700000 +0000"])
        #expect(try repo.check() == [])
        // A merge that slips in a change to bob's snippet is judged for it.
        try repo.git.run(["checkout", "--quiet", "-b", "other", "HEAD~1"])
        try repo.ballot("cat", at: "2026-11-03T00:00:00Z", for: ["bob-20261102110000"])
        try repo.commit(as: "cat", at: "2026-11-03T00:00:00Z")
        try repo.git.run(["checkout", "--quiet", "main"])
        try repo.git.run(
            ["-c", "user.email=cat@example.org", "-c", "user.name=Cat", "merge", "--quiet", "--no-commit", "other"])
        try repo.write(try repo.read(bob) + "Cat was here.\n", to: bob)
        try repo.git.run(["add", "."])
        try repo.git.run(
            ["-c", "user.email=cat@example.org", "-c", "user.name=Cat", "commit", "--quiet", "--no-edit"],
            environment: ["GIT_AUTHOR_DATE": "1793800000 +0000", "GIT_COMMITTER_DATE": "1793800000 +0000"])
        let merge = try #require(repo.git.output(["rev-parse", "HEAD"]))
        let problems = try repo.check()
        #expect(summary(problems) == ["submissions/bob-20261102110000.md not-owner cat@example.org"])
        #expect(problems.first?.commit == merge)
        #expect(problems.first?.authorName == "Cat")
    }

    @Test func aBadRevisionOrNoRepositoryIsOneClearError() throws {
        let repo = try ChangeRepository()
        let check = PullRequestCheck(layout: ContentLayout(root: repo.playground.root))
        #expect(
            thrown { () throws(Diagnostics) in try check.run(since: "no-such-branch") }
                == [
                    "error: 'no-such-branch' is not a commit of the repository; --since takes a revision such as origin/main or a commit id"
                ])
        #expect(thrown { () throws(Diagnostics) in try check.run(since: "--output=x") }?.count == 1)
        #expect(try check.run(since: "HEAD").commits == 0)

        let outside = try Playground()
        if Git(folder: outside.root).output(["rev-parse", "--is-inside-work-tree"]) == nil {
            let lone = PullRequestCheck(layout: ContentLayout(root: outside.root))
            #expect(
                thrown { () throws(Diagnostics) in try lone.run(since: "HEAD") }
                    == ["error: '\(outside.root)' is not in a git repository; --since judges the commits since a revision, so it needs one"])
        }
    }
}

/// What each path of a content directory is, for judging a change to it.
@Suite struct ContentFileTests {
    @Test func pathsAreClassifiedByTheLayout() {
        let moon = Make.slug("moon"), one = Make.number(1)
        #expect(ContentLayout.file(at: "prolific.yml") == .config)
        #expect(ContentLayout.file(at: "users/ann.md") == .profile(Make.handle("ann")))
        #expect(ContentLayout.file(at: "users/ann.JPG") == .avatar(Make.handle("ann")))
        #expect(ContentLayout.file(at: "projects/moon/project.md") == .project(moon))
        #expect(ContentLayout.file(at: "projects/moon/rounds/0001/round.md") == .round(moon, one))
        #expect(
            ContentLayout.file(at: "projects/moon/rounds/0001/submissions/ann-20261102100000.md")
                == .submission(moon, one, Make.id("ann-20261102100000")))
        #expect(ContentLayout.file(at: "projects/moon/rounds/0001/votes/bob.yml") == .ballot(moon, one, Make.handle("bob")))
        let report = ReportID(reporter: Make.handle("dan"), time: Make.time("2026-11-04T12:00:00Z"))
        #expect(ContentLayout.file(at: "reports/dan-20261104120000.md") == .report(report))
        for other in [
            "users/Ann.md", "users/ann.txt", "users/pics/ann.png", "projects/moon/cover.png", "projects/moon/rounds/1/round.md",
            "projects/moon/rounds/0001/votes/bob.yaml", "projects/moon/rounds/0001/submissions/ann.md", "README.md", "prolific.yaml",
        ] {
            #expect(ContentLayout.file(at: other) == .other, "\(other)")
        }
        #expect(ContentLayout.file(at: ".prolific/history.cache") == nil)
        #expect(ContentLayout.file(at: "users/.ann.md.swp") == nil)
        #expect(ContentLayout.relativePath(of: .round(moon, one)) == "projects/moon/rounds/0001/round.md")
        #expect(ContentLayout.relativePath(of: .profile(Make.handle("ann"))) == "users/ann.md")
    }
}
