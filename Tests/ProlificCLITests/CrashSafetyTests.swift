import Foundation
import Testing

/// `submit`, `vote`, `close` and `build` killed with SIGKILL at random moments, again and again.
/// After every kill: the lock is free at once, `check` passes, every file recorded before is
/// still there byte for byte, what the killed command wrote is whole or absent, and `Site/` is
/// the previous site or the new one, never a mix and never missing.
///
/// 25 kills per command in `make test`, 300 under `make stress` (PROLIFIC_STRESS=1). Each test
/// prints its seed (PROLIFIC_SEED=N repeats a run) and its figures (docs/reliability.md).
/// A killed write may leave a `.prolific-tmp-PID-…` file: the content ignores it, and the next
/// write to that folder removes it, which the tests check after every command that finished.
@Suite struct CrashSafetyTests {
    static let kills = Stress.count(fast: 25, long: 300)

    @Test func submitKilledAtRandomMoments() throws {
        let authors = (0..<(2 * Self.kills + 10)).map { "a\($0)" }
        let game = try StressGame(players: authors)
        var killer = RandomKiller(name: "CrashSafety.submit", scratch: game.folder.url)
        let folder = "\(game.roundFolder(1))/submissions"
        var next = 0
        var step = 0
        while killer.kills < Self.kills {
            defer { step += 1 }
            let now = Moment.at(3_600 + step * 60)
            let author = authors[next]
            let body = "Snippet \(step) by \(author)."
            let id = "\(author)-\(Moment.idStamp(now))"
            let path = "\(folder)/\(id).md"
            let before = game.files(), temporaries = game.temporaries()
            let run = try killer.run(["submit", "moon", "--author", author, "--content", game.content.path, "--now", now], input: body)
            killer.expectLockFree(game.content, after: run)
            let after = game.files()
            #expect(StressGame.differences(before, after).allSatisfy { $0 == path }, "\(run) changed other files")
            let landed = after[path] != nil
            if landed {
                let whole = Data(StressGame.submission(author: author, at: now, body: body).utf8)
                #expect(after[path] == whole, "\(run): \(path) is not whole")
                next += 1
            }
            if run.exit == .exited(0) {
                #expect(landed && run.stdout == "\(id)\n", "\(run)")
                #expect(!game.temporaries().contains { $0.hasPrefix(folder) }, "a finished submit left temporary files")
            }
            try killer.judge(run, landed: landed, wroteTemporary: game.temporaries() != temporaries)
            if let check = try game.checkIfChanged(now: now) {
                #expect(check.status == 0, "check fails after \(run): \(check.stderr)")
            }
        }
        killer.report()
    }

    @Test func voteKilledAtRandomMoments() throws {
        let voters = (0..<6).map { "v\($0)" }
        let game = try StressGame(players: ["s0", "s1", "s2"] + voters)
        let ids = try (0..<3).map {
            try game.succeed(["submit", "moon", "--author", "s\($0)"], now: Moment.at(60 * ($0 + 1)), input: "Snippet \($0).")
                .trimmingCharacters(in: .newlines)
        }
        var killer = RandomKiller(name: "CrashSafety.vote", scratch: game.folder.url)
        var step = 0
        while killer.kills < Self.kills {
            defer { step += 1 }
            let now = Moment.at(3_600 + step * 60)
            let voter = voters[Int.random(in: 0..<voters.count, using: &killer.random)]
            let choices = Array(ids.shuffled(using: &killer.random).prefix(Int.random(in: 1...ids.count, using: &killer.random)))
            let path = "\(game.roundFolder(1))/votes/\(voter).yml"
            let ballot = Data(StressGame.ballot(voter: voter, at: now, for: choices).utf8)
            let before = game.files(), temporaries = game.temporaries()
            let run = try killer.run(["vote", "moon", "--voter", voter, "--content", game.content.path, "--now", now] + choices)
            killer.expectLockFree(game.content, after: run)
            let after = game.files()
            #expect(StressGame.differences(before, after).allSatisfy { $0 == path }, "\(run) changed other files")
            #expect(after[path] == before[path] || after[path] == ballot, "\(run): \(path) is neither the old ballot nor the new one")
            if run.exit == .exited(0) {
                #expect(after[path] == ballot && run.stdout.hasPrefix("Recorded @\(voter)'s ballot"), "\(run)")
                #expect(!game.temporaries().contains { $0.hasPrefix("\(game.roundFolder(1))/votes") }, "a finished vote left a temporary file")
            }
            try killer.judge(
                run, landed: after[path] == ballot && before[path] != ballot, wroteTemporary: game.temporaries() != temporaries)
            if let check = try game.checkIfChanged(now: now) {
                #expect(check.status == 0, "check fails after \(run): \(check.stderr)")
            }
        }
        killer.report()
    }

