import Foundation
import Testing

/// Many `prolific` processes at once on one content folder: 8 workers, each a shell loop running
/// its commands one after the other (25 each in `make test`, 200 under `make stress`). Every
/// command that succeeds is recorded exactly once; every one refused says why; `check` passes.
@Suite struct ConcurrencyTests {
    static let workers = 8
    static let operations = Stress.count(fast: 25, long: 200)

    /// The operations go in turns of four: a snippet by the worker's own player, a ballot by
    /// another of its players, a snippet by a player all 8 workers submit for at the same moment
    /// (one is recorded, 7 are refused), and a ballot all 8 cast for one player (the first is
    /// recorded, each later one replaces it).
    @Test func submitsAndVotesFromEightProcessesAtOnce() throws {
        let n = Self.operations
        let own = (0..<Self.workers).flatMap { w in (0..<n).map { "p\(w)-\($0)" } }
        let shared = (0..<n).flatMap { ["x\($0)", "y\($0)"] }
        let game = try StressGame(players: ["s0", "s1", "s2", "s3", "z0"] + own + shared)
        let clock = Date()
        let seeds = try (0..<4).map {
            try game.succeed(["submit", "moon", "--author", "s\($0)"], now: Moment.at(60 * ($0 + 1)), input: "Seed \($0).")
                .trimmingCharacters(in: .newlines)
        }
        let single = Date().timeIntervalSince(clock) / 4
        let now = Moment.at(7_200)
        let submissions = "\(game.roundFolder(1))/submissions", votes = "\(game.roundFolder(1))/votes"

        /// What an operation should leave: its file's path and the bytes it may hold.
        struct Expected { var path: String; var text: String }
        var expected: [String: Expected] = [:]
        var lists: [[ShellWorkers.Command]] = []
        for w in 0..<Self.workers {
            var list: [ShellWorkers.Command] = []
            for j in 0..<n {
                let key = "\(w)-\(j)"
                switch j % 4 {
                case 0, 2:
                    let author = j % 4 == 0 ? "p\(w)-\(j)" : "x\(j)"
                    let body = "Snippet \(j) of worker \(w)."
                    list.append(.init(key: key, arguments: ["submit", "moon", "--author", author], input: body))
                    expected[key] = Expected(
                        path: "\(submissions)/\(author)-\(Moment.idStamp(now)).md",
                        text: StressGame.submission(author: author, at: now, body: body))
                default:
                    let voter = j % 4 == 1 ? "p\(w)-\(j)" : "y\(j)"
                    let choices = [seeds[(w + j) % 4], seeds[(w + j + 1) % 4]]
                    list.append(.init(key: key, arguments: ["vote", "moon", "--voter", voter] + choices, input: nil))
                    expected[key] = Expected(
                        path: "\(votes)/\(voter).yml", text: StressGame.ballot(voter: voter, at: now, for: choices))
                }
            }
            lists.append(list)
        }
        let shells = try ShellWorkers(game: game, now: now)
        let started = Date()
        for process in try shells.start(lists) { #expect(process.wait() == .exited(0)) }
        let seconds = Date().timeIntervalSince(started)

        let files = game.files()
        func isRecorded(_ key: String) -> Bool {
            files[expected[key]!.path].map { String(decoding: $0, as: UTF8.self) } == expected[key]!.text
        }
        var recorded = 0, refused = 0
        for j in 0..<n {
            let outcomes = (0..<Self.workers).map { shells.outcome("\($0)-\(j)") }
            let keys = (0..<Self.workers).map { "\($0)-\(j)" }
            switch j % 4 {
            case 0, 1:
                for (key, outcome) in zip(keys, outcomes) {
                    #expect(outcome.status == 0, "\(key): \(outcome.stderr)")
                    #expect(isRecorded(key), "\(key) is not recorded as written")
                }
                recorded += outcomes.count
            case 2:
                let winners = zip(keys, outcomes).filter { $0.1.status == 0 }
                #expect(winners.count == 1, "x\(j) was recorded \(winners.count) times")
                if let (key, _) = winners.first {
                    #expect(isRecorded(key), "\(key) is not recorded as written")
                }
                for (key, outcome) in zip(keys, outcomes) where outcome.status != 0 {
                    #expect(
                        outcome.status == 1
                            && (outcome.stderr.contains("error: @x\(j) already submitted") || outcome.stderr.contains("already exists")),
                        "\(key) was refused without a clear error: \(outcome.stderr)")
                }
                recorded += winners.count
                refused += outcomes.count - winners.count
            default:
                #expect(outcomes.allSatisfy { $0.status == 0 }, "a shared ballot y\(j) was refused: \(outcomes.map(\.stderr))")
                let first = outcomes.filter { !$0.stdout.contains("(replacing the earlier one)") }
                #expect(first.count == 1, "\(first.count) ballots of y\(j) replaced none")
                let text = files[expected[keys[0]]!.path].map { String(decoding: $0, as: UTF8.self) }
                #expect(keys.contains { expected[$0]!.text == text }, "y\(j)'s ballot is none of those cast")
                recorded += outcomes.count
            }
        }
        let snippets = files.keys.filter { $0.hasPrefix(submissions + "/") }.count
        let ballots = files.keys.filter { $0.hasPrefix(votes + "/") }.count
        #expect(snippets == 4 + Self.workers * ((n + 3) / 4) + (n + 1) / 4, "snippets recorded: \(snippets)")
        #expect(ballots == Self.workers * ((n + 2) / 4) + n / 4, "ballots recorded: \(ballots)")
        #expect(game.temporaries().isEmpty, "temporary files left: \(game.temporaries())")
        let check = try game.check(now: now)
        #expect(check.status == 0 && check.stderr.contains(": 0 errors, 0 warnings."), "\(check.stderr)")
        // One more ballot alone: each command reads the whole open round, so it costs more now.
        let last = Date()
        try game.succeed(["vote", "moon", "--voter", "z0", seeds[0]], now: now)
        let final = Date().timeIntervalSince(last)
        print(
            "Concurrency.submitAndVote: \(Self.workers) workers × \(n) operations in \(String(format: "%.1f", seconds)) s "
                + "(\(String(format: "%.0f", seconds * 1000 / Double(n))) ms per operation per worker; one submit alone "
                + "\(String(format: "%.0f", single * 1000)) ms before, one vote alone \(String(format: "%.0f", final * 1000)) ms after): "
                + "\(recorded) recorded, \(refused) refused")
    }

