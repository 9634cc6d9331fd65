import Foundation
import ProlificCore
import ProlificStore
import Testing

@testable import ProlificCLI
@testable import ProlificServe

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `prolific serve`: the pure rules one by one, then the real binary serving, rebuilding and
/// stopping.
@Suite struct ServeTests {
    // MARK: Request paths

    @Test func slashesMapToIndexPages() {
        #expect(RequestPath(raw: "/") == .file(["index.html"]))
        #expect(RequestPath(raw: "/projects/moon/") == .file(["projects", "moon", "index.html"]))
        #expect(RequestPath(raw: "/style.css") == .file(["style.css"]))
        #expect(RequestPath(raw: "//users//ann/") == .file(["users", "ann", "index.html"]))
        #expect(RequestPath(raw: "/a%20b.html") == .file(["a b.html"]))
        #expect(RequestPath(raw: "/__prolific/build") == .buildToken)
    }

    @Test func traversalAndOddBytesAreRefused() {
        for raw in [
            "/../etc/passwd", "/projects/../../etc/passwd", "/./index.html", "/%2e%2e/etc/passwd", "/%2E%2E/",
            "/.%2e/x", "/a%2f..%2f..%2fetc", "/a%5c..%5cb", "/index.html%00.css", "/%zz", "index.html", "",
        ] {
            #expect(RequestPath(raw: raw) == .invalid, "\(raw)")
        }
    }

    // MARK: Content types

    @Test func contentTypesComeFromTheExtension() {
        #expect(ContentType.of("index.html") == "text/html; charset=utf-8")
        #expect(ContentType.of("style.css") == "text/css; charset=utf-8")
        #expect(ContentType.of("search.js") == "text/javascript; charset=utf-8")
        #expect(ContentType.of("search.json") == "application/json")
        #expect(ContentType.of("feed.xml") == "application/xml; charset=utf-8")
        #expect(ContentType.of("calendar.ics") == "text/calendar; charset=utf-8")
        #expect(ContentType.of("card.svg") == "image/svg+xml")
        #expect(ContentType.of("a.PNG") == "image/png")
        #expect(ContentType.of("a.jpg") == "image/jpeg")
        #expect(ContentType.of("a.gif") == "image/gif")
        #expect(ContentType.of("a.webp") == "image/webp")
        #expect(ContentType.of("moon.epub") == "application/epub+zip")
        #expect(ContentType.of("README") == "application/octet-stream")
        #expect(ContentType.of("x.unknown") == "application/octet-stream")
    }

    // MARK: Live reload

    @Test func theReloadScriptGoesBeforeTheLastBodyEnd() {
        let html = "<html><body><p>&lt;/body&gt;</p></BODY></html>"
        let served = LiveReload.inject(into: html, token: "r-3")
        #expect(served.hasPrefix("<html><body><p>&lt;/body&gt;</p><script>"))
        #expect(served.hasSuffix("</script></BODY></html>"))
        #expect(served.contains("const b=\"r-3\""))
        #expect(served.contains("fetch(\"/__prolific/build\""))
        #expect(!served.contains("http"), "no request leaves the page's own origin")
    }

    @Test func theReloadScriptIsAppendedWithoutABodyAndQuotesTheToken() {
        let served = LiveReload.inject(into: "<p>bare</p>", token: "a\"</script>")
        #expect(served.hasPrefix("<p>bare</p><script>"))
        #expect(served.contains("const b=\"a\\u0022\\u003c/script\\u003e\""))
        #expect(served.components(separatedBy: "</script>").count == 2, "the token can't close the script")
    }

    @Test func theBuildTokenChangesWithEachGoodBuild() async {
        let builds = BuildCounter()
        let first = await builds.token
        await builds.advance()
        let second = await builds.token
        #expect(first != second)
        #expect(second.hasSuffix("-1"))
    }

    // MARK: Fingerprint

    @Test func fingerprintChangesListAddedRemovedAndModifiedFiles() {
        let old = Fingerprint(files: [
            "C/a.md": .init(size: 1, modified: 10), "C/b.md": .init(size: 2, modified: 10),
            "C/c.md": .init(size: 3, modified: 10),
        ])
        let new = Fingerprint(files: [
            "C/a.md": .init(size: 1, modified: 10), "C/b.md": .init(size: 2, modified: 11),
            "C/d.md": .init(size: 4, modified: 12),
        ])
        #expect(new.changes(since: old) == ["C/b.md", "C/c.md", "C/d.md"])
        #expect(old.changes(since: old).isEmpty)
        #expect(Fingerprint.describe(["C/b.md"]) == "C/b.md changed")
        #expect(Fingerprint.describe(["C/b.md", "C/c.md", "C/d.md"]) == "C/b.md and 2 more changed")
    }

