import Foundation
import Testing

/// `prolific check` on one small content folder per kind of breakage, compared with its
/// `expected.txt` (rewritten with PROLIFIC_RECORD=1).
@Suite struct CheckFixtureTests {
    static let cases: [String] = {
        let folder = Fixtures.root.appendingPathComponent("check")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    @Test(arguments: cases)
    func checkReportsEveryProblemWithItsLocation(_ name: String) throws {
        let folder = Fixtures.root.appendingPathComponent("check/\(name)")
        let result = try CLI.run(["check", "--content", "Content", "--now", "2026-01-10T00:00:00Z"], in: folder)
        let expectedFile = folder.appendingPathComponent("expected.txt")
        if Fixtures.recording {
            try Data(result.stdout.utf8).write(to: expectedFile)
        }
        let expected = try String(contentsOf: expectedFile, encoding: .utf8)
        #expect(result.stdout == expected)
        let errors = result.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(result.status == (errors.isEmpty ? 0 : 1))
        #expect(name == "valid" ? expected.isEmpty : !errors.isEmpty, "a broken fixture must report errors")
    }

    @Test func jsonListsTheSameProblems() throws {
        let folder = Fixtures.root.appendingPathComponent("check/bad-ballots")
        let result = try CLI.run(["check", "--json", "--content", "Content", "--now", "2026-01-10T00:00:00Z"], in: folder)
        #expect(result.status == 1)
        let problems = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(problems.count > 0)
        #expect(problems.allSatisfy { $0["path"] is String && $0["line"] is Int && $0["message"] is String })
    }
}
