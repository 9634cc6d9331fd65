import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

@Suite struct ContentReaderTests {
    /// Round 1 closed (bob won), round 2 open with ann's snippet and cat's ballot.
    func playedTwoRounds() throws -> Playground {
        let world = try Playground()
        try world.standardSetup()
        _ = try world.game("2026-11-02T10:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("bob"), ending: false, body: "Bob's part.")
        _ = try world.game("2026-11-02T11:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("cat"), ending: false, body: "Cat's part.")
        _ = try world.game("2026-11-03T00:00:00Z").vote(in: Make.slug("moon"), by: Make.handle("ann"), for: ["bob-20261102100000"])
        _ = try world.game("2026-11-05T00:00:00Z").close(Make.slug("moon"))
        _ = try world.game("2026-11-06T00:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("ann"), ending: false, body: "Ann's part.")
        _ = try world.game("2026-11-06T01:00:00Z").vote(in: Make.slug("moon"), by: Make.handle("cat"), for: ["ann-20261106000000"])
        return world
    }

    /// `loadAll`'s problems, printed and sorted, with the temporary root shortened to `Content`.
    /// The load's problems, as a build finds them; as `check` does with `reading`, which reads
    /// sealed rounds' ballot files too (a build counts their record, `BallotRecordTests`).
    func problems(_ world: Playground, asCheck: Bool = false) -> [String] {
        var reader = world.reader
        if asCheck { reader.digests = ReadDigests() }
        let (content, problems) = reader.loadAll()
        #expect(content != nil)
        return problems.map { $0.description.replacingOccurrences(of: world.root, with: "Content") }.sorted()
    }

    @Test func loadsWhatTheGameWrote() throws {
        let world = try playedTwoRounds()
        let (loaded, problems) = world.reader.loadAll()
        #expect(problems == [])
        let content = try #require(loaded)
        #expect(content.config.title == "Test")
        #expect(content.sortedUsers.map(\.handle.rawValue) == ["ann", "bob", "cat"])
        #expect(content.users[Make.handle("bob")]?.name == "BOB")
        let project = try #require(content.project(Make.slug("moon")))
        #expect(project.title == "The Moon")
        #expect(project.tags == ["space"])
        #expect(project.rounds.map(\.number.value) == [1, 2])
        #expect(project.rounds[0].submissions.map(\.id.rawValue) == ["bob-20261102100000", "cat-20261102110000"])
        #expect(project.rounds[0].ballots.map(\.voter.rawValue) == ["ann"])
        #expect(project.rounds[0].winner == Make.id("bob-20261102100000"))
        #expect(project.rounds[1].opened == Make.time("2026-11-05T00:00:00Z"))
        #expect(project.rounds[1].submissions.map(\.body) == ["Ann's part."])
        #expect(project.rounds[1].ballots.map(\.choices) == [[Make.id("ann-20261106000000")]])
        #expect(project.rounds[1].ballots.first?.origin.path == "\(world.root)/projects/moon/rounds/0002/votes/cat.yml")
        #expect(ContentCheck.problems(in: content) == [])
    }

    @Test func loadsSubmissionsOfOnlyTheLatestRoundWhenAsked() throws {
        let world = try playedTwoRounds()
        let (latest, latestProblems) = world.reader.loadProject(Make.slug("moon"), depth: .latest)
        #expect(latestProblems == [])
        let project = try #require(latest)
        #expect(project.rounds.count == 2)
        #expect(project.rounds[0].winner == Make.id("bob-20261102100000"))
        #expect(project.rounds[0].submissions.isEmpty && project.rounds[0].ballots.isEmpty)
        #expect(project.rounds[1].submissions.count == 1 && project.rounds[1].ballots.count == 1)

        let (all, _) = world.reader.loadProject(Make.slug("moon"), depth: .all)
        #expect(all?.rounds[0].submissions.count == 2 && all?.rounds[0].ballots.count == 1)
    }

    /// A round folder holding only dot files is no round (see `isVacant`), so the latest round
    /// is the one before it; a round whose round.md is a link is reported as a link.
    @Test func aVacantFolderIsNoRoundAndALinkedRoundFileIsALink() throws {
        let world = try playedTwoRounds()
        try world.directory.write("x", to: "Content/projects/moon/rounds/0003/.tmp-round.md")
        let (latest, problems) = world.reader.loadProject(Make.slug("moon"), depth: .latest)
        #expect(problems == [])
        #expect(latest?.rounds.map(\.number.value) == [1, 2])
        #expect(latest?.rounds.map(\.ballots.count) == [0, 1])

        let round2 = world.directory.path("Content/projects/moon/rounds/0002/round.md")
        try FileManager.default.removeItem(atPath: round2)
        #expect(symlink(world.directory.path("Content/projects/moon/rounds/0001/round.md"), round2) == 0)
        let (linked, found) = world.reader.loadProject(Make.slug("moon"), depth: .latest)
        #expect(
            found.map { $0.description.replacingOccurrences(of: world.root, with: "Content") } == [
                "Content/projects/moon/rounds/0002/round.md:1:1: error: is a symbolic link; content files must be regular files"
            ])
        // Round 2 is still the latest folder: round 1's entries aren't read in its place.
        #expect(linked?.rounds.map(\.number.value) == [1])
        #expect(linked?.rounds[0].ballots.isEmpty == true)
    }

    @Test func reportsStrayFiles() throws {
        let world = try playedTwoRounds()
        let round1 = "Content/projects/moon/rounds/0001"
        try world.directory.write("voter: bob\n", to: "\(round1)/votes/bob.yaml")
        try world.directory.write("notes", to: "\(round1)/submissions/notes.txt")
        try world.directory.write("x", to: "\(round1)/submissions/Bob-20261102100000.md")
        try FileManager.default.createSymbolicLink(
            atPath: world.directory.path("\(round1)/submissions/dan-20261102100000.md"),
            withDestinationPath: world.directory.path("\(round1)/submissions/bob-20261102100000.md"))
        try FileManager.default.createDirectory(atPath: world.directory.path("\(round1)/votes/old"), withIntermediateDirectories: true)
        try world.directory.write("x", to: "Content/users/README.txt")
        try world.directory.write("x", to: "Content/projects/notes.md")
        try world.directory.write("x", to: "Content/projects/moon/draft.txt")
        try FileManager.default.createDirectory(atPath: world.directory.path("Content/projects/moon/rounds/1"), withIntermediateDirectories: true)
        // A round folder with something in it but no round.md (an empty one is no round: see isVacant).
        try FileManager.default.createDirectory(
            atPath: world.directory.path("Content/projects/moon/rounds/0003/submissions"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: world.directory.path("Content/projects/sun"), withIntermediateDirectories: true)
        // Not reported: hidden files, and images beside Markdown.
        try world.directory.write("x", to: "\(round1)/submissions/.DS_Store")
        try world.directory.writeImage(to: "\(round1)/submissions/figure.PNG")
        try world.directory.writeImage(to: "Content/projects/moon/cover.jpg")
        try world.directory.write("x", to: "Content/.prolific/cache")

        let found = [
                "Content/projects/moon/draft.txt:1:1: error: unexpected file; expected project.md, rounds/ or images",
                "Content/projects/moon/rounds/0003:1:1: error: round folder without a round.md",
                "Content/projects/moon/rounds/0001/submissions/Bob-20261102100000.md:1:1: error: unexpected file; expected a snippet named <author>-<yyyymmddhhmmss>.md",
                "Content/projects/moon/rounds/0001/submissions/dan-20261102100000.md:1:1: error: unexpected symbolic link (links are not allowed in content); expected a snippet named <author>-<yyyymmddhhmmss>.md",
                "Content/projects/moon/rounds/0001/submissions/notes.txt:1:1: error: unexpected file; expected a snippet named <author>-<yyyymmddhhmmss>.md",
                "Content/projects/moon/rounds/0001/votes/bob.yaml:1:1: error: unexpected file; expected a ballot named <voter>.yml",
                "Content/projects/moon/rounds/0001/votes/old:1:1: error: unexpected folder; expected a ballot named <voter>.yml",
                "Content/projects/moon/rounds/1:1:1: error: unexpected folder; expected a round folder such as 0001",
                "Content/projects/notes.md:1:1: error: unexpected file; expected a project folder named by its slug",
                "Content/projects/sun:1:1: error: project folder without a project.md",
                "Content/users/README.txt:1:1: error: unexpected file; expected a profile named <handle>.md",
            ].sorted()
        #expect(problems(world, asCheck: true) == found)
        // A build leaves the sealed round 1's votes/ unread: its record is what it counts.
        #expect(problems(world) == found.filter { !$0.contains("/0001/votes/") })
    }

    @Test func reportsSymbolicLinksToProfilesAndBallots() throws {
        let world = try playedTwoRounds()
        try FileManager.default.createSymbolicLink(
            atPath: world.directory.path("Content/users/dan.md"), withDestinationPath: world.directory.path("Content/users/ann.md"))
        try FileManager.default.createSymbolicLink(
            atPath: world.directory.path("Content/projects/moon/rounds/0002/votes/bob.yml"),
            withDestinationPath: world.directory.path("Content/projects/moon/rounds/0002/votes/cat.yml"))
        #expect(
            problems(world) == [
                "Content/projects/moon/rounds/0002/votes/bob.yml:1:1: error: unexpected symbolic link (links are not allowed in content); expected a ballot named <voter>.yml",
                "Content/users/dan.md:1:1: error: unexpected symbolic link (links are not allowed in content); expected a profile named <handle>.md",
            ])
    }

    @Test func reportsStraysInRoundFoldersAndAtTheRootButNotAvatars() throws {
        let world = try playedTwoRounds()
        try world.directory.write("x", to: "Content/projects/moon/rounds/0001/notes.txt")
        try world.directory.write("x", to: "Content/notes.txt")
        try world.directory.writeImage(to: "Content/users/ann.png")
        try world.directory.writeImage(to: "Content/projects/moon/rounds/0001/map.png")
        #expect(
            problems(world) == [
                "Content/notes.txt:1:1: error: unexpected file; expected prolific.yml, users/, projects/ or reports/",
                "Content/projects/moon/rounds/0001/notes.txt:1:1: error: unexpected file; expected round.md, submissions/, votes/ or images",
            ])
    }

    @Test func imagesAreFoundAndSVGAndOversizedImagesRefused() throws {
        let world = try playedTwoRounds()
        try world.directory.writeImage(to: "Content/users/ann.png")
        try world.directory.writeImage(to: "Content/projects/moon/rounds/0001/submissions/map.jpg")
        try world.directory.write("<svg/>", to: "Content/users/bob.svg")
        try world.directory.writeImage(to: "Content/projects/moon/big.gif", padding: ContentReader.maximumMediaSize)
        let (content, _) = world.reader.loadAll()
        #expect(content?.media == ["users/ann.png", "projects/moon/rounds/0001/submissions/map.jpg"])
        #expect(
            problems(world) == [
                "Content/projects/moon/big.gif:1:1: error: the image is 2.0 MiB; images may be at most 2 MiB",
                "Content/users/bob.svg:1:1: error: SVG images are not allowed (they can carry script); use PNG, JPEG, GIF, WebP or AVIF",
            ])
    }