    @Test func fingerprintSeesEditsButNotDotFolders() throws {
        let folder = try TemporaryFolder()
        let content = folder.url.appendingPathComponent("Content").path
        try folder.write("title: A\n", to: "Content/prolific.yml")
        try folder.write("x", to: "Content/projects/moon/project.md")
        let before = Fingerprint.scan([content, folder.url.appendingPathComponent("Templates").path])
        #expect(before.files.count == 2)

        try folder.write("cache", to: "Content/.prolific/history.json")
        try folder.write("swap", to: "Content/projects/moon/.project.md.swp")
        #expect(Fingerprint.scan([content]).changes(since: before).isEmpty)

        try folder.write("title: Longer\n", to: "Content/prolific.yml")
        try folder.write("{{title}}", to: "Templates/base.mustache")
        let after = Fingerprint.scan([content, folder.url.appendingPathComponent("Templates").path])
        let templates = folder.url.path + "/Templates/base.mustache"
        #expect(after.changes(since: before) == ["\(content)/prolific.yml", templates])

        // The same size, a new time: seen. A link to a folder is one entry, not followed.
        let project = content + "/projects/moon/project.md"
        try folder.write("y", to: "Content/projects/moon/project.md")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000.5)], ofItemAtPath: project)
        try FileManager.default.createSymbolicLink(atPath: content + "/loop", withDestinationPath: content)
        let linked = Fingerprint.scan([content])
        #expect(linked.changes(since: Fingerprint.scan([content])).isEmpty)
        #expect(linked.files[project]?.modified == 1_000_000_000.5)
        #expect(linked.files[project]?.size == 1)
        #expect(linked.files.count == 3, "prolific.yml, project.md and the link: \(linked.files.keys.sorted())")
        #expect(linked.changes(since: after) == ["\(content)/loop", project, templates])

        // Put back with its old size and time, as `cp -p` does: its change time tells.
        try folder.write("z", to: "Content/projects/moon/project.md")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000.5)], ofItemAtPath: project)
        #expect(Fingerprint.scan([content]).changes(since: linked) == [project])
    }

    // MARK: The kernel's events

    #if os(Linux)
        /// What a scan would see, each change named once the kernel reports it: files written,
        /// folders made, renamed and removed, a missing root made; never a name with a dot.
        @Test func theKernelsEventsNameWhatAScanWouldSee() async throws {
            let folder = try TemporaryFolder()
            let content = folder.url.appendingPathComponent("Content").path
            let templates = folder.url.appendingPathComponent("Templates").path
            try folder.write("title: A\n", to: "Content/prolific.yml")
            try folder.write("x", to: "Content/projects/moon/project.md")
            try folder.write("cache", to: "Content/.prolific/history.json")
            let events = try #require(try FolderEvents(watching: [content, templates]))
            #expect(events.watchCount == 4, "Content, projects, moon and Templates' parent; not .prolific")

            try folder.write("cache 2", to: "Content/.prolific/history.json")
            try folder.write("swap", to: "Content/projects/moon/.project.md.swp")
            try folder.write("title: B\n", to: "Content/prolific.yml")
            #expect(try await Self.changes(events) == [content + "/prolific.yml"])

            // A folder made, then a file in it: watched as soon as it is seen.
            let sun = content + "/projects/sun"
            try FileManager.default.createDirectory(atPath: sun, withIntermediateDirectories: false)
            #expect(try await Self.changes(events) == [sun])
            try folder.write("y", to: "Content/projects/sun/project.md")
            #expect(try await Self.changes(events) == [sun + "/project.md"])

            // Renamed: both names, and the watch follows it.
            let star = content + "/projects/star"
            try FileManager.default.moveItem(atPath: sun, toPath: star)
            #expect(try await Self.changes(events) == [star, sun])
            try folder.write("z", to: "Content/projects/star/project.md")
            #expect(try await Self.changes(events) == [star + "/project.md"])

            // A folder renamed with folders in it: theirs follow too.
            let works = content + "/works"
            try FileManager.default.moveItem(atPath: content + "/projects", toPath: works)
            #expect(try await Self.changes(events) == [content + "/projects", works])
            try folder.write("w", to: "Content/works/moon/project.md")
            #expect(try await Self.changes(events) == [works + "/moon/project.md"])

            // Moved out of the watched folders: what happens to it then is not a change.
            let outside = folder.url.appendingPathComponent("outside").path
            try FileManager.default.moveItem(atPath: works + "/star", toPath: outside)
            #expect(try await Self.changes(events) == [works + "/star"])
            try folder.write("gone", to: "outside/project.md")
            try folder.write("v", to: "Content/works/moon/project.md")
            #expect(try await Self.changes(events) == [works + "/moon/project.md"])

            // The templates folder, missing at first, made later.
            try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: false)
            #expect(try await Self.changes(events) == [templates])
            try folder.write("{{title}}", to: "Templates/base.mustache")
            #expect(try await Self.changes(events) == [templates + "/base.mustache"])

            // The content folder itself removed, then made again.
            try FileManager.default.removeItem(atPath: content)
            #expect(try await Self.changes(events).contains(content))
            try folder.write("title: C\n", to: "Content/prolific.yml")
            let back = try await Self.changes(events)
            #expect(back.first == content, "\(back)")
            try folder.write("title: D\n", to: "Content/prolific.yml")
            #expect(try await Self.changes(events) == [content + "/prolific.yml"])
        }

        /// A folder inside that can't be read can't be watched (a scan can't read it either); once
        /// its permissions let it be read, it is watched and what is made in it is seen. Not as
        /// root, who reads every folder whatever its permissions.
        @Test(.enabled(if: getuid() != 0, "root reads a folder whatever its permissions"))
        func aFolderMadeReadableLaterIsWatched() async throws {
            let folder = try TemporaryFolder()
            let content = folder.url.appendingPathComponent("Content").path
            try folder.write("title: A\n", to: "Content/prolific.yml")
            let locked = content + "/locked"
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
            #expect(chmod(locked, 0) == 0)
            defer { chmod(locked, 0o755) }
            let events = try #require(try FolderEvents(watching: [content]))
            #expect(events.watchCount == 1, "Content alone: locked can't be read")

            #expect(chmod(locked, 0o755) == 0)
            #expect(try await Self.changes(events) == [locked])
            #expect(events.watchCount == 2)
            try folder.write("x", to: "Content/locked/a.md")
            #expect(try await Self.changes(events) == [locked + "/a.md"])
            // Times given to a watched folder watch nothing more.
            #expect(utimes(locked, nil) == 0)
            #expect(try await Self.changes(events) == [locked])
            #expect(events.watchCount == 2)
        }

        /// A root may be a link to a folder, as a scan follows it; a missing root inside another is
        /// waited for without the other going quiet.
        @Test func aLinkedRootAndAMissingOneInsideAnotherAreWatched() async throws {
            let folder = try TemporaryFolder()
            try folder.write("title: A\n", to: "Real/prolific.yml")
            let content = folder.url.appendingPathComponent("Content").path
            try FileManager.default.createSymbolicLink(atPath: content, withDestinationPath: folder.url.appendingPathComponent("Real").path)
            let theme = content + "/theme"
            let events = try #require(try FolderEvents(watching: [content, theme]))
            #expect(events.watchCount == 1, "Content, which is also the parent theme would appear in")

            try folder.write("title: B\n", to: "Content/prolific.yml")
            #expect(try await Self.changes(events) == [content + "/prolific.yml"])
            try FileManager.default.createDirectory(atPath: theme, withIntermediateDirectories: false)
            #expect(try await Self.changes(events) == [theme])
            try folder.write("{{title}}", to: "Content/theme/base.mustache")
            #expect(try await Self.changes(events) == [theme + "/base.mustache"])
            try folder.write("title: C\n", to: "Content/prolific.yml")
            #expect(try await Self.changes(events) == [content + "/prolific.yml"])

            // Neither a root nor its parent: the events are not for these folders.
            #expect(throws: FolderEvents.Unavailable.self) { try FolderEvents(watching: [content + "/no/such"]) }
        }

        /// `--poll` scans; otherwise the kernel's events are used.
        @Test func scansOnlyWhenAsked() throws {
            let folder = try TemporaryFolder()
            try folder.write("title: A\n", to: "Content/prolific.yml")
            let content = folder.url.appendingPathComponent("Content").path
            guard case .scans(let scanned) = Rebuilder.lookout(over: [content], poll: true) else {
                Issue.record("--poll did not scan")
                return
            }
            #expect(scanned.files.keys.sorted() == [content + "/prolific.yml"])
            guard case .events(let events) = Rebuilder.lookout(over: [content], poll: false) else {
                Issue.record("the kernel's events were not used")
                return
            }
            #expect(events.roots == [content])
        }

        /// The next changes `events` reports; fails the test after ten seconds without any.
        static func changes(_ events: FolderEvents) async throws -> [String] {
            try await withThrowingTaskGroup(of: [String]?.self) { group in
                group.addTask { try await events.next() }
                group.addTask {
                    try await Task.sleep(for: .seconds(10))
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                return try #require(first, "no change reported within 10 s")
            }
        }
    #endif

    // MARK: Site folder

    @Test func lookupsStayInsideTheSite() throws {
        let folder = try TemporaryFolder()
        try folder.write("<p>home</p>", to: "Site/index.html")
        try folder.write("<p>users</p>", to: "Site/users/index.html")
        try folder.write("secret", to: "secret.txt")
        try folder.write("", to: "Site/empty/.keep")
        let manager = FileManager.default
        let site = folder.url.appendingPathComponent("Site").path
        try manager.createSymbolicLink(atPath: site + "/leak.txt", withDestinationPath: folder.url.path + "/secret.txt")
        try manager.createSymbolicLink(atPath: site + "/up", withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: site + "/home.html", withDestinationPath: "index.html")

        let lookup = SiteFolder(root: site)
        let real = try #require(FileSystem.realPath(site))
        #expect(lookup.lookup(["index.html"]) == .file(real + "/index.html"))
        #expect(lookup.lookup(["users", "index.html"]) == .file(real + "/users/index.html"))
        #expect(lookup.lookup(["users"]) == .folder)
        #expect(lookup.lookup(["empty"]) == .missing, "a folder without an index page")
        #expect(lookup.lookup(["nope.html"]) == .missing)
        #expect(lookup.lookup(["leak.txt"]) == .missing, "a link out of the site")
        #expect(lookup.lookup(["up", "secret.txt"]) == .missing, "a folder link out of the site")
        #expect(lookup.lookup(["home.html"]) == .file(real + "/index.html"), "a link inside the site")
        #expect(SiteFolder(root: folder.url.path + "/Missing").lookup(["index.html"]) == .missing)
        #expect(!SiteFolder.isInside("/tmp/Site-old/x", "/tmp/Site"))
        #expect(SiteFolder.isInside("/tmp/Site/x", "/tmp/Site"))
    }

    // MARK: Handing over to prolific-serve

    @Test func theOptionsHandedToTheServerParseBackTheSame() throws {
        let given = try ServeOptions.parse([
            "--content", "my game/Content", "--out=-Site", "--port", "0", "--templates=--x=y", "--now",
            "2026-11-22T13:00:00Z", "--poll",
        ])
        let handed = try ServeOptions.parse(given.arguments)
        #expect(handed.global.content == "my game/Content")
        #expect(handed.out == "-Site")
        #expect(handed.port == 0)
        #expect(handed.templates == "--x=y")
        #expect(handed.global.now == Timestamp(iso8601: "2026-11-22T13:00:00Z"))
        #expect(handed.poll)

        #expect(given.arguments == given.buildArguments + ["--port=0", "--poll"])
        let build = try BuildCommand.parse(given.buildArguments)
        #expect(build.global.content == "my game/Content" && build.out == "-Site" && build.templates == "--x=y")
        #expect(build.global.now == handed.global.now && !build.quiet)

        let defaults = try ServeOptions.parse(try ServeOptions.parse([]).arguments)
        #expect(defaults.global.content == "Content" && defaults.out == "Site" && defaults.port == 8000)
        #expect(defaults.templates == nil && defaults.global.now == nil, "no --templates or --now invented")
        #expect(!defaults.poll, "the kernel's events unless asked")
    }

    @Test func eachProgramLooksForTheOtherInItsOwnFolder() {
        #expect(ServeLauncher.path(of: "prolific-serve", beside: "/usr/local/bin/prolific") == "/usr/local/bin/prolific-serve")
        #expect(ServeLauncher.path(of: "prolific", beside: "/opt/my tools/prolific-serve") == "/opt/my tools/prolific")
    }

    @Test func aRebuildsLinesSayWhatCausedIt() {
        let built = SiteBuild.Outcome(succeeded: true, printed: "a warning\nBuilt 3 pages (5 files, 1 changed) into Site/ in 0.10 s.\n")
        #expect(
            SiteBuild.report(built, because: "C/a.md changed")
                == ["a warning", "C/a.md changed. Built 3 pages (5 files, 1 changed) into Site/ in 0.10 s."])
        #expect(SiteBuild.report(.init(succeeded: true, printed: ""), because: nil).isEmpty, "the first build printed its own")
        let failed = SiteBuild.Outcome(succeeded: false, printed: "C/prolific.yml:1:8: error: bad\n")
        #expect(
            SiteBuild.report(failed, because: "C/prolific.yml changed")
                == ["C/prolific.yml:1:8: error: bad", "C/prolific.yml changed. The build failed; still serving the previous site."])
        #expect(SiteBuild.report(failed, because: nil).last == "The build failed; still serving the previous site.")
        let killed = SiteBuild.Outcome(succeeded: false, printed: "", signal: SIGKILL)
        #expect(
            SiteBuild.report(killed, because: nil)
                == ["error: the build was ended by signal 9", "The build failed; still serving the previous site."])
        #expect(!killed.wasStopped && SiteBuild.Outcome(succeeded: false, printed: "", signal: SIGINT).wasStopped)
    }

    @Test func aLongScanIsFollowedByALongerRest() {
        let rebuilder = Rebuilder(site: SiteBuild(program: "prolific", arguments: []), watched: [], builds: BuildCounter())
        #expect(rebuilder.pause(after: .milliseconds(3)) == .milliseconds(500), "a small game: every half second")
        #expect(rebuilder.pause(after: .milliseconds(1800)) == .milliseconds(3600), "a large one: after twice the scan")
        #expect(rebuilder.pause(after: .seconds(3600)) == .seconds(10), "never long")
    }

    /// A build whose messages would outgrow what is kept of them is stopped, and says so.
    @Test func aBuildThatPrintsTooMuchIsStopped() async throws {
        let folder = try TemporaryFolder()
        let noisy = folder.url.appendingPathComponent("noisy").path
        try TestProgram.write(
            "#!/bin/sh\nhead -c \(SiteBuild.printedLimit + 1) /dev/zero | tr '\\0' x >&2\n", to: URL(fileURLWithPath: noisy))
        let build = SiteBuild(program: noisy, arguments: [])
        do {
            let outcome = try await build.run(capturing: true)
            Issue.record("not stopped: \(outcome.succeeded), \(outcome.printed.count) bytes")
        } catch {
            #expect(SiteBuild.explain(error, program: noisy) == "error: the build printed more than 4 MiB of messages and was stopped")
        }
        let missing = folder.url.appendingPathComponent("none").path
        await #expect(throws: (any Error).self) { try await SiteBuild(program: missing, arguments: []).run(capturing: true) }
    }

    /// Through a symbolic link, `prolific serve` still runs the `prolific-serve` beside the real
    /// binary; copied alone, it says in one line what is missing.
    @Test func serveRunsTheServerBesideTheRealBinaryOrSaysItIsMissing() throws {
        let folder = try TemporaryFolder()
        // The programs name files by their real paths (`/proc/self/exe`).
        let real = folder.url.resolvingSymlinksInPath().path
        let link = folder.url.appendingPathComponent("linked-prolific").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: CLI.executable.path)
        let linked = try Shell.attempt([link, "serve", "--content", "Missing", "--port", "0"], in: folder.url)
        #expect(linked.status == 1)
        #expect(linked.errors == "error: no content directory at 'Missing'; pass --content or run 'prolific init'\n")

        let alone = folder.url.appendingPathComponent("alone/prolific")
        try TestProgram.copy(CLI.executable, to: alone)
        let missing = try Shell.attempt([alone.path, "serve", "--port", "0"], in: folder.url)
        #expect(missing.status == 1)
        #expect(
            missing.errors == "error: no prolific-serve at '\(real)/alone/prolific-serve': 'prolific serve' runs it"
                + " from the folder of prolific; build both with 'make release', or install both with 'make install'\n")
        #expect(missing.output.isEmpty)

        // prolific-serve builds with the prolific beside it, and says so when there is none.
        let server = folder.url.appendingPathComponent("server/prolific-serve")
        try TestProgram.copy(CLI.executable.deletingLastPathComponent().appendingPathComponent("prolific-serve"), to: server)
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Content"), withIntermediateDirectories: true)
        let noBuilder = try Shell.attempt([server.path, "--port", "0"], in: folder.url)
        #expect(noBuilder.status == 1)
        #expect(
            noBuilder.errors == "error: no prolific at '\(real)/server/prolific': prolific-serve builds the site with"
                + " the prolific in its own folder; build both with 'make release', or install both with 'make install'\n")
    }

    #if os(Linux)
        /// A `prolific-serve` whose `prolific` notes the signals it blocks and ignores and its
        /// process, then builds for a minute.
        struct StandIn {
            let folder: TemporaryFolder
            let server: URL

            init() throws {
                folder = try TemporaryFolder()
                let bin = folder.url.appendingPathComponent("bin")
                try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
                server = bin.appendingPathComponent("prolific-serve")
                try TestProgram.copy(CLI.executable.deletingLastPathComponent().appendingPathComponent("prolific-serve"), to: server)
                // grep reads its own signals, which it has from the shell as the shell has them
                // from prolific-serve (the shell's own, in /proc/$$, are all blocked while it
                // starts a command); the process number is written whole, then renamed into place.
                try TestProgram.write(
                    """
                    #!/bin/sh
                    here="$(dirname "$0")"
                    grep -E 'SigBlk|SigIgn' /proc/self/status > "$here/signals"
                    echo $$ > "$here/pid.tmp" && mv "$here/pid.tmp" "$here/pid"
                    exec sleep 60

                    """, to: bin.appendingPathComponent("prolific"))
                try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Content"), withIntermediateDirectories: true)
            }

            /// The build's process, once it has started.
            func build(_ serve: ServeProcess) throws -> pid_t {
                #expect(waitUntil(within: 30) { (try? folder.read("bin/pid")) != nil }, "the build never started: \(serve.stderr)")
                return try #require(pid_t(folder.read("bin/pid").trimmingCharacters(in: .whitespacesAndNewlines)))
            }

            /// The build's blocked and ignored signals, each a mask.
            func signals() throws -> [String: UInt64] {
                var masks: [String: UInt64] = [:]
                for line in try folder.read("bin/signals").split(separator: "\n") {
                    let parts = line.split(separator: "\t")
                    if parts.count == 2 { masks[String(parts[0])] = UInt64(parts[1], radix: 16) }
                }
                return masks
            }
        }

        /// The build gets Ctrl-C and SIGTERM (neither blocked nor ignored), and stopping the
        /// server stops it too.
        @Test func aBuildGetsEverySignalAndEndsWithTheServer() throws {
            let standIn = try StandIn()
            let serve = try ServeProcess(["--port", "0"], in: standIn.folder, program: standIn.server)
            defer { serve.stop() }
            let build = try standIn.build(serve)
            let masks = try standIn.signals()
            #expect(masks["SigBlk:"] == 0, "\(masks)")
            let stops: UInt64 = 1 << (UInt64(SIGINT) - 1) | 1 << (UInt64(SIGTERM) - 1) | 1 << (UInt64(SIGHUP) - 1)
            #expect(masks["SigIgn:"].map { $0 & stops } == 0, "\(masks)")

            serve.terminate()
            #expect(serve.waitForExit(within: 10) == 0)
            #expect(waitUntil(within: 10) { kill(build, 0) != 0 }, "the build outlived the server")
            #expect(!serve.stderr.contains("The build failed"), "\(serve.stderr)")
            #expect(!serve.stdout.contains("Serving"), "\(serve.stdout)")
        }

        /// Ctrl-C as a terminal sends it, to the server and its build at once: both stop, and
        /// nothing says the build failed or the site is served.
        @Test(.enabled(if: Shell.has("setsid"))) func ctrlCStopsTheServerAndItsBuildQuietly() throws {
            let standIn = try StandIn()
            // A session of its own, so that a signal to its group reaches no one else.
            let serve = try ServeProcess(
                ["-w", standIn.server.path, "--port", "0"], in: standIn.folder, program: URL(fileURLWithPath: "/usr/bin/setsid"))
            defer { serve.stop() }
            let build = try standIn.build(serve)
            let group = getpgid(build)
            try #require(group > 0 && group != getpgrp())
            // Should setsid have forked, stopping the test's process leaves the server: end the group.
            defer { kill(-group, SIGKILL) }

            kill(-group, SIGINT)
            #expect(serve.waitForExit(within: 10) == 0, "\(serve.stderr)")
            #expect(waitUntil(within: 10) { kill(build, 0) != 0 }, "the build outlived the server")
            #expect(!serve.stderr.contains("The build failed"), "\(serve.stderr)")
            #expect(!serve.stdout.contains("Serving"), "\(serve.stdout)")
        }
    #endif

    /// `serve` builds with `prolific build`, so the caches of a build made before it are its own:
    /// its first build finds the site up to date.
    @Test func serveKeepsTheCachesOfABuildBeforeIt() throws {
        let folder = try TemporaryFolder()
        #expect(try CLI.run(["init", "game", "--title", "Shared Tales"], in: folder.url).status == 0)
        // Files younger than the file system's time stamps can tell apart are always read again.
        Thread.sleep(forTimeInterval: 2.1)
        let options = ["--content", "game/Content", "--out", "game/Site", "--now", "2026-11-22T12:00:00Z"]
        let built = try CLI.run(["build"] + options, in: folder.url)
        #expect(built.status == 0, "\(built.stderr)")

        let server = try ServeProcess(options + ["--port", "0"], in: folder)
        defer {
            server.stop()
            withExtendedLifetime(folder) {}
        }
        #expect(server.port(within: 60) != nil, "no 'Serving' line; stderr: \(server.stderr)")
        #expect(server.stderr.contains("game/Site/ is up to date: nothing changed since the last build"), "\(server.stderr)")
    }

    // MARK: The real server

    @Test func servesRebuildsAndStops() throws {
        let folder = try TemporaryFolder()
        let created = try CLI.run(["init", "game", "--title", "Serve Tales"], in: folder.url)
        #expect(created.status == 0, "\(created.stderr)")

        let server = try ServeProcess(["--content", "game/Content", "--out", "game/Site", "--port", "0"], in: folder)
        defer {
            server.stop()
            withExtendedLifetime(folder) {}
        }
        let port = try #require(server.port(within: 60), "no 'Serving' line; stderr: \(server.stderr)")
        #expect(server.stdout.contains("Serving game/Site/ at http://127.0.0.1:\(port)/ (Ctrl-C to stop)"))

        let home = try HTTP.request("GET", "/", port: port)
        #expect(home.status == 200)
        #expect(home.headers["content-type"] == "text/html; charset=utf-8")
        #expect(home.body.contains("Serve Tales"))
        #expect(home.body.contains("fetch(\"/__prolific/build\""))
        #expect(try !folder.read("game/Site/index.html").contains("__prolific"), "built files stay untouched")

        let head = try HTTP.request("HEAD", "/", port: port)
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["content-length"] == home.headers["content-length"])
        #expect(try HTTP.request("GET", "/style.css", port: port).headers["content-type"] == "text/css; charset=utf-8")
        #expect(try HTTP.request("GET", "/feed.xml", port: port).status == 200)
        let folderWithoutSlash = try HTTP.request("GET", "/users", port: port)
        #expect(folderWithoutSlash.status == 301 && folderWithoutSlash.headers["location"] == "/users/")
        #expect(try HTTP.request("POST", "/", port: port).status == 405)

        for traversal in ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd"] {
            let refused = try HTTP.request("GET", traversal, port: port)
            #expect(refused.status == 400, "\(traversal)")
            #expect(!refused.body.contains("root:"))
        }
        let missing = try HTTP.request("GET", "/no/such/page.html", port: port)
        #expect(missing.status == 404)
        #expect(missing.headers["content-type"] == "text/html; charset=utf-8", "the site's own 404 page")
        #expect(missing.body.contains("__prolific"))

        // An edit is rebuilt and served; the token tells open pages to reload.
        let first = try HTTP.request("GET", "/__prolific/build", port: port).body
        let config = try folder.read("game/Content/prolific.yml")
        let edited = config.replacingOccurrences(of: "Serve Tales", with: "Edited Tales")
        try folder.write(edited, to: "game/Content/prolific.yml")
        let second = try HTTP.waitForToken(other: first, port: port, within: 30)
        #expect(second != first)
        #expect(server.stderr.contains("game/Content/prolific.yml changed. Built"), "\(server.stderr)")
        #expect(try HTTP.request("GET", "/", port: port).body.contains("Edited Tales"))

        // Broken content: the errors are printed and the previous site stays served.
        try folder.write(config + "title: [\n", to: "game/Content/prolific.yml")
        #expect(server.waitForStderr("still serving the previous site", within: 30), "\(server.stderr)")
        #expect(server.stderr.contains("game/Content/prolific.yml:"))
        #expect(server.stderr.contains(": error: "))
        #expect(try HTTP.request("GET", "/__prolific/build", port: port).body == second)
        #expect(try HTTP.request("GET", "/", port: port).body.contains("Edited Tales"))

        // The next good edit recovers.
        try folder.write(config, to: "game/Content/prolific.yml")
        _ = try HTTP.waitForToken(other: second, port: port, within: 30)
        #expect(try HTTP.request("GET", "/", port: port).body.contains("Serve Tales"))

        // The port is taken now: a second server says so and fails.
        let rival = try ServeProcess(
            ["--content", "game/Content", "--out", "game/Other", "--port", String(port)], in: folder)
        defer { rival.stop() }
        #expect(rival.waitForExit(within: 30) == 1)
        #expect(rival.stderr.contains("error: port \(port) on 127.0.0.1 is already in use"), "\(rival.stderr)")

        // Ctrl-C stops it cleanly.
        server.interrupt()
        #expect(server.waitForExit(within: 10) == 0)
    }
}