    /// `close` started while 8 workers vote: each ballot recorded before the close counts in its
    /// tally; each one after is refused, because the round it was for has closed.
    @Test func closeRacingVotesCountsOrRefusesEachBallot() throws {
        let perWorker = Stress.count(fast: 8, long: 40)
        let voters = (0..<Self.workers).map { w in (0..<perWorker).map { "r\(w)-\($0)" } }
        let game = try StressGame(players: ["s0", "s1", "s2", "s3"] + voters.flatMap { $0 })
        let seeds = try (0..<4).map {
            try game.succeed(["submit", "moon", "--author", "s\($0)"], now: Moment.at(60 * ($0 + 1)), input: "Seed \($0).")
                .trimmingCharacters(in: .newlines)
        }
        // The ballots are cast a minute before the close, so each is in time unless the close came first.
        let voting = Moment.at(7_140), closing = Moment.at(7_200)
        let lists = voters.enumerated().map { w, handles in
            handles.enumerated().map { k, voter in
                ShellWorkers.Command(key: "\(w)-\(k)", arguments: ["vote", "moon", "--voter", voter, seeds[(w + k) % 4]], input: nil)
            }
        }
        let shells = try ShellWorkers(game: game, now: voting)
        let started = Date()
        let processes = try shells.start(lists)
        // Close once half the ballots are in.
        while shells.finished() < Self.workers * perWorker / 2 { usleep(2_000) }
        let close = try Spawned.start(
            ["close", "moon", "--content", game.content.path, "--now", closing], output: shells.folder.appendingPathComponent("close.out"),
            errors: shells.folder.appendingPathComponent("close.err"))
        #expect(close.wait() == .exited(0), "\(close.stderr)")
        for process in processes { #expect(process.wait() == .exited(0)) }
        let seconds = Date().timeIntervalSince(started)

        let round = try String(contentsOfFile: game.path("\(game.roundFolder(1))/round.md"), encoding: .utf8)
        var counted = 0, refused = 0
        for (w, handles) in voters.enumerated() {
            for (k, voter) in handles.enumerated() {
                let outcome = shells.outcome("\(w)-\(k)")
                let ballot = game.path("\(game.roundFolder(1))/votes/\(voter).yml")
                if outcome.status == 0 {
                    counted += 1
                    #expect(FileManager.default.fileExists(atPath: ballot), "\(voter)'s ballot was recorded, but its file is gone")
                } else {
                    refused += 1
                    #expect(
                        outcome.status == 1 && outcome.stderr.contains("error: round 2 of 'moon' opens at \(closing), after --now \(voting)"),
                        "\(voter) was refused without a clear error: \(outcome.stderr)")
                    #expect(!FileManager.default.fileExists(atPath: ballot), "\(voter) was refused, but a ballot was recorded")
                }
            }
        }
        #expect(round.contains("\n  ballots: \(counted)\n"), "the tally doesn't count the \(counted) ballots recorded:\n\(round)")
        #expect(close.stdout.contains("from \(counted) ballot"), "\(close.stdout)")
        let check = try game.check(now: closing)
        #expect(check.status == 0 && check.stderr.contains(": 0 errors, 0 warnings."), "\(check.stderr)")
        print(
            "Concurrency.closeRacingVotes: \(Self.workers) workers × \(perWorker) ballots and one close in "
                + "\(String(format: "%.1f", seconds)) s: \(counted) counted, \(refused) refused after the close")
    }