    /// Closing writes round.md (the deciding write), then opens the next round; a close killed
    /// between the two leaves the project without an open round, which `check` warns about and
    /// the next command on the project settles: the tests expect that round, byte for byte.
    @Test func closeKilledAtRandomMoments() throws {
        let authors = (0..<4).map { "a\($0)" }, voters = (0..<4).map { "w\($0)" }
        let game = try StressGame(players: authors + voters)
        var killer = RandomKiller(name: "CrashSafety.close", scratch: game.folder.url)
        var round = 1
        var snippet: String? = nil
        var settling: (path: String, text: String)? = nil
        let year = 365 * 86_400
        var step = 0
        while killer.kills < Self.kills {
            defer { step += 1 }
            let base = 3_600 * (step + 1)
            if snippet == nil {
                // A snippet and a ballot for the round, written as submit and vote would.
                let author = authors[round % authors.count], voter = voters[round % voters.count]
                let id = "\(author)-\(Moment.idStamp(Moment.at(base)))"
                let body = "Round \(round) by \(author)."
                if let settling {
                    // The close was cut before it opened this round: the next command opens it.
                    #expect(try game.succeed(["submit", "moon", "--author", author], now: Moment.at(base), input: body) == "\(id)\n")
                    let opened = try String(contentsOfFile: game.path(settling.path), encoding: .utf8)
                    #expect(opened == settling.text, "the next command opened another round")
                } else {
                    let snippet = StressGame.submission(author: author, at: Moment.at(base), body: body)
                    try game.write(snippet, to: "\(game.roundFolder(round))/submissions/\(id).md")
                }
                let ballot = StressGame.ballot(voter: voter, at: Moment.at(base + 60), for: [id])
                try game.write(ballot, to: "\(game.roundFolder(round))/votes/\(voter).yml")
                snippet = id
                settling = nil
            }
            let closing = base + 120
            let now = Moment.at(closing)
            let roundFile = "\(game.roundFolder(round))/round.md", nextFile = "\(game.roundFolder(round + 1))/round.md"
            let opened = "---\nopened: \(now)\ncloses: \(Moment.at(closing + year))\n---\n"
            let before = game.files(), temporaries = game.temporaries()
            let run = try killer.run(["close", "moon", "--content", game.content.path, "--now", now])
            killer.expectLockFree(game.content, after: run)
            let after = game.files()
            #expect(
                StressGame.differences(before, after).allSatisfy { $0 == roundFile || $0 == nextFile }, "\(run) changed other files")
            let text = after[roundFile].map { String(decoding: $0, as: UTF8.self) } ?? ""
            let closed = text.contains("\nclosed: \(now)\n") && text.contains("\nwinner: \(snippet!)\n")
            #expect(closed || after[roundFile] == before[roundFile], "\(run): \(roundFile) is neither open nor closed:\n\(text)")
            if let next = after[nextFile] {
                #expect(closed && next == Data(opened.utf8), "\(run): round \(round + 1) opened wrongly")
            }
            if run.exit == .exited(0) {
                #expect(closed && after[nextFile] != nil && run.stdout.hasPrefix("Closed round \(round)"), "\(run)")
                #expect(!game.temporaries().contains { $0.hasPrefix(game.roundFolder(round)) }, "a finished close left temporary files")
            }
            try killer.judge(run, landed: closed, wroteTemporary: game.temporaries() != temporaries)
            if closed && after[nextFile] == nil {
                killer.count("round closed, next round left to the next command")
                settling = (nextFile, opened)
            }
            // check recounts every closed round's tally: a closed round.md is whole and right.
            if let check = try game.checkIfChanged(now: now) {
                #expect(check.status == 0, "check fails after \(run): \(check.stderr)")
            }
            if closed {
                round += 1
                snippet = nil
            }
        }
        killer.report()
    }

    /// The state a close killed while opening the next round leaves, made by hand: round 2's
    /// folder holds only the temporary file of a process that is gone. `check` passes (with a
    /// warning), and the next command opens round 2 as the close would have, and sweeps the file.
    @Test func aCloseCutWhileOpeningTheNextRoundIsFinishedByTheNextCommand() throws {
        let game = try StressGame(players: ["ann", "bo", "cy"])
        let id = try game.succeed(["submit", "moon", "--author", "bo"], now: Moment.at(60), input: "Bo's turn.")
        try game.succeed(["vote", "moon", "--voter", "cy", id.trimmingCharacters(in: .newlines)], now: Moment.at(120))
        try game.succeed(["close", "moon"], now: Moment.at(180))
        let roundFile = "\(game.roundFolder(2))/round.md"
        let opened = try String(contentsOfFile: game.path(roundFile), encoding: .utf8)
        try FileManager.default.removeItem(atPath: game.path(roundFile))
        // A process id above the kernel's limit (2^22) belongs to no process.
        let temporary = "\(game.roundFolder(2))/.prolific-tmp-99999999-AbCdEf"
        try game.write(opened, to: temporary)

        let check = try game.check(now: Moment.at(240))
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("warning: the project has no open round; the next command on it opens one"), "\(check.stdout)")
        try game.succeed(["submit", "moon", "--author", "cy"], now: Moment.at(300), input: "Cy's turn.")
        #expect(try String(contentsOfFile: game.path(roundFile), encoding: .utf8) == opened)
        #expect(game.temporaries().isEmpty, "left: \(game.temporaries())")
        #expect(try game.check(now: Moment.at(360)).stderr.contains(": 0 errors, 0 warnings."))
    }

    /// Each step renames the game, so every page of the new site differs from the previous one.
    /// Where Site/ changed, a build into another folder gives the new site to compare it with.
    @Test func buildKilledAtRandomMoments() throws {
        let game = try StressGame(players: ["ann", "bo", "cy"])
        try game.succeed(["submit", "moon", "--author", "bo"], now: Moment.at(60), input: "Bo's turn.")
        let cy = try game.succeed(["submit", "moon", "--author", "cy"], now: Moment.at(120), input: "Cy's turn.")
        try game.succeed(["vote", "moon", "--voter", "ann", cy.trimmingCharacters(in: .newlines)], now: Moment.at(180))
        let now = Moment.at(3_600)
        let config = game.content.appendingPathComponent("prolific.yml")
        let settings = try String(contentsOf: config, encoding: .utf8)
        var killer = RandomKiller(name: "CrashSafety.build", scratch: game.folder.url)
        let reference = game.folder.url.appendingPathComponent("reference")
        var step = 0
        while killer.kills < Self.kills {
            defer { step += 1 }
            try Data(settings.replacingOccurrences(of: "title: Stress\n", with: "title: Stress \(step)\n").utf8).write(to: config)
            let before = StressGame.tree(game.site)
            let run = try killer.run(["build", "--content", game.content.path, "--out", game.site.path, "--now", now])
            let after = StressGame.tree(game.site)
            #expect(step == 0 || FileManager.default.fileExists(atPath: game.site.path), "\(run): Site/ is missing")
            let leftovers = try Self.leftovers(in: game.root)
            if after == before, case .signaled = run.exit {
                killer.count(leftovers.contains { $0.hasSuffix("-\(run.pid)") } ? "killed while writing" : "killed before writing")
                continue
            }
            // Site/ changed: it must be the whole new site, as a build into another folder makes it.
            try? FileManager.default.removeItem(at: reference)
            try game.succeed(["build", "--out", reference.path], now: now)
            let new = StressGame.tree(reference)
            #expect(after == new, "\(run): Site/ is a mix: \(StressGame.differences(after, new).prefix(5)) differ from the new site")
            if case .signaled = run.exit {
                killer.count("killed after the swap")
            } else {
                #expect(leftovers.isEmpty, "a finished build left \(leftovers)")
                try killer.judge(run, landed: true, wroteTemporary: false)
            }
        }
        try game.succeed(["build", "--out", game.site.path], now: now)
        #expect(try Self.leftovers(in: game.root).isEmpty, "the last build left staging folders")
        killer.report()
    }

    /// The `.Site.building-PID` and `.Site.old-PID` folders beside `Site/` (not `.Site.spare`, the
    /// replaced site every build keeps for the next one to rewrite).
    static func leftovers(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".Site.") && $0 != ".Site.spare" }.sorted()
    }
}