extension ServeTests {
    /// With `--poll`, an edit is rebuilt and served too (that the flag chooses scanning is
    /// `scansOnlyWhenAsked`: from outside, both ways look the same).
    @Test func servesRebuildsWhenScanning() throws {
        let folder = try TemporaryFolder()
        let created = try CLI.run(["init", "game", "--title", "Scanned Tales"], in: folder.url)
        #expect(created.status == 0, "\(created.stderr)")
        let server = try ServeProcess(["--content", "game/Content", "--out", "game/Site", "--port", "0", "--poll"], in: folder)
        defer {
            server.stop()
            withExtendedLifetime(folder) {}
        }
        let port = try #require(server.port(within: 60), "no 'Serving' line; stderr: \(server.stderr)")
        let first = try HTTP.request("GET", "/__prolific/build", port: port).body
        let config = try folder.read("game/Content/prolific.yml")
        try folder.write(config.replacingOccurrences(of: "Scanned Tales", with: "Rescanned Tales"), to: "game/Content/prolific.yml")
        _ = try HTTP.waitForToken(other: first, port: port, within: 30)
        #expect(try HTTP.request("GET", "/", port: port).body.contains("Rescanned Tales"))
        #expect(server.stderr.contains("game/Content/prolific.yml changed. Built"), "\(server.stderr)")
        server.interrupt()
        #expect(server.waitForExit(within: 10) == 0)
    }
}

