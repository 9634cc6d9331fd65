import Foundation
import Testing

@testable import ProlificStore

/// `prolific build` as a maintainer runs it: the demo content, twice, quietly, and after a mistake.
@Suite struct BuildCommandTests {
    static let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Content").path
    static let now = "2026-11-22T12:00:00Z"

    /// A new folder with a copy of the demo content as `Content/`. `settled` waits out the two
    /// seconds in which new files never vouch for themselves (to the caches and kept pages).
    static func demoCopy(settled: Bool = false) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: demo, toPath: folder.url.appendingPathComponent("Content").path)
        if settled { Thread.sleep(forTimeInterval: 2.1) }
        return folder
    }

    /// `build --content Content --out OUT --now now` in `folder`, which must succeed.
    static func build(_ out: String, in folder: TemporaryFolder, _ extra: [String] = []) throws {
        let result = try CLI.run(["build", "--content", "Content", "--out", out, "--now", now] + extra, in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The site a build makes of a copy of `folder`'s `Content/` without its caches. A fresh
    /// build of the content itself would leave its build stamp describing that build, so the
    /// next rebuild of the site under test would keep nothing and prove nothing.
    static func freshSite(in folder: TemporaryFolder, now: String = now, _ extra: [String] = []) throws -> [String: Data] {
        let files = FileManager.default
        for path in ["fresh", "fresh-content"] { try? files.removeItem(at: folder.url.appendingPathComponent(path)) }
        try files.createDirectory(at: folder.url.appendingPathComponent("fresh-content"), withIntermediateDirectories: false)
        try files.copyItem(at: folder.url.appendingPathComponent("Content"), to: folder.url.appendingPathComponent("fresh-content/Content"))
        try? files.removeItem(at: folder.url.appendingPathComponent("fresh-content/Content/.prolific"))
        let result = try CLI.run(["build", "--content", "fresh-content/Content", "--out", "fresh", "--now", now] + extra, in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        return try folder.snapshot("fresh")
    }

    @Test func theSameContentAndMomentGiveAByteIdenticalSite() throws {
        let folder = try TemporaryFolder()
        for out in ["a", "b"] {
            let result = try CLI.run(["build", "--content", Self.demo, "--out", out, "--now", Self.now], in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let a = try folder.snapshot("a"), b = try folder.snapshot("b")
        #expect(a.count > 40, "the demo has pages, feeds, a calendar, an EPUB, images")
        #expect(a == b)
        #expect(a.keys.contains("/projects/gannet-rock/gannet-rock.epub"))
        #expect(a.keys.contains("/users/ann.png"), "avatars are copied")
    }

    /// Files dated centuries away (any user can `touch -d 2300-01-01`) are read and built like
    /// any other, with the caches a build keeps: their times in nanoseconds wrap rather than
    /// trap. A build crashed on them once.
    @Test func filesDatedCenturiesAwayAreBuilt() throws {
        let folder = try Self.demoCopy()
        let content = folder.url.appendingPathComponent("Content").path
        let dated = [("users/ann.md", 10_413_792_000), ("prolific.yml", -11_676_096_000)]
        for (path, seconds) in dated {
            var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, "\(content)/\(path)", &times, 0) == 0, "\(path)")
        }
        for _ in 0..<2 { try Self.build("site", in: folder) }
        let close = try CLI.run(["close", "--due", "--content", "Content", "--now", Self.now], in: folder.url)
        #expect(close.status == 0, "\(close.stderr)")
    }

    @Test func progressOnlyOnATerminalAndNothingWhenQuiet() throws {
        let folder = try TemporaryFolder()
        let plain = try CLI.run(["build", "--content", Self.demo, "--out", "site", "--now", Self.now], in: folder.url)
        #expect(plain.status == 0)
        #expect(!plain.stderr.contains("Rendering"), "no progress without a terminal")
        #expect(plain.stderr.hasPrefix("Built ") && plain.stderr.split(separator: "\n").count == 1, "\(plain.stderr)")
        let quiet = try CLI.run(["build", "--content", Self.demo, "--out", "site", "--now", Self.now, "--quiet"], in: folder.url)
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty && quiet.stdout.isEmpty)
    }

    /// `--timings` names every stage once, in order, with its wall and CPU seconds, then says how
    /// git's evidence, the replay and the standings were had.
    @Test func timingsNameEachStage() throws {
        let folder = try TemporaryFolder()
        let result = try CLI.run(
            ["build", "--content", Self.demo, "--out", "site", "--now", Self.now, "--quiet", "--timings"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.trimmingCharacters(in: .newlines).components(separatedBy: "\n")
        // Then how the build had git's evidence (the demo is in Prolific's repository, when it is
        // a clone; "none" outside one), the replay of the closed rounds and the standings (the
        // demo's caches are shared).
        #expect(
            lines.count == 4 && lines[1].hasPrefix("git's evidence") && lines[2].contains("16 closed rounds")
                && lines[3].hasPrefix("standings ") && lines[3].contains(" project"), "\(result.stderr)")
        let stages = lines[0].components(separatedBy: ", ").map { $0.split(separator: " ").map(String.init) }
        #expect(
            stages.map { $0.dropLast(5).joined(separator: " ") } == [
                "load", "theme and git", "model", "pages", "cards", "indexes and feeds", "books", "static", "media",
                "swap", "write", "stamp",
            ], "\(result.stderr)")
        // Each with its seconds, then `(… s CPU)`.
        for stage in stages {
            let tail = stage.suffix(5)
            #expect(stage.count >= 6 && tail.dropFirst().first == "s" && Double(tail.first ?? "") != nil, "\(stage)")
            #expect(Array(tail.suffix(3)).first.map { $0.hasPrefix("(") && Double($0.dropFirst()) != nil } == true, "\(stage)")
            #expect(Array(tail.suffix(2)) == ["s", "CPU)"], "\(stage)")
        }
        // CPU seconds are counted: the whole build used some.
        let cpu = stages.compactMap { Double($0.suffix(3).first?.dropFirst() ?? "") }.reduce(0, +)
        #expect(cpu > 0, "\(result.stderr)")
    }

    @Test func aFailedBuildLeavesThePreviousSite() throws {
        let folder = try TemporaryFolder()
        _ = try CLI.run(["init", "game"], in: folder.url)
        let first = try CLI.run(["build", "--content", "game/Content", "--out", "game/Site", "--now", Self.now], in: folder.url)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try folder.snapshot("game/Site")
        try folder.write("---\nname: [unclosed\n---\n", to: "game/Content/users/eve.md")
        let second = try CLI.run(["build", "--content", "game/Content", "--out", "game/Site", "--now", Self.now], in: folder.url)
        #expect(second.status == 1)
        #expect(second.stderr.contains("game/Content/users/eve.md:"), "\(second.stderr)")
        #expect(try folder.snapshot("game/Site") == before)
    }

    /// Batches are written on a thread of their own while the next ones render: a file that
    /// can't be written there still fails the build, with the reason, and the site stays as it
    /// was. The file is the spare's home page made immutable (`chattr +i`, which even root may
    /// not replace); where that can't be done (another file system, no `chattr`), the test
    /// has nothing to try.
    @Test func aFileTheWriterCannotWriteFailsTheBuildAndLeavesTheSite() throws {
        let folder = try Self.demoCopy()
        try Self.build("Site", in: folder)
        try Self.build("Site", in: folder, ["--now", "2026-11-22T13:00:00Z"])
        let blocked = folder.url.appendingPathComponent(".Site.spare/index.html").path
        guard (try? Shell.run(["chattr", "+i", blocked], in: folder.url)) != nil else { return }
        // Wherever the failed build leaves the file (its folder is removed, all but that file).
        defer { _ = try? Shell.run(["chattr", "-R", "-i", "."], in: folder.url) }
        let before = try folder.snapshot("Site")
        let project = try folder.read("Content/projects/gannet-rock/project.md")
        try folder.write(
            project.replacingOccurrences(of: "The Keeper of Gannet Rock", with: "The Keeper of Gannet Reef"),
            to: "Content/projects/gannet-rock/project.md")
        let result = try CLI.run(["build", "--content", "Content", "--out", "Site", "--now", Self.now], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write the site"), "\(result.stderr)")
        #expect(result.stderr.contains("index.html"), "\(result.stderr)")
        #expect(try folder.snapshot("Site") == before)
    }

    /// A rebuild takes the projects whose files are unchanged from `.prolific/projects/`: after a
    /// project is edited, it gives the same site, byte for byte, as a build without any cache.
    @Test func aRebuildFromTheProjectCacheIsTheSiteAFullBuildMakes() throws {
        // Files changed less than two seconds before a build are never taken from a cache.
        let folder = try Self.demoCopy(settled: true)
        func build(_ out: String, _ extra: [String] = []) throws { try Self.build(out, in: folder, extra) }
        try build("site")
        let files = FileManager.default
        let cached = try files.contentsOfDirectory(atPath: folder.url.appendingPathComponent("Content/.prolific/projects").path)
        let projects = try files.contentsOfDirectory(atPath: Self.demo + "/projects").map { "\($0).cache" }
        #expect(cached.sorted() == projects.sorted(), "every project is kept")

        let project = try folder.read("Content/projects/gannet-rock/project.md")
        try folder.write(
            project.replacingOccurrences(of: "The Keeper of Gannet Rock", with: "The Keeper of Gannet Reef"),
            to: "Content/projects/gannet-rock/project.md")
        // Settled too, so only its changed key keeps the project from being taken from the cache.
        Thread.sleep(forTimeInterval: 2.1)
        try build("site")
        #expect(try folder.read("site/projects/gannet-rock/index.html").contains("Gannet Reef"))

        try files.removeItem(at: folder.url.appendingPathComponent("Content/.prolific"))
        try build("fresh")
        #expect(try folder.snapshot("site") == folder.snapshot("fresh"))
    }

    /// From the third build on, a build rewrites the site the one before it replaced (the spare)
    /// instead of an empty folder: what it adds, changes and removes lands as a fresh build makes it.
    @Test func aRebuildIntoTheSpareIsTheSiteAFreshBuildMakes() throws {
        let folder = try Self.demoCopy()
        func build(_ out: String, _ extra: [String] = []) throws { try Self.build(out, in: folder, extra) }
        try folder.write("---\nname: Zed\njoined: 2026-01-01T00:00:00Z\n---\nPassing through.\n", to: "Content/users/zed.md")
        try build("site")
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("site/users/zed/index.html").path))
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Content/users/zed.md"))
        try build("site")
        let project = try folder.read("Content/projects/gannet-rock/project.md")
        try folder.write(
            project.replacingOccurrences(of: "The Keeper of Gannet Rock", with: "The Keeper of Gannet Reef"),
            to: "Content/projects/gannet-rock/project.md")
        let spare = folder.url.appendingPathComponent(".site.spare").path
        let spareInode = try FileManager.default.attributesOfItem(atPath: spare)[.systemFileNumber] as? Int
        #expect(FileManager.default.fileExists(atPath: "\(spare)/users/zed/index.html"), "the spare is the first site")
        try build("site")
        let siteInode = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("site").path)[.systemFileNumber] as? Int
        #expect(siteInode == spareInode, "the third build did not rewrite the spare")

        try build("fresh")
        #expect(try folder.snapshot("site") == folder.snapshot("fresh"))
        #expect(try !folder.snapshot("site").keys.contains("users/zed/index.html"))
    }

    /// A page whose values are those the last build rendered keeps its file (not rendered, not
    /// written); a page file edited by hand since is rendered again; a theme change renders all.
    @Test func unchangedPagesKeepTheirFileAndEditedOnesAreRenderedAgain() throws {
        let folder = try Self.demoCopy()
        func build(_ out: String, _ extra: [String] = []) throws { try Self.build(out, in: folder, extra) }
        func inode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent(path).path)[.systemFileNumber] as? Int
        }
        try build("site")
        let round = "site/projects/gannet-rock/rounds/0001.html", user = "site/users/ann/index.html"
        let roundInode = try inode(round)
        // Hand-edited in place (same inode): its metadata no longer matches the stamp.
        let edited = try folder.read(user) + "<!-- edited -->"
        let handle = try FileHandle(forWritingTo: folder.url.appendingPathComponent(user))
        handle.seekToEndOfFile()
        handle.write(Data("<!-- edited -->".utf8))
        try handle.close()
        #expect(try folder.read(user) == edited)
        try folder.write("---\nname: Zed\njoined: 2026-01-01T00:00:00Z\n---\nNew here.\n", to: "Content/users/zed.md")
        try build("site")
        #expect(try inode(round) == roundInode, "an unchanged page was written again")
        #expect(try !folder.read(user).contains("<!-- edited -->"), "a page edited by hand was kept")
        #expect(try folder.snapshot("site") == Self.freshSite(in: folder))

        // The built-in theme written out, one template changed: every page is rendered again.
        _ = try CLI.run(["init", "game", "--title", "Themes"], in: folder.url)
        let base = try folder.read("game/Templates/base.mustache")
        try folder.write(base.replacingOccurrences(of: "</body>", with: "<!-- themed --></body>"), to: "game/Templates/base.mustache")
        try build("site", ["--templates", "game/Templates"])
        #expect(try folder.read(round).contains("<!-- themed -->"))
        try build("fresh", ["--templates", "game/Templates"])
        #expect(try folder.snapshot("site") == folder.snapshot("fresh"))
    }

    /// Closed rounds' pages are kept by their inputs when their project's files are settled;
    /// what else they show (a player's name, a vote's weight, which depends on the voter's
    /// account age) still reaches them, and the rebuilt site is the one a fresh build makes.
    @Test func roundPagesKeptByTheirInputsFollowPlayersAndWeights() throws {
        // Files changed less than two seconds before a build never vouch for themselves.
        let folder = try Self.demoCopy(settled: true)
        func build(_ out: String, _ extra: [String] = []) throws { try Self.build(out, in: folder, extra) }
        try build("site")
        let users = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("Content/users").path)
            .filter { $0.hasSuffix(".md") }
        func editUsers(_ from: String, _ to: String) throws {
            for name in users {
                let path = "Content/users/\(name)"
                let text = try folder.read(path)
                #expect(text.contains(from))
                try folder.write(text.replacingOccurrences(of: from, with: to), to: path)
            }
        }
        let round = "site/projects/gannet-rock/rounds/0002.html"
        #expect(try folder.read(round).contains("joined 15 days before"))
        // Every player a year older: their votes weigh differently (a page shows voters by
        // handle, so only the weights' explanations change).
        try editUsers("joined: 2026-", "joined: 2025-")
        try build("site")
        #expect(try !folder.read(round).contains("joined 15 days before"), "weights on a round's page follow the replay")
        #expect(try folder.snapshot("site") == Self.freshSite(in: folder))
        // Every player renamed: the pages that show their names follow.
        try editUsers("name: ", "name: Sir ")
        try build("site")
        #expect(try folder.read(round).contains(">Sir "), "names on a round's page follow the profiles")
        #expect(try folder.snapshot("site") == Self.freshSite(in: folder))
    }

    /// A rebuild that keeps the last build's replay but renders every page again (another theme)
    /// decodes each round's explanation from the kept replay's bytes as its page asks: the site is
    /// the one a build without caches makes.
    @Test func roundPagesRenderedFromAKeptReplayAreTheFreshOnes() throws {
        let folder = try Self.demoCopy(settled: true)
        try Self.build("site", in: folder)
        let cache = folder.url.appendingPathComponent("Content/.prolific/replay.cache").path
        func identity() throws -> [FileAttributeKey: Any] { try FileManager.default.attributesOfItem(atPath: cache) }
        let saved = try identity()
        _ = try CLI.run(["init", "game", "--title", "Themes"], in: folder.url)
        let base = try folder.read("game/Templates/base.mustache")
        try folder.write(base.replacingOccurrences(of: "</body>", with: "<!-- themed --></body>"), to: "game/Templates/base.mustache")
        try Self.build("site", in: folder, ["--templates", "game/Templates"])
        let kept = try identity()
        #expect(kept[.systemFileNumber] as? Int == saved[.systemFileNumber] as? Int, "the replay was kept, not saved again")
        #expect(kept[.modificationDate] as? Date == saved[.modificationDate] as? Date)
        let round = "site/projects/gannet-rock/rounds/0002.html"
        #expect(try folder.read(round).contains("<!-- themed -->") && folder.read(round).contains("joined 15 days before"))
        #expect(try folder.snapshot("site") == Self.freshSite(in: folder, ["--templates", "game/Templates"]))
    }

    /// A sealed round's files are told by their folders' times (docs/maintaining.md): an edit in
    /// place of a sealed snippet is tampering, which `check` reports and a build with nothing
    /// else to do doesn't see, nor a rebuild after a change in another project (it checks the
    /// projects it keeps the same way); the next build after a change in its project reads it,
    /// and its site is the fresh one. A sealed file replaced, as git and editors that save by
    /// renaming do, is seen at once.
    @Test func aSealedRoundsFilesAreToldByTheirFolders() throws {
        let folder = try Self.demoCopy(settled: true)
        func build() throws -> String {
            let result = try CLI.run(["build", "--content", "Content", "--out", "site", "--now", Self.now], in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr
        }
        func siteShows(_ text: String) throws -> Bool {
            try folder.snapshot("site").values.contains { String(decoding: $0, as: UTF8.self).contains(text) }
        }
        // The demo's rounds closed before seals existed: `close` seals this one.
        let closed = try CLI.run(["close", "the-town-that-sold-tuesday", "--content", "Content", "--now", Self.now], in: folder.url)
        #expect(closed.status == 0, "\(closed.stderr)")
        Thread.sleep(forTimeInterval: 2.1)
        _ = try build()
        let snippet = "Content/projects/the-town-that-sold-tuesday/rounds/0004/submissions/ann-20261120100000.md"
        let original = try folder.read(snippet)
        try folder.writeInPlace(original + "\nTAMPERED in place.\n", to: snippet)
        #expect(try build().hasPrefix("site/ is up to date"))
        #expect(try !siteShows("TAMPERED in place"))
        let check = try CLI.run(["check", "--content", "Content", "--now", Self.now], in: folder.url)
        #expect(check.status != 0 && check.stdout.contains("ann-20261120100000.md:1:1: error: changed after round 4 closed"), "\(check.stdout)")
        // Its note points at the line round.md lists the snippet on, at the hash.
        let roundFile = "Content/projects/the-town-that-sold-tuesday/rounds/0004/round.md"
        let lines = try folder.read(roundFile).split(separator: "\n", omittingEmptySubsequences: false)
        let listed = try #require(lines.firstIndex { $0.hasPrefix("    submissions/ann-20261120100000.md: ") })
        let column = "    submissions/ann-20261120100000.md: ".count + 1
        #expect(check.stdout.contains("\(roundFile):\(listed + 1):\(column): note: sealed here when the round closed"), "\(check.stdout)")
        // Something else to do, in another project: a ballot. The tampered project is kept.
        let vote = try CLI.run(
            ["vote", "long-patience", "--voter", "eitan", "bram-20261119150000", "--content", "Content", "--now", Self.now], in: folder.url)
        #expect(vote.status == 0, "\(vote.stderr)")
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try !build().contains("up to date"))
        #expect(try !siteShows("TAMPERED in place"))
        // The stamp that rebuild wrote vouches for the kept project's sealed files as the last
        // one did (it takes what that stamp said): the next build has nothing to do.
        #expect(try build().hasPrefix("site/ is up to date"))
        // A change in its project: its project.md written again, as a new file.
        let project = "Content/projects/the-town-that-sold-tuesday/project.md"
        let text = try folder.read(project)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent(project))
        try folder.write(text, to: project)
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try !build().contains("up to date"))
        #expect(try siteShows("TAMPERED in place"))
        #expect(try folder.snapshot("site") == Self.freshSite(in: folder))
        // Replaced by renaming: the folder's times move.
        Thread.sleep(forTimeInterval: 2.1)
        try folder.write(original + "\nREPLACED by renaming.\n", to: snippet + ".tmp")
        #expect(rename(folder.url.appendingPathComponent(snippet + ".tmp").path, folder.url.appendingPathComponent(snippet).path) == 0)
        #expect(try !build().contains("up to date"))
        #expect(try siteShows("REPLACED by renaming"))
        #expect(try folder.snapshot("site") == Self.freshSite(in: folder))
    }

    /// A round counted from its record (`close` records its ballots) has its `votes/` folder
    /// vouched for: a build reads nothing in it, so a ballot added there (which `check` warns
    /// about) is not looked at by a build with nothing else to do, nor by a rebuild that keeps its
    /// project, and the site is the fresh one.
    @Test func aRecordedRoundsVotesFolderIsNotLookedAt() throws {
        let folder = try Self.demoCopy(settled: true)
        func build() throws -> String {
            let result = try CLI.run(["build", "--content", "Content", "--out", "site", "--now", Self.now, "--timings"], in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr
        }
        let closed = try CLI.run(["close", "the-town-that-sold-tuesday", "--content", "Content", "--now", Self.now], in: folder.url)
        #expect(closed.status == 0, "\(closed.stderr)")
        Thread.sleep(forTimeInterval: 2.1)
        _ = try build()
        let votes = "Content/projects/the-town-that-sold-tuesday/rounds/0004/votes"
        try folder.write("voter: zed\ncast: 2026-11-21T00:00:00Z\nfor:\n- ann-20261120100000\n", to: "\(votes)/zed.yml")
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try build().hasPrefix("site/ is up to date"))
        let check = try CLI.run(["check", "--content", "Content", "--now", Self.now], in: folder.url)
        #expect(check.stdout.contains("\(votes)/zed.yml:1:1: warning: added after round 4 closed"), "\(check.stdout)")
        // A ballot in another project: the project with the recorded round is kept, not read.
        let vote = try CLI.run(
            ["vote", "long-patience", "--voter", "eitan", "bram-20261119150000", "--content", "Content", "--now", Self.now], in: folder.url)
        #expect(vote.status == 0, "\(vote.stderr)")
        Thread.sleep(forTimeInterval: 2.1)
        let rebuilt = try build()
        #expect(rebuilt.contains("standings kept from the last build, 1 project counted again"), "\(rebuilt)")
        #expect(try folder.snapshot("site") == Self.freshSite(in: folder))
        #expect(try build().hasPrefix("site/ is up to date"))
        // A close in another project takes the history as the builds saved it, and the build
        // after it adds that round to the replay as `close` tallied it: the kept project's old
        // entry for the votes folder and `close`'s look at it agree, both left out of the
        // round's stamp in the history (`HistoryCache.Stamp.asKept(for:)`).
        let history = folder.url.appendingPathComponent("Content/.prolific/history.cache").path
        let before = try FileManager.default.attributesOfItem(atPath: history)[.systemFileNumber] as? Int
        let later = "2026-11-22T13:00:00Z"
        let other = try CLI.run(["close", "long-patience", "--content", "Content", "--now", later], in: folder.url)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: history)[.systemFileNumber] as? Int == before, "taken, not saved again")
        Thread.sleep(forTimeInterval: 2.1)
        let after = try CLI.run(["build", "--content", "Content", "--out", "site", "--now", later, "--timings"], in: folder.url)
        #expect(after.status == 0 && after.stderr.contains("1 closed round added to the last build's replay"), "\(after.stderr)")
        #expect(after.stderr.contains("as close tallied it"), "\(after.stderr)")
    }

    /// Profiles and project pages are kept by their inputs too: after each thing a game does
    /// through the CLI (a ballot, a snippet, a follow, a close, a rename, a later moment), the
    /// rebuilt site is the one a fresh build makes, byte for byte.
    @Test func pagesKeptByTheirInputsFollowEveryAction() throws {
        let folder = try Self.demoCopy(settled: true)
        var now = Self.now
        @discardableResult
        func build(_ out: String) throws -> String {
            let result = try CLI.run(["build", "--content", "Content", "--out", out, "--now", now, "--timings"], in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr
        }
        func act(_ arguments: [String], input: String = "") throws {
            let result = try CLI.run(arguments + ["--content", "Content", "--now", now], in: folder.url, input: input)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        /// `replay`: how the build had its replay, as `--timings` says; `counted`: how many
        /// projects it counted the standings of again (the others' parts are the last build's).
        func expectRebuildIsFresh(
            _ step: String, replay: String = "kept from the last build", notSaid: String? = nil, counted: Int = 1
        ) throws {
            Thread.sleep(forTimeInterval: 2.1)
            let said = try build("site")
            #expect(said.contains(replay), "after \(step): \(said)")
            if let notSaid { #expect(!said.contains(notSaid), "after \(step): \(said)") }
            let standings = "standings kept from the last build, \(counted) project\(counted == 1 ? "" : "s") counted again"
            #expect(said.contains(standings), "after \(step): \(said)")
            #expect(try folder.snapshot("site") == Self.freshSite(in: folder, now: now), "after \(step)")
            // The stamp's record of the site, taken as it was written, is the site: every entry
            // as recorded, as many as a walk finds, and the next build has nothing to do.
            let stamp = BuildStamp.load(ContentLayout(root: folder.url.appendingPathComponent("Content").path))
            let walked = FileInventory.take(of: folder.url.appendingPathComponent("site").path, guardingRacyWrites: false)
            #expect(stamp != nil && stamp?.site.count == walked?.count, "after \(step)")
            let (recorded, found) = (stamp?.site.entryPaths(), walked?.entryPaths())
            #expect(Set(recorded?.folders ?? []) == Set(found?.folders ?? ["?"]), "after \(step)")
            #expect(Set(recorded?.others ?? []) == Set(found?.others ?? ["?"]), "after \(step)")
            let again = try CLI.run(["build", "--content", "Content", "--out", "site", "--now", now], in: folder.url)
            #expect(again.stderr.hasPrefix("site/ is up to date"), "after \(step): \(again.stderr)")
        }
        // The copy is in a temporary folder, outside any repository (unless the machine's is).
        let first = try build("site")
        if (try? Shell.run(["git", "rev-parse", "--is-inside-work-tree"], in: folder.url)) == nil {
            #expect(first.contains("git's evidence: none (not in a git repository with a commit)"), "\(first)")
        }
        try act(["vote", "long-patience", "--voter", "eitan", "bram-20261119150000"])
        try expectRebuildIsFresh("a ballot")
        try act(["submit", "the-marmalade-job", "--author", "ann"], input: "The jar was empty after all.\n")
        try expectRebuildIsFresh("a snippet")
        try act(["follow", "bram", "--user", "hana"])
        try act(["follow", "bram", "--project", "gannet-rock"])
        try expectRebuildIsFresh("a follow", counted: 0)
        try act(["close", "the-town-that-sold-tuesday"])
        // A ballot in another project after the close: that project's part of the round's past
        // is checked again, from the stamps of its rounds.
        try act(["vote", "long-patience", "--voter", "fumiko", "dana-20261120180000"])
        // The round closed is added to the last replay, as a whole replay would have it: with
        // the tally `close` made and handed over (`HandedTallies`).
        try expectRebuildIsFresh("a close", replay: "1 closed round added to the last build's replay of 16, as close tallied it", counted: 2)
        // Again, a minute later, without the tally handed over: the build tallies the round
        // against the history `close` keeps, which now lacks the round closed before
        // (`HistoryCache.lagLimit`) and which the build records from what it read.
        now = "2026-11-22T12:01:00Z"
        try act(["close", "the-marmalade-job"])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Content/.prolific/handed.tallies"))
        try expectRebuildIsFresh(
            "a second close", replay: "1 closed round added to the last build's replay of 17", notSaid: "as close tallied")
        // Dana wrote a chapter of gannet-rock, a complete story: its book is kept by its inputs
        // too, the names of its authors among them.
        let book = "projects/gannet-rock/gannet-rock.epub"
        let layout = ContentLayout(root: folder.url.appendingPathComponent("Content").path)
        #expect(BuildStamp.load(layout)?.fingerprints[book] != nil)
        let bookBefore = try Data(contentsOf: folder.url.appendingPathComponent("site/" + book))
        for handle in ["hana", "dana"] {
            let profile = try folder.read("Content/users/\(handle).md")
            try folder.write(profile.replacingOccurrences(of: "name: ", with: "name: Dr "), to: "Content/users/\(handle).md")
        }
        try expectRebuildIsFresh("a rename", counted: 0)
        #expect(try folder.read("site/projects/long-patience/index.html").contains("Dr "))
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("site/" + book)) != bookBefore)
        now = "2026-11-22T18:00:00Z"
        try expectRebuildIsFresh("six hours later", counted: 0)
        now = "2026-12-02T12:00:00Z"
        try expectRebuildIsFresh("ten days later", counted: 0)
        // Rounds closed past their deadlines (Nov 25 and Nov 26), one after the other: each is
        // tallied as of its deadline, so the second's past lacks the first, closed since. Both
        // are added to the replay, the second without the tally handed over (against the history
        // `close` keeps, the first recorded after it), as a whole replay would have them.
        try act(["close", "long-patience"])
        try expectRebuildIsFresh("an overdue close", replay: "1 closed round added to the last build's replay of 18, as close tallied it")
        now = "2026-12-02T12:05:00Z"
        try act(["close", "what-the-spinner-wanted"])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Content/.prolific/handed.tallies"))
        try expectRebuildIsFresh(
            "a close due before the last one", replay: "1 closed round added to the last build's replay of 19", notSaid: "as close tallied")
    }

    /// A build run right after `close` (its files changed in the last two seconds, so the replay
    /// cache has no key) fingerprints each round page as a build with the cache does: by the
    /// round's bytes. Otherwise every round page of the site was rendered again, in that build
    /// and again in the next.
    @Test func aBuildRightAfterACloseFingerprintsRoundPagesAsAnyOther() throws {
        let folder = try Self.demoCopy(settled: true)
        func fingerprints() -> [String: [UInt8]] {
            let stamp = BuildStamp.load(ContentLayout(root: folder.url.appendingPathComponent("Content").path))
            // Round pages, and each project's round pages together (`SiteBuilder.keptGroups`).
            return (stamp?.fingerprints.dictionary ?? [:]).filter { $0.key.contains("/rounds/") }
        }
        try Self.build("site", in: folder)
        let before = fingerprints()
        #expect(!before.isEmpty)
        let closed = try CLI.run(["close", "the-town-that-sold-tuesday", "--content", "Content", "--now", Self.now], in: folder.url)
        #expect(closed.status == 0, "\(closed.stderr)")
        try Self.build("site", in: folder)
        let after = fingerprints()
        // The closed project's own pages are made of its files, which changed; the others' are
        // as they were, round pages, keys and shortcuts alike.
        for (path, fingerprint) in before where !path.contains("the-town-that-sold-tuesday") {
            #expect(after[path] == fingerprint, "\(path)")
        }
        // Each project with a key for its round pages records a shortcut to it beside, made of
        // its own rounds' replay (`SiteBuilder.replayIdentity`), which a round closed elsewhere
        // leaves as it was, though this build replayed every round again (the closed project's
        // files are too new to have a key at all).
        let groups = before.keys.filter { $0.hasSuffix("/rounds/") && !$0.contains("the-town-that-sold-tuesday") }
        #expect(!groups.isEmpty)
        for group in groups {
            let shortcut = before[group + "shortcut/"]
            #expect(shortcut != nil && after[group + "shortcut/"] == shortcut, "\(group)")
        }
        let pages = { (fingerprints: [String: [UInt8]]) in fingerprints.keys.filter { $0.hasSuffix(".html") } }
        #expect(pages(after).count > pages(before).count, "the round just closed has a page")
    }

    /// A content directory where `--out` keeps its spare would be rewritten by the next build.
    @Test func refusesAnOutWhoseSpareIsTheContent() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: Self.demo, toPath: folder.url.appendingPathComponent(".site.spare").path)
        let before = try folder.snapshot(".site.spare")
        let result = try CLI.run(["build", "--content", ".site.spare", "--out", "site", "--now", Self.now], in: folder.url)
        #expect(result.status != 0)
        #expect(result.stderr.contains("keeps the site each build replaces in"), "\(result.stderr)")
        #expect(try folder.snapshot(".site.spare") == before)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("site").path))
    }

    /// The content and site folders spelt otherwise (`./game/Content/`, `./game/Site/`) are the
    /// same folders: nothing to do when nothing changed, and the summary names the site folder
    /// with one slash after it.
    @Test func foldersSpeltOtherwiseAreTheSameFolders() throws {
        let folder = try TemporaryFolder()
        _ = try CLI.run(["init", "game", "--title", "Spelling"], in: folder.url)
        Thread.sleep(forTimeInterval: 2.1)
        let first = try CLI.run(["build", "--content", "game/Content", "--out", "game/Site", "--now", Self.now], in: folder.url)
        #expect(first.status == 0 && first.stderr.hasPrefix("Built "), "\(first.stderr)")
        let site = try folder.snapshot("game/Site")
        let again = try CLI.run(["build", "--content", "./game/Content/", "--out", "./game/Site/", "--now", Self.now], in: folder.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.hasPrefix("./game/Site/ is up to date: nothing changed since the last build"), "\(again.stderr)")
        #expect(try folder.snapshot("game/Site") == site)
    }

    /// A link given as `--out` is followed: the site is built into the folder it leads to, the
    /// link stays, and a build into that folder by its own name finds it up to date. A link that
    /// leads nowhere is refused with one line, and nothing is written.
    @Test func aLinkGivenAsOutIsFollowed() throws {
        let folder = try TemporaryFolder()
        _ = try CLI.run(["init", "game", "--title", "Linked"], in: folder.url)
        Thread.sleep(forTimeInterval: 2.1)
        func build(_ out: String) throws -> String {
            let result = try CLI.run(["build", "--content", "game/Content", "--out", out, "--now", Self.now], in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr
        }
        #expect(try build("game/Site").hasPrefix("Built "))
        #expect(symlink("Site", folder.url.appendingPathComponent("game/www").path) == 0)
        #expect(try build("game/www").hasPrefix("game/www/ is up to date"), "the same folder, through the link")
        try folder.write("---\nname: Ann\njoined: 2026-01-01T00:00:00Z\n---\nHello.\n", to: "game/Content/users/ann.md")
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try build("game/www/").hasPrefix("Built "))
        // The new site went into the folder the link leads to, whose spare sits beside it; the
        // link is still a link.
        #expect(FileSystem.isSymlink(folder.url.appendingPathComponent("game/www").path))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("game/Site/users/ann/index.html").path))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("game/.Site.spare").path))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("game/.www.spare").path))
        #expect(try build("game/Site").hasPrefix("game/Site/ is up to date"), "the folder the link leads to")
        // A link that leads nowhere is refused, and nothing is written.
        #expect(symlink("Nowhere", folder.url.appendingPathComponent("game/gone").path) == 0)
        let (content, site) = (try folder.snapshot("game/Content"), try folder.snapshot("game/Site"))
        let refused = try CLI.run(["build", "--content", "game/Content", "--out", "game/gone", "--now", Self.now], in: folder.url)
        #expect(refused.status != 0)
        #expect(refused.stderr == "error: --out 'game/gone' is a symbolic link to nothing, not a folder: give a folder or a link to one\n")
        #expect(try folder.snapshot("game/Content") == content && folder.snapshot("game/Site") == site)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("game").path)
        #expect(names.sorted() == [".Site.spare", ".gitignore", "Content", "Site", "Templates", "gone", "www"].sorted(), "\(names)")
    }

    /// A build with nothing changed since the last one ends at once and leaves the site alone;
    /// any change of content, templates, site or `--now` builds again.
    @Test func aBuildWithNothingChangedLeavesTheSiteAsItIs() throws {
        let folder = try TemporaryFolder()
        _ = try CLI.run(["init", "game", "--title", "Stamps"], in: folder.url)
        try folder.write("---\nname: Ann\njoined: 2026-01-01T00:00:00Z\n---\nHello.\n", to: "game/Content/users/ann.md")
        // Files changed less than two seconds before a build never count as unchanged (their
        // clock tick may not be over): let the new ones settle.
        Thread.sleep(forTimeInterval: 2.1)
        func build(now: String = Self.now) throws -> String {
            let result = try CLI.run(["build", "--content", "game/Content", "--out", "game/Site", "--now", now], in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr
        }
        #expect(try build().hasPrefix("Built "))
        let site = try folder.snapshot("game/Site")
        let again = try build()
        #expect(again.hasPrefix("game/Site/ is up to date: nothing changed since the last build"), "\(again)")
        #expect(try folder.snapshot("game/Site") == site)

        #expect(try build(now: "2026-11-23T12:00:00Z").hasPrefix("Built "), "another moment")
        #expect(try build(now: "2026-11-23T12:00:00Z").contains("is up to date"))

        try folder.write("---\nname: Annie\njoined: 2026-01-01T00:00:00Z\n---\nHello.\n", to: "game/Content/users/ann.md")
        #expect(try build(now: "2026-11-23T12:00:00Z").hasPrefix("Built "), "a profile edited in place")
        #expect(try folder.read("game/Site/users/ann/index.html").contains("Annie"))

        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("game/Site/users/ann/index.html"))
        #expect(try build(now: "2026-11-23T12:00:00Z").hasPrefix("Built "), "a page of the site deleted")
        #expect(folder.exists("game/Site/users/ann/index.html"))

        let style = try folder.read("game/Templates/static/style.css")
        try folder.write(style + "\n/* edited */\n", to: "game/Templates/static/style.css")
        #expect(try build(now: "2026-11-23T12:00:00Z").hasPrefix("Built "), "a template edited")
        #expect(try folder.read("game/Site/style.css").hasSuffix("/* edited */\n"))
    }
}