/// Starts commands and kills them at random moments, and keeps the figures.
///
/// Every eighth run (and the first three) is not killed: the median duration of the last five
/// such runs is the command's typical duration D, which follows the machine's load. Every other
/// run gets SIGKILL after a delay drawn from [0, D] for half the runs, and from [0.7 D, D] for the
/// other half: a command writes near its end, so more kills land mid-write.
struct RandomKiller {
    static let calibration = 3

    let name: String
    let scratch: URL
    var random: SeededRandom
    private var runs = 0
    /// How many runs were killed so far.
    private(set) var kills = 0
    private var durations: [UInt64] = []
    private var typical: UInt64 = 0
    private var outcomes: [String: Int] = [:]
    private let started = Date()

    init(name: String, scratch: URL) {
        self.name = name
        self.scratch = scratch
        random = SeededRandom(name: name)
    }

    /// One run of a command: how it ended and when it was killed.
    struct Run: CustomStringConvertible {
        var arguments: [String]
        var pid: pid_t
        var exit: Spawned.Exit
        /// Microseconds after the start that SIGKILL was sent; nil for a calibration run.
        var delay: UInt64?
        var stdout: String
        var stderr: String

        var description: String {
            "prolific \(arguments.prefix(3).joined(separator: " ")) (\(exit)\(delay.map { ", killed at \($0 / 1000) ms" } ?? "")) \(stderr)"
        }
    }