/// Programs the tests put in place, each written by `install` in a process of its own: a file this
/// process had open for writing may be inherited by a child another test forks meanwhile, and
/// running it then fails with "Text file busy" (it did once, a copy of prolific-serve).
enum TestProgram {
    static func copy(_ source: URL, to destination: URL) throws {
        let folder = destination.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Shell.run(["install", "-m", "0755", source.path, destination.path], in: folder)
    }

    static func write(_ script: String, to destination: URL) throws {
        let source = destination.appendingPathExtension("source")
        try FileManager.default.createDirectory(at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(script.utf8).write(to: source)
        try copy(source, to: destination)
    }
}

/// `prolific serve …` running in the background, its output going to files the test polls.
final class ServeProcess {
    private let process = Process()
    private let out: URL
    private let err: URL

    /// `prolific serve arguments…`, or `program arguments…` when a program is given.
    init(_ arguments: [String], in folder: TemporaryFolder, program: URL? = nil) throws {
        let name = UUID().uuidString
        out = folder.url.appendingPathComponent("serve-\(name).out")
        err = folder.url.appendingPathComponent("serve-\(name).err")
        try Data().write(to: out)
        try Data().write(to: err)
        process.executableURL = program ?? CLI.executable
        process.arguments = program == nil ? ["serve"] + arguments : arguments
        process.currentDirectoryURL = folder.url
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
    }