    /// An SVG or HTML page named `.png` would still run script if a host sniffed it: its bytes must be the kind its name says.
    @Test func anImageWhoseBytesAreAnotherKindIsRefused() throws {
        let world = try playedTwoRounds()
        try world.directory.write("<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>", to: "Content/users/ann.png")
        try world.directory.writeImage(to: "Content/projects/moon/cover.gif")
        try FileManager.default.moveItem(
            atPath: world.directory.path("Content/projects/moon/cover.gif"), toPath: world.directory.path("Content/projects/moon/cover.webp"))
        try world.directory.writeImage(to: "Content/projects/moon/ok.jpeg")
        let (content, _) = world.reader.loadAll()
        #expect(content?.media == ["projects/moon/ok.jpeg"])
        #expect(
            problems(world) == [
                "Content/projects/moon/cover.webp:1:1: error: is not the image its name says: its bytes are not a WebP image",
                "Content/users/ann.png:1:1: error: is not the image its name says: its bytes are not a PNG image",
            ])
    }

    @Test func linksAreReportedEvenWithImageNamesAndLinkedFoldersAreNotFollowed() throws {
        let world = try playedTwoRounds()
        let elsewhere = try TemporaryDirectory()
        try elsewhere.write("---\nauthor: dan\nsubmitted: 2026-11-06T00:00:00Z\n---\n\nHi.\n", to: "dan-20261106000000.md")
        try FileManager.default.createSymbolicLink(
            atPath: world.directory.path("Content/projects/moon/cover.png"), withDestinationPath: "/etc/hostname")
        let submissions = world.directory.path("Content/projects/moon/rounds/0002/submissions")
        try FileManager.default.removeItem(atPath: submissions)
        try FileManager.default.createSymbolicLink(atPath: submissions, withDestinationPath: elsewhere.path)
        #expect(
            problems(world) == [
                "Content/projects/moon/cover.png:1:1: error: unexpected symbolic link (links are not allowed in content); expected project.md, rounds/ or images",
                "Content/projects/moon/rounds/0002/submissions:1:1: error: unexpected symbolic link (links are not allowed in content); expected round.md, submissions/, votes/ or images",
            ])
        let (project, _) = world.reader.loadProject(Make.slug("moon"), depth: .all)
        #expect(project?.rounds[1].submissions.isEmpty == true, "the linked folder was read")
    }

    @Test func reportsFilesThatDoNotParseAndKeepsGoing() throws {
        let world = try playedTwoRounds()
        try world.directory.write("---\nname: Dan\n---\n", to: "Content/users/dan.md")
        try world.directory.write("voter: bob\ncast: 2026-11-06T02:00:00Z\nfor: [ann-20261106000000]\ncolour: red\n", to: "Content/projects/moon/rounds/0002/votes/bob.yml")
        #expect(
            problems(world) == [
                "Content/projects/moon/rounds/0002/votes/bob.yml:4:1: error: unknown key 'colour'",
                "Content/users/dan.md:1:1: error: missing required key 'joined'",
            ])
        // The rest is still loaded.
        let (content, _) = world.reader.loadAll()
        #expect(content?.users.count == 3)
        #expect(content?.project(Make.slug("moon"))?.rounds[1].ballots.map(\.voter.rawValue) == ["cat"])
    }

    @Test func reportsPositionsOfBrokenReferences() throws {
        let world = try playedTwoRounds()
        try world.directory.write(
            "voter: bob\ncast: 2026-11-06T02:00:00Z\nfor:\n  - ann-20261106000000\n  - cat-20261102110000\n",
            to: "Content/projects/moon/rounds/0002/votes/bob.yml")
        let (content, problems) = world.reader.loadAll()
        #expect(problems == [])
        let found = ContentCheck.problems(in: try #require(content)).map(\.description)
        #expect(found == ["\(world.root)/projects/moon/rounds/0002/votes/bob.yml:5:5: error: 'cat-20261102110000' is not a submission of round 2"])
    }

    @Test func refusesContentFilesThatAreNotText() throws {
        let world = try playedTwoRounds()
        try Data([0x2D, 0x2D, 0x2D, 0x0A, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: world.directory.path("Content/users/dan.md")))
        #expect(problems(world) == ["Content/users/dan.md:2:1: error: is not valid UTF-8 text"])
    }

    @Test func missingThingsAreNamed() throws {
        let tmp = try TemporaryDirectory()
        let reader = ContentReader(layout: ContentLayout(root: tmp.path))
        #expect(
            thrown { () throws(Diagnostics) in try reader.loadConfig() }
                == ["\(tmp.path)/prolific.yml:1:1: error: no prolific.yml here; is '\(tmp.path)' a content directory? ('prolific init' makes one)"])
        let (content, problems) = reader.loadAll()
        #expect(content == nil)
        #expect(problems.count == 1)

        let world = try playedTwoRounds()
        #expect(
            thrown { () throws(Diagnostics) in try world.reader.loadUser(Make.handle("zed")) }
                == ["error: unknown user 'zed': there is no \(world.root)/users/zed.md"])
        #expect(
            thrown { () throws(Diagnostics) in try world.reader.loadProjectStrictly(Make.slug("sun")) }
                == ["error: unknown project 'sun': there is no \(world.root)/projects/sun"])
    }

    @Test func strictLoadingRefusesAProjectWithProblems() throws {
        let world = try playedTwoRounds()
        try world.directory.write("x", to: "Content/projects/moon/rounds/0002/submissions/notes.txt")
        #expect(
            thrown { () throws(Diagnostics) in try world.reader.loadProjectStrictly(Make.slug("moon")) }
                == ["\(world.root)/projects/moon/rounds/0002/submissions/notes.txt:1:1: error: unexpected file; expected a snippet named <author>-<yyyymmddhhmmss>.md"])
    }

    /// A build picks images from its inventory instead of listing every folder: the same images,
    /// the same problems, for every kind of file the scan tells apart, and for a file written
    /// just before the inventory (recorded as changed, so of unknown kind).
    @Test func imagesFromTheInventoryAreThoseTheScanFinds() throws {
        let tmp = try TemporaryDirectory()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46, 0, 1]
        func put(_ bytes: [UInt8], _ relative: String) throws {
            try FileManager.default.createDirectory(
                atPath: (tmp.path(relative) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: tmp.path(relative)))
        }
        let round = "projects/moon/rounds/0001/submissions"
        try put(png, "top.png")
        try put(png, "users/ann.png")
        try put(jpeg, "\(round)/pic.JPG")
        try put(Array("<svg/>".utf8), "users/bad.svg")
        try put(Array("<html>".utf8), "\(round)/fake.png")
        try put(png + [UInt8](repeating: 0, count: ContentReader.maximumMediaSize), "users/big.png")
        try put(png, "\(round)/deeper/too-deep.png")
        try put(png, "projects/moon/.hidden/x.png")
        try put(png, "users/.dot.png")
        try put(png, "users/notes.txt")
        try FileManager.default.createSymbolicLink(atPath: tmp.path("users/link.png"), withDestinationPath: "ann.png")
        try FileManager.default.createDirectory(atPath: tmp.path("users/folder.png"), withIntermediateDirectories: true)
        let reader = ContentReader(layout: ContentLayout(root: tmp.path))
        var scanned: [Diagnostic] = []
        let byScan = reader.scanMedia(into: &scanned)
        #expect(byScan == ["top.png", "users/ann.png", "\(round)/pic.JPG"])
        #expect(scanned.count == 3, "\(scanned)")

        func expectTheScan(from inventory: FileInventory?) throws {
            guard let inventory else {
                Issue.record("no inventory")
                return
            }
            var listed: [Diagnostic] = []
            let fromInventory = reader.scanMedia(into: &listed, inventory: inventory)
            var rescanned: [Diagnostic] = []
            #expect(fromInventory == reader.scanMedia(into: &rescanned))
            #expect(listed.sorted() == rescanned.sorted())
        }
        // Every entry settled; then every entry racy (changed after the moment given), with one
        // more image.
        try expectTheScan(from: FileInventory.take(of: tmp.path, skipping: [], racyAfter: .max))
        try put(jpeg, "users/fresh.jpg")
        let racy = FileInventory.take(of: tmp.path, skipping: [], racyAfter: 0)
        try expectTheScan(from: racy)
        #expect(reader.scanMedia(into: &scanned, inventory: racy).contains("users/fresh.jpg"))
    }

    @Test func layoutPaths() {
        let layout = ContentLayout(root: "Content//")
        #expect(layout.root == "Content")
        #expect(ContentLayout(root: "").root == ".")
        #expect(ContentLayout(root: "/").root == "/")
        #expect(layout.ballotFile(Make.slug("moon"), Make.number(3), Make.handle("bob")) == "Content/projects/moon/rounds/0003/votes/bob.yml")
        #expect(
            layout.submissionFile(Make.slug("moon"), Make.number(12), Make.id("ann-20261102101500"))
                == "Content/projects/moon/rounds/0012/submissions/ann-20261102101500.md")
        #expect(layout.userFile(Make.handle("ann")) == "Content/users/ann.md")
        #expect(layout.roundFile(Make.slug("moon"), Make.number(1)) == "Content/projects/moon/rounds/0001/round.md")
    }
}