    /// A ballot cast in the very second the round closes (with the clock, a vote and a close
    /// racing): the close counts it, or refuses to close before it. It must never record the
    /// ballot and leave it out of the tally.
    @Test func aBallotCastInTheClosingSecondIsCountedOrTheCloseRefused() throws {
        let game = try StressGame(players: ["ann", "bo", "cy"])
        let id = try game.succeed(["submit", "moon", "--author", "bo"], now: Moment.at(60), input: "Bo's turn.")
            .trimmingCharacters(in: .newlines)
        let second = Moment.at(3_600)
        try game.succeed(["vote", "moon", "--voter", "cy", id], now: second)
        var close = try game.run(["close", "moon"], now: second)
        if close.status != 0 {
            let refusal = "error: @cy's ballot in round 1 of 'moon' was cast at \(second), not before --now \(second)"
            #expect(close.stderr.contains(refusal), "\(close.stderr)")
            close = try game.run(["close", "moon"], now: Moment.at(3_601))
        }
        #expect(close.status == 0 && close.stdout.contains("from 1 ballot."), "\(close.stderr)\(close.stdout)")
        let check = try game.check(now: Moment.at(3_601))
        #expect(check.status == 0 && check.stderr.contains(": 0 errors, 0 warnings."), "\(check.stderr)")
    }
}

/// Shell loops that run `prolific` commands, one loop per worker, all at once. Each command's
/// exit status, output and errors land in files named after its key.
struct ShellWorkers {
    struct Command {
        var key: String
        var arguments: [String]
        var input: String?
    }

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let folder: URL
    let game: StressGame
    let now: String

    /// Commands run against `game`'s content at `now`.
    init(game: StressGame, now: String) throws {
        self.game = game
        self.now = now
        folder = game.folder.url.appendingPathComponent("workers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Writes one script per list and starts them all; returns the shells.
    func start(_ lists: [[Command]]) throws -> [Spawned] {
        var scripts: [URL] = []
        for (index, list) in lists.enumerated() {
            var lines = ["#!/bin/sh"]
            for command in list {
                let arguments = [CLI.executable.path] + command.arguments + ["--content", game.content.path, "--now", now]
                precondition(!arguments.joined().contains("'"), "a quote in \(arguments)")
                let input = folder.appendingPathComponent("\(command.key).in")
                try Data((command.input ?? "").utf8).write(to: input)
                let file = folder.appendingPathComponent(command.key).path
                lines.append(
                    arguments.map { "'\($0)'" }.joined(separator: " ") + " <'\(input.path)' >'\(file).out' 2>'\(file).err'; echo $? >'\(file).rc'")
            }
            let script = folder.appendingPathComponent("worker-\(index).sh")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: script)
            scripts.append(script)
        }
        return try scripts.enumerated().map { index, script in
            try Spawned.start(
                [script.path], executable: URL(fileURLWithPath: "/bin/sh"), output: folder.appendingPathComponent("worker-\(index).out"),
                errors: folder.appendingPathComponent("worker-\(index).err"))
        }
    }

    /// How many commands have finished so far.
    func finished() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".rc") }.count
    }

    func outcome(_ key: String) -> Outcome {
        func read(_ suffix: String) -> String {
            (try? String(contentsOf: folder.appendingPathComponent("\(key).\(suffix)"), encoding: .utf8)) ?? ""
        }
        let status = Int32(read("rc").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        return Outcome(status: status, stdout: read("out"), stderr: read("err"))
    }
}