    var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

    /// The port from the `Serving … at http://127.0.0.1:PORT/` line, once it is printed.
    func port(within seconds: Double) -> UInt16? {
        var found: UInt16?
        _ = waitUntil(within: seconds) {
            guard let range = self.stdout.range(of: "http://127.0.0.1:") else { return false }
            found = UInt16(self.stdout[range.upperBound...].prefix { $0.isNumber })
            return found != nil
        }
        return found
    }

    func waitForStderr(_ text: String, within seconds: Double) -> Bool {
        waitUntil(within: seconds) { self.stderr.contains(text) }
    }

    /// The exit status, or nil if it is still running after `seconds`.
    func waitForExit(within seconds: Double) -> Int32? {
        waitUntil(within: seconds) { !self.process.isRunning } ? process.terminationStatus : nil
    }

    func interrupt() { process.interrupt() }

    func terminate() { process.terminate() }

    /// Ends the process whatever state the test left it in: SIGTERM, then SIGKILL.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        if waitForExit(within: 5) == nil {
            _ = kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// Checks `condition` every 50 ms until it holds or `seconds` pass.
func waitUntil(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return condition()
}

/// A minimal HTTP/1.0 client over a plain socket: it sends the path exactly as written (a
/// URL library would tidy `..` away before the server could refuse it).
enum HTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func request(_ method: String, _ path: String, port: UInt16) throws -> Response {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect to \(port): \(errno)") }
        let request = Array("\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard send(fd, request, request.count, 0) == request.count else { throw Failure(description: "send: \(errno)") }
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else {
                if count < 0 { throw Failure(description: "recv: \(errno)") }
                break
            }
            data += buffer[..<count]
        }
        return try parse(String(decoding: data, as: UTF8.self))
    }

    static func parse(_ text: String) throws -> Response {
        guard let end = text.range(of: "\r\n\r\n") else { throw Failure(description: "no header end in \(text)") }
        let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "no status in \(text)")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: String(text[end.upperBound...]))
    }

    /// The build token once it differs from `other`.
    static func waitForToken(other: String, port: UInt16, within seconds: Double) throws -> String {
        var token = other
        _ = waitUntil(within: seconds) {
            token = (try? request("GET", "/__prolific/build", port: port).body) ?? other
            return token != other
        }
        guard token != other else { throw Failure(description: "the build token stayed '\(other)'") }
        return token
    }
}
