import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// A build takes each project whose files are unchanged from `.prolific/projects/`; what it gets
/// must always be what reading the files gives.
@Suite struct ProjectCacheTests {
    /// Two projects: sun's round 1 closed with ballots and a hidden snippet, moon's round 1 open
    /// with snippets and ballots.
    func world() throws -> Playground {
        let world = try Playground()
        try world.standardSetup()
        _ = try world.game("2026-11-01T00:00:00Z").newProject(
            Game.ProjectRequest(slug: Make.slug("sun"), title: "Sun", owner: Make.handle("bob"), rounds: 3, starter: "Hot."))
        _ = try world.game("2026-11-02T00:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("ann"), ending: false, body: "A *b*.")
        _ = try world.game("2026-11-02T01:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("cat"), ending: true, body: "C.")
        _ = try world.game("2026-11-03T00:00:00Z").vote(in: Make.slug("sun"), by: Make.handle("bob"), for: ["ann-20261102000000"])
        _ = try world.game("2026-11-04T00:00:00Z").close(Make.slug("sun"))
        _ = try world.game("2026-11-04T01:00:00Z").hide(Make.id("cat-20261102010000"), in: Make.slug("sun"), by: "ann", reason: "Off topic.")
        _ = try world.game("2026-11-05T00:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("ann"), ending: false, body: "M.")
        _ = try world.game("2026-11-05T01:00:00Z").vote(in: Make.slug("moon"), by: Make.handle("cat"), for: ["ann-20261105000000"])
        return world
    }

    /// A cache over the content as it is now, every entry vouched for (no racy window: the files
    /// of a test were all written this second).
    func cache(_ world: Playground) throws -> ProjectCache {
        let layout = ContentLayout(root: world.root)
        let inventory = try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max))
        return try #require(ProjectCache(layout: layout, inventory: inventory))
    }

    func entry(_ world: Playground, _ slug: String) -> String { "\(world.root)/.prolific/projects/\(slug).cache" }

    /// Files laid out alike share one set of positions in the bytes; sets with the same keys in
    /// another order stay apart, and each decodes in its own order.
    @Test func positionsAreStoredOncePerSetInTheirOrder() throws {
        let layout = ContentLayout(root: "Content")
        let slug = Make.slug("moon")
        var ordered = Positions()
        ordered["author"] = TextPosition(line: 2, column: 1)
        ordered["submitted"] = TextPosition(line: 3, column: 1)
        var reversed = Positions()
        reversed["submitted"] = TextPosition(line: 3, column: 1)
        reversed["author"] = TextPosition(line: 2, column: 1)
        func project(_ layouts: [Positions]) -> Project {
            var round = Round(number: Make.number(1), opened: Make.time("2026-11-01T00:00:00Z"), closes: Make.time("2026-11-08T00:00:00Z"), origin: Origin(path: ""))
            round.submissions = layouts.enumerated().map { i, positions in
                let id = Make.id("u\(i)-20261102000000")
                return Submission(
                    id: id, author: Make.handle("u\(i)"), submitted: Make.time("2026-11-02T00:00:00Z"), body: "B.",
                    origin: Origin(path: layout.submissionFile(slug, Make.number(1), id), positions: positions))
            }
            return Project(
                slug: slug, title: "The Moon", owner: Make.handle("ann"), created: Make.time("2026-11-01T00:00:00Z"), roundLimit: 3,
                roundLength: Make.span("7d"), starter: "Late.", rounds: [round], origin: Origin(path: layout.projectFile(slug)))
        }
        let codec = ProjectCodec(layout: layout)
        let alike = codec.encode(project(Array(repeating: ordered, count: 20)))
        let apart = codec.encode(project((0..<20).map { $0 == 0 ? reversed : ordered }))
        #expect(apart.count > alike.count)
        let decoded = try #require(codec.decode(apart))
        #expect(decoded == project((0..<20).map { $0 == 0 ? reversed : ordered }))
        #expect(decoded.rounds[0].submissions[0].origin.positions.map(\.key) == ["submitted", "author"])
        #expect(decoded.rounds[0].submissions[1].origin.positions.map(\.key) == ["author", "submitted"])
        // Each file's set is one of the table's: about one set's bytes more for 20 files than for one.
        let one = codec.encode(project([ordered]))
        #expect(alike.count - one.count < 19 * 40)
    }

    /// The table's sets are checked as it is read, and kept encoded: a set cut short, or one
    /// that claims more keys than its bytes hold, is no table; a key written twice (never
    /// written, but bytes are bytes) takes the later position, equal and hashed alike either way.
    @Test func aPositionsTableIsCheckedWhenReadAndDecodedWhenAsked() throws {
        var table = PositionsTable()
        let set: Positions = ["author": TextPosition(line: 2, column: 1), "submitted": TextPosition(line: 3, column: 1)]
        #expect(table.number(of: set) == 0 && table.number(of: [:]) == 1 && table.number(of: set) == 0)
        var w = BinaryWriter()
        table.write(into: &w)
        var r = BinaryReader(w.bytes)
        let read = try #require(PositionsTable.read(from: &r))
        #expect(r.isAtEnd && read.sets == [set, [:]] && read.sets[0].map(\.key) == ["author", "submitted"])
        for cut in 1..<w.bytes.count {
            var short = BinaryReader(Array(w.bytes.prefix(cut)))
            #expect(PositionsTable.read(from: &short) == nil, "cut at \(cut)")
        }
        var twice = BinaryWriter()
        twice.varint(1)
        twice.varint(3)
        for (key, line) in [("author", 2), ("submitted", 3), ("author", 7)] {
            twice.text(key)
            twice.signed(Int64(line))
            twice.signed(1)
        }
        var t = BinaryReader(twice.bytes)
        let repeated = try #require(PositionsTable.read(from: &t)).sets[0]
        let later: Positions = ["author": TextPosition(line: 7, column: 1), "submitted": TextPosition(line: 3, column: 1)]
        #expect(repeated == later && repeated.hashValue == later.hashValue && repeated.count == 2)
        var claims = BinaryWriter()
        claims.varint(1)
        claims.varint(5)
        claims.text("author")
        claims.signed(2)
        claims.signed(1)
        var c = BinaryReader(claims.bytes)
        #expect(PositionsTable.read(from: &c) == nil)
    }

    @Test func aProjectRoundTripsThroughItsBytesWithEveryField() throws {
        let layout = ContentLayout(root: "Content")
        let slug = Make.slug("moon")
        let id = Make.id("ann-20261102000000")
        let odd = Origin(path: "elsewhere/odd.md", positions: ["for.0": TextPosition(line: 4, column: 3)])
        var round = Round(
            number: Make.number(1), opened: Make.time("2026-11-01T00:00:00Z"), closes: Make.time("2026-11-08T00:00:00Z"),
            closed: Make.time("2026-11-08T00:00:00Z"), winner: id,
            // A score for a snippet the round lacks (which `check` reports) is kept by its id.
            tally: TallyRecord(
                method: "fair-1", ballots: 2,
                scores: [TallyRecord.Score(id: id, score: 0.1 + 0.2), TallyRecord.Score(id: Make.id("zed-20261101000000"), score: -0.0)]),
            extensions: [Round.Extension(at: Make.time("2026-11-07T00:00:00Z"), from: Make.time("2026-11-06T00:00:00Z"))],
            note: "Quiet — “week”.", hidden: [Round.Hidden(id: id, by: "ann", at: Make.time("2026-11-09T00:00:00Z"), reason: "r")],
            seal: Seal(digest: String(repeating: "a", count: 64), files: [Seal.File(path: "submissions/x.md", digest: "b")]),
            origin: Origin(path: layout.roundFile(slug, Make.number(1)), positions: ["closes": TextPosition(line: 3, column: 8)]))
        round.submissions = [
            Submission(
                id: id, author: Make.handle("ann"), submitted: Make.time("2026-11-02T00:00:00Z"), ending: true, body: "É\u{301} ✓\n",
                origin: Origin(path: layout.submissionFile(slug, Make.number(1), id))),
            // An author other than the id's (which `check` reports) is kept as it is.
            Submission(id: Make.id("bob-20261102000000"), author: Make.handle("cat"), submitted: Timestamp(secondsSinceEpoch: -1), body: "", origin: odd),
        ]
        round.ballots = [
            Ballot(
                voter: Make.handle("cat"), cast: Make.time("2026-11-03T00:00:00Z"), choices: [id, id],
                origin: Origin(path: layout.ballotFile(slug, Make.number(1), Make.handle("cat")), positions: ["for.1": .start])),
            Ballot(voter: Make.handle("dan"), cast: Make.time("2026-11-03T00:00:00Z"), choices: [], origin: odd),
            // A choice naming no snippet of the round is kept by its id, beside those named by number.
            Ballot(
                voter: Make.handle("eve"), cast: Make.time("2026-11-04T00:00:00Z"),
                choices: [Make.id("zed-20261101000000"), Make.id("bob-20261102000000"), id, Make.id("ann-20261101000000")],
                origin: odd),
        ]
        let open = Round(number: Make.number(2), opened: Make.time("2026-11-08T00:00:00Z"), closes: Make.time("2026-11-15T00:00:00Z"), origin: odd)
        let project = Project(
            slug: slug, title: "The Moon", owner: Make.handle("ann"), created: Make.time("2026-11-01T00:00:00Z"), roundLimit: 3,
            roundLength: Make.span("7d"), tags: ["space", "été"], status: .complete, visibility: .unlisted, starter: "Late.",
            rounds: [round, open], origin: Origin(path: layout.projectFile(slug)))

        let codec = ProjectCodec(layout: layout)
        let bytes = codec.encode(project)
        #expect(codec.decode(bytes) == project)
        // Each expected path is made again from its parts, joined when read.
        let decoded = try #require(codec.decode(bytes))
        #expect(decoded.origin.path == "Content/projects/moon/project.md")
        #expect(decoded.rounds[0].origin.path == "Content/projects/moon/rounds/0001/round.md")
        #expect(decoded.rounds[0].submissions[0].origin.path == "Content/projects/moon/rounds/0001/submissions/ann-20261102000000.md")
        #expect(decoded.rounds[0].ballots[0].origin.path == "Content/projects/moon/rounds/0001/votes/cat.yml")
        #expect(decoded.rounds[0].submissions[1].origin.path == "elsewhere/odd.md")
        #expect(decoded.rounds[0].ballots[0].origin.position(of: "for.1") == .start)
        #expect(decoded.rounds[0].ballots[2].choices.map(\.rawValue) == ["zed-20261101000000", "bob-20261102000000", "ann-20261102000000", "ann-20261101000000"])
        #expect(decoded.rounds[0].submissions[1].author == Make.handle("cat"))
        #expect(decoded.rounds[0].tally?.scores.map(\.id.rawValue) == ["ann-20261102000000", "zed-20261101000000"])
        #expect(decoded.rounds[0].tally?.scores[1].score.sign == .minus && decoded.rounds[0].winner == id)
        // Elsewhere, the paths the reader gives are those of that content directory.
        #expect(ProjectCodec(layout: ContentLayout(root: "Other")).decode(bytes)?.rounds[0].ballots[0].origin.path
            == "Other/projects/moon/rounds/0001/votes/cat.yml")
        // A seal of hex digests is kept packed (`Seal.PackedFiles`) and comes back equal.
        var packable = project
        let digests = (String(repeating: "b", count: 64), String(repeating: "0123456789abcdef", count: 4))
        packable.rounds[0].seal = Seal(
            digest: String(repeating: "a", count: 64),
            files: [Seal.File(path: "submissions/x.md", digest: digests.0), Seal.File(path: "votes/cat.yml", digest: digests.1)])
        let packedBytes = codec.encode(packable)
        let unpacked = try #require(codec.decode(packedBytes))
        #expect(unpacked == packable && unpacked.rounds[0].seal?.fileCount == 2)
        #expect(unpacked.rounds[0].seal?.files.map(\.digest) == [digests.0, digests.1])
        // Cut short anywhere or with a byte changed, it decodes to nil or to some project: never a trap.
        for bytes in [bytes, packedBytes] {
            for length in 0..<bytes.count { #expect(codec.decode(Array(bytes[..<length])) == nil) }
            for index in stride(from: 0, to: bytes.count, by: 7) {
                var damaged = bytes
                damaged[index] ^= 0xFF
                _ = codec.decode(damaged)?.rounds.map { $0.seal?.files }
            }
        }
    }

    /// A closed round whose record is its ballots, each with the round's origin (as `close`
    /// writes them), comes back with them packed (`PackedBallots`): their voters, times and count
    /// are read without making them, and made, they equal the ballots encoded, a choice naming no
    /// snippet of the round among them; the record is the same list.
    @Test func aRecordedRoundsBallotsComeBackPackedAndEqual() throws {
        let layout = ContentLayout(root: "Content")
        let slug = Make.slug("moon")
        let id = Make.id("ann-20261102000000"), other = Make.id("bob-20261102000000")
        let origin = Origin(path: layout.roundFile(slug, Make.number(1)), positions: ["votes.cat": TextPosition(line: 9, column: 3)])
        var round = Round(
            number: Make.number(1), opened: Make.time("2026-11-01T00:00:00Z"), closes: Make.time("2026-11-08T00:00:00Z"),
            closed: Make.time("2026-11-08T00:00:00Z"), winner: id,
            seal: Seal(digest: String(repeating: "a", count: 64), files: [Seal.File(path: "submissions/x.md", digest: "b")]),
            origin: origin)
        round.submissions = [id, other].map {
            Submission(id: $0, author: $0.author, submitted: Make.time("2026-11-02T00:00:00Z"), body: "", origin: Origin(path: layout.submissionFile(slug, Make.number(1), $0)))
        }
        let ballots = [
            Ballot(voter: Make.handle("cat"), cast: Make.time("2026-11-03T00:00:00Z"), choices: [other, id], origin: origin),
            Ballot(voter: Make.handle("dan"), cast: Make.time("2026-11-04T00:00:00Z"), choices: [], origin: origin),
            Ballot(voter: Make.handle("eve"), cast: Make.time("2026-11-05T00:00:00Z"), choices: [Make.id("zed-20261101000000"), id], origin: origin),
        ]
        (round.ballots, round.recordedBallots) = (ballots, ballots)
        let project = Project(
            slug: slug, title: "The Moon", owner: Make.handle("ann"), created: Make.time("2026-11-01T00:00:00Z"), roundLimit: 3,
            roundLength: Make.span("7d"), tags: [], status: .open, visibility: .listed, starter: "Late.", rounds: [round],
            origin: Origin(path: layout.projectFile(slug)))
        let codec = ProjectCodec(layout: layout)
        var decoded = try #require(codec.decode(codec.encode(project))).rounds[0]
        #expect(decoded.ballotList.isPacked && decoded.countsRecord)
        var stamps: [String] = []
        decoded.ballotList.forEachStamp { voter, cast in stamps.append("\(voter.rawValue) \(cast.iso8601)") }
        #expect(decoded.ballotList.count == 3 && stamps.count == 3 && stamps[2].hasPrefix("eve "))
        #expect(stamps[1].hasSuffix(" 2026-11-04T00:00:00Z"))
        #expect(stamps == ["cat 2026-11-03T00:00:00Z", "dan 2026-11-04T00:00:00Z", "eve 2026-11-05T00:00:00Z"])
        #expect(decoded.ballotList.isPacked, "voters, times and the count leave the ballots unmade")
        #expect(decoded.ballots == ballots && !decoded.ballotList.isPacked)
        #expect(decoded.recordedBallots == ballots && decoded.recordedList == decoded.ballotList)
        #expect(decoded == round)
        // Appended to, the list is one of ballots; the record stays as it was.
        decoded.ballots.append(ballots[0])
        #expect(decoded.ballots.count == 4 && decoded.recordedBallots?.count == 3)
        // Numbers that don't fit their ballots or snippets pack nothing.
        let stamp = PackedBallots.Stamp(voter: Make.handle("cat"), cast: Make.time("2026-11-03T00:00:00Z"))
        #expect(PackedBallots(stamps: [stamp], starts: [0, 1], choices: [0], ids: [id], origin: origin) != nil)
        for (starts, choices) in [([0], [0]), ([1, 1], [0]), ([0, 2], [0]), ([0, 1], [1]), ([0, 1], [-1]), ([0, 1, 1], [0])] as [([Int32], [Int32])] {
            #expect(PackedBallots(stamps: [stamp], starts: starts, choices: choices, ids: [id], origin: origin) == nil, "\(starts) \(choices)")
        }
    }

    /// A snippet named by its number reads back only as one of the round's: a number past them,
    /// or too large for an index, is a miss (the entry is then read from its files); 0 is
    /// followed by the id itself.
    @Test func aSnippetNumberOutsideTheRoundDecodesToNothing() {
        var round = Round(
            number: Make.number(1), opened: Make.time("2026-11-01T00:00:00Z"), closes: Make.time("2026-11-08T00:00:00Z"),
            origin: Origin(path: "round.md"))
        round.submissions = [
            Submission(
                id: Make.id("ann-20261102000000"), author: Make.handle("ann"), submitted: Make.time("2026-11-02T00:00:00Z"),
                body: "", origin: Origin(path: "ann.md"))
        ]
        for (number, expected) in [(UInt64(1), Make.id("ann-20261102000000")), (2, nil), (UInt64(Int.max), nil), (UInt64.max, nil)] {
            var w = BinaryWriter()
            w.varint(number)
            var r = BinaryReader(w.bytes)
            #expect(ProjectCodec.readID(&r, of: round) == expected, "\(number)")
        }
        var w = BinaryWriter()
        w.varint(0)
        w.submissionID(Make.id("zed-20261101000000"))
        var r = BinaryReader(w.bytes)
        #expect(ProjectCodec.readID(&r, of: round) == Make.id("zed-20261101000000"))
    }

    /// A round of many snippets finds each by a dictionary as it is written: every choice, the
    /// scores and a winner the round lacks come back as they were.
    @Test func aRoundOfManySnippetsRoundTrips() throws {
        let layout = ContentLayout(root: "Content")
        let slug = Make.slug("moon")
        let ids = (0..<40).map { Make.id("u\($0)-20261102\(String(format: "%06d", $0))") }
        let stranger = Make.id("zed-20261101000000")
        var round = Round(
            number: Make.number(1), opened: Make.time("2026-11-01T00:00:00Z"), closes: Make.time("2026-11-08T00:00:00Z"),
            closed: Make.time("2026-11-08T00:00:00Z"), winner: stranger,
            tally: TallyRecord(method: "fair-1", ballots: 3, scores: ids.reversed().map { TallyRecord.Score(id: $0, score: 1) }),
            origin: Origin(path: layout.roundFile(slug, Make.number(1))))
        round.submissions = ids.map {
            Submission(id: $0, author: $0.author, submitted: $0.time, body: "", origin: Origin(path: layout.submissionFile(slug, Make.number(1), $0)))
        }
        round.ballots = (0..<3).map { v in
            Ballot(
                voter: Make.handle("v\(v)"), cast: Make.time("2026-11-03T00:00:00Z"), choices: [ids[39 - v], stranger, ids[v * 17]],
                origin: Origin(path: layout.ballotFile(slug, Make.number(1), Make.handle("v\(v)"))))
        }
        let project = Project(
            slug: slug, title: "The Moon", owner: Make.handle("ann"), created: Make.time("2026-11-01T00:00:00Z"), roundLimit: 3,
            roundLength: Make.span("7d"), tags: [], status: .complete, visibility: .listed, starter: "Late.",
            rounds: [round], origin: Origin(path: layout.projectFile(slug)))
        let codec = ProjectCodec(layout: layout)
        let decoded = try #require(codec.decode(codec.encode(project)))
        #expect(decoded == project)
        #expect(decoded.rounds[0].ballots[2].choices == [ids[37], stranger, ids[34]] && decoded.rounds[0].winner == stranger)
    }

    @Test func aSecondLoadTakesUnchangedProjectsFromTheCache() throws {
        let world = try world()
        let (fresh, problems) = world.reader.loadAll()
        #expect(problems.isEmpty)

        let cache = try cache(world)
        #expect(world.reader.loadAll(cache: cache).0 == fresh, "the first load reads the files and keeps them")
        #expect(FileManager.default.fileExists(atPath: entry(world, "moon")) && FileManager.default.fileExists(atPath: entry(world, "sun")))
        #expect(world.reader.loadAll(cache: cache).0 == fresh, "the second takes them from the cache")

        // Proof that the cache answers: an entry kept under the same key is what the load gives.
        var marked = try #require(fresh?.projects.first { $0.slug == Make.slug("sun") })
        marked.title = "Kept"
        cache.save(marked)
        let again = try #require(world.reader.loadAll(cache: cache).0)
        #expect(again.projects.map(\.title) == ["The Moon", "Kept"])
    }

    /// A kept project's snippet texts are made only when something asks for them, from its
    /// entry again; whether each may need rewriting (a build asks it of every snippet) comes
    /// without them.
    @Test func keptTextsAreMadeWhenAskedForFromTheEntry() throws {
        let world = try world()
        _ = try world.game("2026-11-05T02:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("bob"), ending: false, body: "Data: none.")
        let cache = try cache(world)
        let fresh = try #require(world.reader.loadAll(cache: cache).0)
        let moon = try #require(fresh.projects.first { $0.slug == Make.slug("moon") })
        #expect(moon.rounds[0].submissions.allSatisfy { !$0.text.isDeferred }, "read from the files")

        let kept = try #require(cache.project(Make.slug("moon")))
        let texts = kept.rounds.flatMap { $0.submissions.map(\.text) }
        #expect(texts.count == 2 && texts.allSatisfy(\.isDeferred))
        #expect(texts.map(\.mayNeedRewriting) == [false, true])
        #expect(texts.map(\.mayNeedRewriting) == moon.rounds[0].submissions.map(\.text.mayNeedRewriting))
        #expect(kept.rounds[0].submissions.map(\.body) == moon.rounds[0].submissions.map(\.body))
        #expect(kept == moon)
        // Loaded whole, the texts come from the entry too, whatever the files say now.
        let whole = try #require(cache.project(Make.slug("moon")))
        let snippet = ContentLayout(root: world.root).submissionFile(Make.slug("moon"), Make.number(1), moon.rounds[0].submissions[0].id)
        let written = try String(contentsOfFile: snippet, encoding: .utf8)
        try written.replacingOccurrences(of: "M.", with: "Changed.").write(toFile: snippet, atomically: true, encoding: .utf8)
        whole.makeDeferredTexts()
        #expect(whole.rounds[0].submissions.map(\.body) == moon.rounds[0].submissions.map(\.body))
        // Stories keep their chapters' texts as held: an EPUB's inputs read only the authors.
        let sun = try #require(cache.project(Make.slug("sun")))
        #expect(Story(sun).chapters.dropFirst().allSatisfy { $0.text.isDeferred })
        let freshSun = try #require(fresh.projects.first { $0.slug == Make.slug("sun") })
        #expect(Story(sun).chapters.map(\.markdown) == Story(freshSun).chapters.map(\.markdown))
    }

    /// A kept project's seals keep their files in the entry's second part, after the texts, read
    /// when first asked for; when they can't be read there, they come from round.md as it is then.
    @Test func keptSealsAreReadWhenAskedForFromTheEntry() throws {
        let world = try world()
        let cache = try cache(world)
        let fresh = try #require(world.reader.loadAll(cache: cache).0?.projects.first { $0.slug == Make.slug("sun") })
        let sealed = try #require(fresh.rounds[0].seal)
        #expect(!sealed.isDeferred && sealed.fileCount == 3, "read from the files")

        // The files' paths are in the second part only.
        let path = entry(world, "sun")
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let firstPartEnd = 8 + good.prefix(8).reversed().reduce(0) { $0 << 8 | Int($1) }
        let listed = Array("votes/bob.yml".utf8)
        let places = (0...(good.count - listed.count)).filter { Array(good[$0..<($0 + listed.count)]) == listed }
        try #require(places.count == 1)
        #expect(places[0] > firstPartEnd)

        let kept = try #require(cache.project(Make.slug("sun")))
        let seal = try #require(kept.rounds[0].seal)
        #expect(seal.isDeferred && seal.fileCount == 3 && seal.digest == sealed.digest)
        let untouched = try #require(cache.project(Make.slug("sun")))

        // round.md lists another digest for bob's ballot now: a kept seal still reads the entry.
        let roundFile = ContentLayout(root: world.root).roundFile(Make.slug("sun"), Make.number(1))
        let bob = try #require(sealed.files.first { $0.path == "votes/bob.yml" })
        let other = String(repeating: "e", count: 64)
        let written = try String(contentsOfFile: roundFile, encoding: .utf8)
        #expect(written.contains(bob.digest))
        try written.replacingOccurrences(of: bob.digest, with: other).write(toFile: roundFile, atomically: true, encoding: .utf8)
        #expect(seal.files == sealed.files)
        #expect(kept == fresh)

        // Damaged in the entry, the files come from round.md as it is now.
        var damaged = good
        damaged[places[0]] ^= 0x20
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        let fromFiles = try #require(untouched.rounds[0].seal)
        #expect(fromFiles.isDeferred && fromFiles.fileCount == 3)
        #expect(fromFiles.files.first { $0.path == "votes/bob.yml" }?.digest == other)
        #expect(fromFiles.files.filter { $0.path != "votes/bob.yml" } == sealed.files.filter { $0.path != "votes/bob.yml" })
    }

    /// Seals packed one after another after the texts keep each its own files, beside a seal
    /// that can't be packed (a path over 255 bytes), kept whole in the first part: decoded at
    /// once, and kept in an entry and read when asked for.
    @Test func eachOfSeveralSealsKeepsItsOwnFiles() throws {
        let world = try world()
        let layout = ContentLayout(root: world.root)
        let slug = Make.slug("moon")
        func file(_ path: String, _ digit: Character) -> Seal.File { Seal.File(path: path, digest: String(repeating: digit, count: 64)) }
        let seals = [
            Seal(digest: String(repeating: "1", count: 64), files: [file("submissions/a.md", "a"), file("votes/b.yml", "b")]),
            Seal(digest: String(repeating: "2", count: 64), files: [file(String(repeating: "x", count: 300), "c")]),
            Seal(digest: String(repeating: "3", count: 64), files: [file("votes/d.yml", "d")]),
            Seal(digest: String(repeating: "4", count: 64), files: [file("votes/e.yml", "e"), file("votes/f.yml", "f"), file("votes/g.yml", "0")]),
        ]
        #expect(seals.map { $0.packedFiles != nil } == [true, false, true, true])
        let rounds = seals.indices.map { i in
            Round(
                number: Make.number(i + 1), opened: Make.time("2026-11-01T00:00:00Z"), closes: Make.time("2026-11-08T00:00:00Z"),
                closed: Make.time("2026-11-08T00:00:00Z"), seal: seals[i], origin: Origin(path: layout.roundFile(slug, Make.number(i + 1))))
        }
        let project = Project(
            slug: slug, title: "The Moon", owner: Make.handle("ann"), created: Make.time("2026-11-01T00:00:00Z"), roundLimit: 9,
            roundLength: Make.span("7d"), starter: "Late.", rounds: rounds, origin: Origin(path: layout.projectFile(slug)))

        let codec = ProjectCodec(layout: layout)
        let decoded = try #require(codec.decode(codec.encode(project)))
        #expect(decoded.rounds.map { $0.seal?.files } == seals.map(\.files))
        #expect(decoded == project)

        let cache = try #require(ProjectCache(layout: layout, inventory: nil, binary: "test"))
        let key = Array(repeating: UInt8(7), count: 32)
        cache.save(project, key: key)
        let kept = try #require(cache.project(slug, key: key))
        #expect(kept.rounds.map { $0.seal?.isDeferred } == [true, false, true, true])
        #expect(kept.rounds.map { $0.seal?.fileCount } == [2, 1, 1, 3])
        #expect(kept.rounds.map { $0.seal?.digest } == seals.map(\.digest))
        for r in [3, 0, 2, 1] { #expect(kept.rounds[r].seal?.files == seals[r].files) }
        #expect(kept == project)
    }

    /// A text asked for alone is read alone from the entry, checked by its own checksum: another
    /// text's damaged bytes don't send it to the files, and the damaged text itself still comes
    /// right, from the files.
    @Test func aKeptTextAskedForAloneIsReadAloneAndChecked() throws {
        let world = try world()
        _ = try world.game("2026-11-05T02:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("bob"), ending: false, body: "Bob's own words.")
        _ = try world.game("2026-11-05T03:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("cat"), ending: false, body: "Cat's own words.")
        let cache = try cache(world)
        _ = world.reader.loadAll(cache: cache)
        let kept = try #require(cache.project(Make.slug("moon")))
        let ids = kept.rounds[0].submissions.map(\.id.rawValue)
        #expect(ids == ["ann-20261105000000", "bob-20261105020000", "cat-20261105030000"])

        // Bob's file says otherwise now, and Cat's text is damaged in the entry.
        let layout = ContentLayout(root: world.root)
        let bob = layout.submissionFile(Make.slug("moon"), Make.number(1), Make.id("bob-20261105020000"))
        let written = try String(contentsOfFile: bob, encoding: .utf8)
        try written.replacingOccurrences(of: "Bob's own words.", with: "Changed.").write(toFile: bob, atomically: true, encoding: .utf8)
        let path = entry(world, "moon")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let cat = Array("Cat's own words.".utf8)
        let at = try #require((0...(bytes.count - cat.count)).first { Array(bytes[$0..<($0 + cat.count)]) == cat })
        bytes[at] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        #expect(kept.rounds[0].submissions[1].body == "Bob's own words.", "read alone from the entry")
        #expect(kept.rounds[0].submissions[2].body == "Cat's own words.", "damaged in the entry: from the files")
        #expect(kept.rounds[0].submissions[0].body == "M.")

        // Read whole (the whole part's seal fails on Cat's damage), every text comes from the files.
        let whole = try #require(cache.project(Make.slug("moon")))
        whole.makeDeferredTexts()
        #expect(whole.rounds[0].submissions.map(\.body) == ["M.", "Changed.", "Cat's own words."])
        // A text read alone keeps its string after the rest were loaded from the files.
        #expect(kept.rounds[0].submissions[1].body == "Bob's own words.")

        // An entry saved again since (another first part, other texts): a text asked for alone
        // is not taken from it, as its table follows another first part.
        let fresh = try #require(world.reader.loadAll().0?.projects.first { $0.slug == Make.slug("moon") })
        let before = try #require(cache.project(Make.slug("moon")))
        var other = fresh
        other.title = "Saved again"
        other.rounds[0].submissions[1].body = "Saved text."
        cache.save(other)
        #expect(before.rounds[0].submissions[1].body == "Changed.", "from the files, not the other entry")
    }

    /// Another build replaced a kept project's entry (after its files changed) before this one
    /// asked for a text: the texts come from the files as they are then, and a snippet no longer
    /// there has an empty text. Never a trap.
    @Test func keptTextsComeFromTheFilesWhenTheEntryIsReplaced() throws {
        let world = try world()
        let first = try cache(world)
        _ = world.reader.loadAll(cache: first)
        let layout = ContentLayout(root: world.root)
        let snippet = layout.submissionFile(Make.slug("moon"), Make.number(1), Make.id("ann-20261105000000"))
        let written = try String(contentsOfFile: snippet, encoding: .utf8)

        let kept = try #require(first.project(Make.slug("moon")))
        try written.replacingOccurrences(of: "M.", with: "Changed.").write(toFile: snippet, atomically: true, encoding: .utf8)
        try Data(count: 64).write(to: URL(fileURLWithPath: entry(world, "moon")))
        #expect(kept.rounds[0].submissions[0].body.hasPrefix("Changed."))

        _ = world.reader.loadAll(cache: try cache(world))
        let again = try #require(try cache(world).project(Make.slug("moon")))
        try FileManager.default.removeItem(atPath: snippet)
        try FileManager.default.removeItem(atPath: entry(world, "moon"))
        #expect(again.rounds[0].submissions[0].body == "")
    }

    @Test func aChangedFileIsReadAgainAndOnlyItsProjectIs() throws {
        let world = try world()
        let first = try cache(world)
        _ = world.reader.loadAll(cache: first)
        var marked = try #require(first.project(Make.slug("sun")))
        marked.title = "Kept"
        first.save(marked)

        _ = try world.game("2026-11-05T02:00:00Z").vote(in: Make.slug("moon"), by: Make.handle("bob"), for: ["ann-20261105000000"])
        let content = try #require(world.reader.loadAll(cache: try cache(world)).0)
        let moon = try #require(content.projects.first { $0.slug == Make.slug("moon") })
        #expect(moon.rounds[0].ballots.map(\.voter.rawValue).sorted() == ["bob", "cat"], "moon is read again")
        #expect(content.projects.first { $0.slug == Make.slug("sun") }?.title == "Kept", "sun still comes from the cache")
        #expect(content == world.reader.loadAll().0.map { c in
            var c = c
            c.projects[1].title = "Kept"
            return c
        })
    }

    @Test func racyFilesAreNeverKept() throws {
        let world = try world()
        let layout = ContentLayout(root: world.root)
        let inventory = try #require(BuildStamp.inventory(of: layout))
        let cache = try #require(ProjectCache(layout: layout, inventory: inventory))
        #expect(inventory.subtreeKey("projects/moon") == nil, "written this second: racy")
        #expect(world.reader.loadAll(cache: cache).0 == world.reader.loadAll().0)
        #expect(!FileManager.default.fileExists(atPath: entry(world, "moon")))
    }

    @Test func aTornOrForeignEntryIsReadFromTheFiles() throws {
        let world = try world()
        let cache = try cache(world)
        _ = world.reader.loadAll(cache: cache)
        let path = entry(world, "moon")
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        let firstPartEnd = 8 + good.prefix(8).reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(firstPartEnd > 16 && firstPartEnd < good.count - 16)
        var flipped = good
        flipped[firstPartEnd / 2] ^= 1
        for damage in [good.prefix(16), Data(count: good.count), good.prefix(firstPartEnd - 1), flipped] {
            try damage.write(to: URL(fileURLWithPath: path))
            #expect(cache.project(Make.slug("moon")) == nil)
            #expect(world.reader.loadAll(cache: cache).0 == world.reader.loadAll().0)
        }
        // Torn texts, the first part intact: the project is kept, each text read alone where the
        // table and its bytes are intact (a zeroed seal of the whole part), else from the files.
        let moon = try #require(world.reader.loadAll().0?.projects.first { $0.slug == Make.slug("moon") })
        var table = good
        table[firstPartEnd + 8 + 4] ^= 1
        for damage in [good.prefix(good.count - 1), good.dropLast(8) + Data(count: 8), good.prefix(firstPartEnd + 8), table] {
            try damage.write(to: URL(fileURLWithPath: path))
            let kept = try #require(cache.project(Make.slug("moon")))
            #expect(kept.rounds.allSatisfy { $0.submissions.allSatisfy(\.text.isDeferred) })
            #expect(kept == moon)
        }
        // A named pipe in the entry's place is no entry, and is not waited on; nor is a first
        // part longer than the file says.
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o644) == 0)
        #expect(cache.project(Make.slug("moon")) == nil)
        #expect(world.reader.loadAll(cache: cache).0 == world.reader.loadAll().0)
        try FileManager.default.removeItem(atPath: path)
        var overlong = good
        overlong[0] = 0xFF
        overlong[1] = 0xFF
        try overlong.write(to: URL(fileURLWithPath: path))
        #expect(cache.project(Make.slug("moon")) == nil)
        // The sun entry under moon's name: the key and the slug don't match.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: entry(world, "sun"), toPath: path)
        #expect(cache.project(Make.slug("moon")) == nil)
    }

    @Test func anEntryOfAnotherBinaryOrFolderIsNotTakenButOneOfAnotherSpellingIs() throws {
        let world = try world()
        let layout = ContentLayout(root: world.root)
        let inventory = try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max))
        let saved = try #require(ProjectCache(layout: layout, inventory: inventory, binary: "1 2 3"))
        _ = world.reader.loadAll(cache: saved)
        #expect(saved.project(Make.slug("moon")) != nil)
        #expect(ProjectCache(layout: layout, inventory: inventory, binary: "1 2 4")?.project(Make.slug("moon")) == nil)
        // The same folder spelt otherwise shares the entries, and what it decodes shows the
        // spelling in use.
        let other = world.root + "/../Content"
        let otherInventory = try #require(FileInventory.take(of: other, skipping: [".prolific", ".git"], racyAfter: .max))
        let sameFolder = try #require(ProjectCache(layout: ContentLayout(root: other), inventory: otherInventory, binary: "1 2 3"))
        let decoded = try #require(sameFolder.project(Make.slug("moon")))
        #expect(decoded.origin.path == "\(other)/projects/moon/project.md")
        #expect(decoded.rounds.first?.ballots.first.map { $0.origin.path.hasPrefix("\(other)/projects/moon/rounds/") } ?? true)
        #expect(ProjectCache(layout: ContentLayout(root: other), inventory: inventory, binary: "1 2 3") == nil, "another spelling's inventory")
        // A copy of the folder elsewhere takes none of them.
        let copy = world.directory.path("Copy")
        try FileManager.default.copyItem(atPath: world.root, toPath: copy)
        let copyInventory = try #require(FileInventory.take(of: copy, skipping: [".prolific", ".git"], racyAfter: .max))
        let copied = try #require(ProjectCache(layout: ContentLayout(root: copy), inventory: copyInventory, binary: "1 2 3"))
        #expect(copied.root != saved.root)
        #expect(copied.project(Make.slug("moon")) == nil)
    }

    /// A linked `.prolific/projects/` gives no cache at all, so a build neither writes nor
    /// prunes through it (`SiteRun` loads without one).
    @Test func aLinkedCacheFolderGivesNoCache() throws {
        let world = try world()
        let elsewhere = world.directory.path("elsewhere")
        try world.directory.write("keep me", to: "elsewhere/notes.txt")
        try FileManager.default.createDirectory(atPath: "\(world.root)/.prolific", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(world.root)/.prolific/projects", withDestinationPath: elsewhere)
        let inventory = try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max))
        #expect(ProjectCache(layout: ContentLayout(root: world.root), inventory: inventory) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == ["notes.txt"])
    }

    @Test func aMomentBeyondFourDigitYearsDoesNotDecode() throws {
        let world = try world()
        var sun = try #require(world.reader.loadAll().0?.projects.first { $0.slug == Make.slug("sun") })
        let codec = ProjectCodec(layout: ContentLayout(root: world.root))
        #expect(codec.decode(codec.encode(sun)) == sun)
        sun.rounds[0].hidden[0].at = Timestamp(secondsSinceEpoch: Int64.min + 1)
        #expect(codec.decode(codec.encode(sun)) == nil)
    }

    /// Content with an error anywhere writes nothing to the cache, as a refused build changes
    /// nothing in the content directory: no project is kept, none pruned, whichever way the
    /// content is read.
    @Test func contentWithAnErrorLeavesTheCacheAsItWas() throws {
        let world = try world()
        try world.directory.write("for: [nobody\n", to: "Content/projects/moon/rounds/0001/votes/bob.yml")
        let (_, problems) = world.reader.loadAll(cache: try cache(world))
        #expect(!problems.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: entry(world, "moon")))
        #expect(!FileManager.default.fileExists(atPath: entry(world, "sun")), "sun is fine, but the load was refused")
        let (_, found, _) = world.reader.loadAllTakingInventory(cache: ProjectCache(layout: ContentLayout(root: world.root)), racyAfter: .max)
        #expect(!found.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: entry(world, "sun")))

        try FileManager.default.removeItem(atPath: "\(world.root)/projects/moon/rounds/0001/votes/bob.yml")
        _ = world.reader.loadAllTakingInventory(cache: ProjectCache(layout: ContentLayout(root: world.root)), racyAfter: .max)
        #expect(FileManager.default.fileExists(atPath: entry(world, "moon")) && FileManager.default.fileExists(atPath: entry(world, "sun")))
        let folder = "\(world.root)/.prolific/projects"
        let before = try world.directory.snapshot("Content/.prolific")
        // sun gone (its entry would be pruned) and an error in moon: the cache stays as it was.
        try FileManager.default.removeItem(atPath: "\(world.root)/projects/sun")
        try world.directory.write("for: [nobody\n", to: "Content/projects/moon/rounds/0001/votes/bob.yml")
        _ = world.reader.loadAllTakingInventory(cache: ProjectCache(layout: ContentLayout(root: world.root)), racyAfter: .max)
        #expect(try world.directory.snapshot("Content/.prolific") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["moon.cache", "sun.cache"])
    }

    @Test func entriesOfRemovedProjectsArePruned() throws {
        let world = try world()
        _ = world.reader.loadAll(cache: try cache(world))
        let folder = "\(world.root)/.prolific/projects"
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(folder)/stray"))
        try FileManager.default.removeItem(atPath: "\(world.root)/projects/sun")
        _ = world.reader.loadAll(cache: try cache(world))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["moon.cache"])
    }

    /// The key of a project but its open round's ballots changes with anything else under the
    /// project, and not with a ballot.
    @Test func aDigestLeavingOutAFolderIgnoresOnlyThatFolder() throws {
        let world = try world()
        let votes = "projects/moon/rounds/0001/votes"
        func digest() throws -> String? {
            try #require(FileInventory.take(of: world.root, skipping: [".prolific"], racyAfter: .max))
                .subtreeDigest("projects/moon", leavingOut: votes)
        }
        let before = try #require(try digest())
        let inventory = try #require(FileInventory.take(of: world.root, skipping: [".prolific"], racyAfter: .max))
        #expect(before != inventory.subtreeDigest("projects/moon"))
        // Leaving out nothing, it is the digest of the whole folder, which hashes the same bytes
        // as it goes; and the key is that digest's 32 bytes.
        let whole = try #require(inventory.subtreeDigest("projects/moon"))
        #expect(inventory.subtreeDigest("projects/moon", leavingOut: "projects/moon/nothing-here") == whole)
        #expect(inventory.subtreeKey("projects/moon").map { RoundSeal.hex($0) } == whole)
        #expect(inventory.subtreeKey("projects/moon")?.count == 32)
        _ = try world.game("2026-11-05T02:00:00Z").vote(in: Make.slug("moon"), by: Make.handle("bob"), for: ["ann-20261105000000"])
        #expect(try digest() == before, "a ballot")
        try world.directory.write("", to: "Content/\(votes)s-not/x.md")
        #expect(try digest() != before, "a folder whose name only starts the same")
        try FileManager.default.removeItem(atPath: "\(world.root)/\(votes)s-not")
        _ = try world.game("2026-11-05T03:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("bob"), ending: false, body: "B.")
        #expect(try digest() != before, "a snippet")
    }

    @Test func aSubtreeKeyChangesWithAnyFileUnderIt() throws {
        let world = try world()
        func key(_ path: String) throws -> [UInt8]? {
            try #require(FileInventory.take(of: world.root, skipping: [".prolific"], racyAfter: .max)).subtreeKey(path)
        }
        let moon = try #require(try key("projects/moon"))
        let sun = try key("projects/sun")
        #expect(try key("projects/moon") == moon)
        #expect(try key("projects/none") == nil && key("users") == nil, "only folders walked on their own have one")
        try world.directory.write("---\nauthor: ann\n---\nEdited.\n", to: "Content/projects/moon/rounds/0001/submissions/ann-20261105000000.md")
        #expect(try key("projects/moon") != moon)
        #expect(try key("projects/sun") == sun)
        // The same size, and then the old modification time put back: the times still tell.
        let snippet = "\(world.root)/projects/moon/rounds/0001/submissions/ann-20261105000000.md"
        let edited = try key("projects/moon")
        let old = try FileManager.default.attributesOfItem(atPath: snippet)[.modificationDate]
        try world.directory.write("---\nauthor: ann\n---\nEdites.\n", to: "Content/projects/moon/rounds/0001/submissions/ann-20261105000000.md")
        let sameSize = try key("projects/moon")
        #expect(sameSize != edited)
        try FileManager.default.setAttributes([.modificationDate: try #require(old)], ofItemAtPath: snippet)
        #expect(try key("projects/moon") != sameSize && key("projects/moon") != edited, "ctime moved")
        try world.directory.write("", to: "Content/projects/moon/rounds/0001/votes/.keep")
        let withDotFile = try key("projects/moon")
        try FileManager.default.removeItem(atPath: "\(world.root)/projects/moon/rounds/0001/votes/.keep")
        #expect(try key("projects/moon") != withDotFile)
    }
}
