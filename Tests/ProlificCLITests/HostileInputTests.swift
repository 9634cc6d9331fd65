import Foundation
import Testing

/// Hostile input: a played game with one hostile change per case (Support/HostileCorpus.swift),
/// given to `check`, `build` and the commands that read what changed; and bad arguments of
/// every kind. Each refusal is a clear `path:line:column: error:` line (or names the bad
/// argument), a non-zero exit, no crash, bounded time and memory, and the whole tree of the
/// case, content and the files outside it that links point to, exactly as it was.
///
/// `make test` runs one reader per case (and `check` and `build` on harmless changes);
/// `PROLIFIC_STRESS=1` runs every reader on every case, with bigger files, deeper nesting and
/// larger alias bombs.
/// docs/reliability.md ("Hostile input") has the decisions and figures.
@Suite struct HostileInputTests {
    @Test(arguments: HostileCase.all)
    func hostileContent(_ hostile: HostileCase) throws {
        let template = try HostileGame.template.get()
        let refusing = Self.selected(hostile.refusedBy, for: hostile.name)
        if !refusing.isEmpty {
            let folder = try HostileCase.Folder(copying: template)
            try hostile.change(folder)
            let before = TreeSnapshot(folder.root)
            for command in refusing {
                let run = try folder.run(command)
                Self.expectRefusal(run, of: command, naming: hostile.names, in: hostile.name)
                let after = TreeSnapshot(folder.root)
                #expect(after == before, "\(hostile.name): `\(command)` changed \(after.differences(from: before))")
            }
        }
        // In the fast run, `check` and `build` where a case has them.
        let siteOnly = hostile.acceptedBy.filter { ["check", "build"].contains($0.arguments[0]) }
        for command in HostileGame.stress || siteOnly.isEmpty ? hostile.acceptedBy : siteOnly {
            // Each on a fresh copy: an accepted command may change the content.
            let folder = try HostileCase.Folder(copying: template)
            try hostile.change(folder)
            let outside = TreeSnapshot(folder.outside)
            let run = try folder.run(command, keepingSite: command.arguments.first == "build")
            Self.expectBounded(run, of: command, in: hostile.name)
            #expect(run.status == 0, "\(hostile.name): `\(command)` failed: \(run.output)")
            #expect(TreeSnapshot(folder.outside) == outside, "\(hostile.name): `\(command)` changed files outside the content")
            if let site = run.site {
                // Parsed the same as the untouched files: the same site, byte for byte.
                let baseline = try HostileGame.baselineSite.get()
                let built = TreeSnapshot(site)
                #expect(built == baseline, "\(hostile.name): the site differs at \(built.differences(from: baseline).prefix(5))")
                try? FileManager.default.removeItem(at: site)
            }
        }
    }

    @Test(arguments: BadArgument.all)
    func badArgument(_ bad: BadArgument) throws {
        let folder = try HostileCase.Folder(copying: try HostileGame.template.get())
        try bad.prepare(folder)
        let before = TreeSnapshot(folder.root)
        let run = try folder.run(HostileRun(arguments: bad.arguments), input: bad.input, withDefaults: bad.withDefaults)
        // Bad arguments are echoed as typed, which is argument-parser's business: no escape check.
        Self.expectBounded(run, of: HostileRun(arguments: bad.arguments), in: bad.name, escapes: false)
        if let message = bad.saying {
            #expect(run.status != 0, "\(bad.name): exited 0: \(run.output)")
            #expect(run.output.contains(message), "\(bad.name): expected '\(message)' in: \(run.output)")
            #expect(
                TreeSnapshot(folder.root) == before, "\(bad.name): changed \(TreeSnapshot(folder.root).differences(from: before))"
            )
        } else {
            #expect(run.status == 0, "\(bad.name): \(run.output)")
        }
    }

    /// In the fast run, one reader per case, a different one from case to case, so that each
    /// kind of file still meets every reader; with PROLIFIC_STRESS=1, every reader.
    static func selected(_ commands: [HostileRun], for name: String) -> [HostileRun] {
        guard !HostileGame.stress, commands.count > 1 else { return commands }
        return [commands[name.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF } % commands.count]]
    }

    /// No crash, no hang, bounded memory, nothing a terminal would act on.
    static func expectBounded(_ run: HostileFolderRun, of command: HostileRun, in name: String, escapes: Bool = true) {
        HostileGame.log(run, "\(name): \(command)")
        #expect(!run.timedOut, "\(name): `\(command)` ran past \(HostileGame.timeout) s")
        #expect(run.signal == nil, "\(name): `\(command)` died of signal \(run.signal ?? 0)")
        #expect(run.peakKilobytes < HostileGame.memoryLimit, "\(name): `\(command)` used \(run.peakKilobytes) kB")
        for marker in [
            "Fatal error", "Stack dump", "Current stack trace", "Backtrace", "Segmentation fault", "Illegal instruction",
        ] {
            #expect(!run.output.contains(marker), "\(name): `\(command)` crashed: \(run.output.prefix(2000))")
        }
        if escapes {
            #expect(
                !run.output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" },
                "\(name): `\(command)` printed raw escapes")
        }
    }

    /// A refusal: bounded, exit ≠ 0, and a diagnostic line for `path` (for `audit`, which
    /// refuses to tally content with errors, its summary of the first one will do).
    static func expectRefusal(_ run: HostileFolderRun, of command: HostileRun, naming path: String, in name: String) {
        expectBounded(run, of: command, in: name)
        #expect(
            run.status != 0 && run.status != nil,
            "\(name): `\(command)` exited \(run.status.map(String.init) ?? "by a signal"): \(run.output.prefix(2000))")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: true)
        let named = lines.contains { line in
            guard line.hasPrefix(path + ":") else { return false }
            return line.dropFirst(path.count).firstMatch(of: #/^:\d+:\d+: error: /#) != nil
        }
        let tallyRefused = command.arguments.first == "audit" && run.stderr.contains("cannot tally: the content has")
        #expect(named || tallyRefused, "\(name): `\(command)` did not name \(path): \(run.output.prefix(2000))")
        #expect(
            lines.allSatisfy { $0.count <= 2000 },
            "\(name): `\(command)` printed a line of \(lines.map(\.count).max() ?? 0) characters")
    }
}