    /// Runs `prolific arguments` (feeding it `input`) and, once calibrated, kills it at a random moment.
    mutating func run(_ arguments: [String], input: String? = nil) throws -> Run {
        let stdin = scratch.appendingPathComponent("stdin")
        if let input { try Data(input.utf8).write(to: stdin) }
        let process = try Spawned.start(
            arguments, input: input == nil ? nil : stdin, output: scratch.appendingPathComponent("stdout"),
            errors: scratch.appendingPathComponent("stderr"))
        defer { runs += 1 }
        if runs < Self.calibration || runs % 8 == 0 {
            let exit = process.wait()
            durations = (durations + [Spawned.now() - process.started]).suffix(5)
            typical = durations.sorted()[durations.count / 2]
            return Run(arguments: arguments, pid: process.pid, exit: exit, delay: nil, stdout: process.stdout, stderr: process.stderr)
        }
        let late = Bool.random(using: &random)
        let delay = UInt64.random(in: (late ? typical * 7 / 10 : 0)...typical, using: &random)
        process.kill(after: delay)
        kills += 1
        let exit = process.wait()
        return Run(arguments: arguments, pid: process.pid, exit: exit, delay: delay, stdout: process.stdout, stderr: process.stderr)
    }

    /// Counts how `run` ended: finished first, or killed before, during or after its write.
    /// `landed`: its change is in place; `wroteTemporary`: a temporary file was left.
    mutating func judge(_ run: Run, landed: Bool, wroteTemporary: Bool) throws {
        switch run.exit {
        case .exited(0):
            count(run.delay == nil ? "not killed (timing run)" : "finished before the kill")
        case .signaled(SIGKILL):
            count(
                wroteTemporary ? "killed mid-write (temporary file left)" : landed ? "killed after the write" : "killed before the write")
        default:
            Issue.record("\(run): neither finished nor killed")
        }
    }

    /// Expects the lock on `content` to be free at once after `run` ended. A lock held for a
    /// moment longer by a process the killed command had just started is counted and shown.
    mutating func expectLockFree(_ content: URL, after run: Run) {
        let probe = LockProbe.take(content)
        #expect(probe.free, "\(run): the lock is \(probe)")
        if probe.waited > 0 {
            count("lock still held after the kill, freed within \(probe.waited / 1000 + 1) ms")
            print("\(name): \(run): the lock was \(probe)")
        }
    }

    mutating func count(_ outcome: String) { outcomes[outcome, default: 0] += 1 }

    /// Prints the figures: the typical duration and how the runs ended.
    func report() {
        let lines = outcomes.sorted { $0.key < $1.key }.map { "  \($0.value) \($0.key)" }
        print(
            "\(name): seed \(random.seed), typical run \(typical / 1000) ms, \(String(format: "%.1f", Date().timeIntervalSince(started))) s\n"
                + lines.joined(separator: "\n"))
    }
}
