import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// `GitProcess.run`: git's exit status, output and standard error, each run's its own, however
/// many run at once (the end of each is awaited by its termination handler).
@Suite(.enabled(if: Git.isInstalled)) struct GitProcessTests {
    @Test func givesTheOutputAndStatusOfACommandThatSucceeds() throws {
        let folder = try Playground()
        let result = try #require(GitProcess.run(["--version"], in: folder.root))
        #expect(result.succeeded)
        #expect(result.status == 0)
        #expect(result.text.hasPrefix("git version "))
        #expect(result.errors.isEmpty)
    }

    @Test func givesTheStatusAndErrorsOfACommandThatFails() throws {
        let folder = try Playground()
        guard Git(folder: folder.root).output(["rev-parse", "--is-inside-work-tree"]) != "true" else { return }
        let result = try #require(GitProcess.run(["rev-parse", "--verify", "HEAD"], in: folder.root))
        #expect(!result.succeeded)
        #expect(result.status == 128)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("not a git repository"))
    }

    @Test func passesItsInputOnStandardInput() throws {
        let folder = try Playground()
        let text = "hello\nworld\n"
        try folder.directory.write(text, to: "same.txt")
        let result = try #require(GitProcess.run(["hash-object", "--stdin"], in: folder.root, input: Data(text.utf8)))
        let file = try #require(GitProcess.run(["hash-object", folder.directory.path("same.txt")], in: folder.root))
        #expect(result.succeeded)
        #expect(result.text.count == 41 || result.text.count == 65)
        #expect(result.text == file.text)
    }

    /// What Foundation holds for each process (a run-loop source, the pipes' ends) is let go once
    /// it has ended: 200 commands leave no descriptors open (they left two each, had the wait
    /// not ended in `waitUntilExit()`). Other suites' processes come and go meanwhile, hence the
    /// margin.
    @Test func commandsLeaveNoDescriptorsOpen() throws {
        let folder = try Playground()
        func pipes() -> Int {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)"))?.hasPrefix("pipe:") == true }.count
        }
        guard FileManager.default.fileExists(atPath: "/proc/self/fd") else { return }
        let before = pipes()
        for _ in 0..<200 { _ = GitProcess.run(["--version"], in: folder.root) }
        #expect(pipes() - before < 100)
    }

    @Test func runsAtOnceEachGiveTheirOwnResult() throws {
        let folder = try Playground()
        let inputs = (0..<12).map { "text \($0)\n" }
        let results = Parallel.map(inputs, batch: 1) { input in
            GitProcess.run(["hash-object", "--stdin"], in: folder.root, input: Data(input.utf8))?.text
        }
        let one = try #require(GitProcess.run(["hash-object", "--stdin"], in: folder.root, input: Data(inputs[7].utf8)))
        #expect(results.allSatisfy { $0?.count == 41 })
        #expect(Set(results).count == inputs.count)
        #expect(results[7] == one.text)
    }
}
