import Foundation
import Testing

@testable import ProlificCLI

/// `--json`: pretty-printed, with empty lists and objects written `[]` and `{}`, not over three lines.
@Suite struct JSONOutputTests {
    struct Sample: Encodable {
        var none: [Int] = []
        var nothing: [String: Int] = [:]
        var some = [1]
        var text = "[\n\n]"
    }

    @Test func emptyContainersAreWrittenOnOneLine() throws {
        #expect(try Terminal.json([Int]()) == "[]")
        #expect(try Terminal.json([String: Int]()) == "{}")
        #expect(
            try Terminal.json([Sample()]) == """
                [
                  {
                    "none" : [],
                    "nothing" : {},
                    "some" : [
                      1
                    ],
                    "text" : "[\\n\\n]"
                  }
                ]
                """)
    }

    @Test func aCleanCheckPrintsAnEmptyList() throws {
        let folder = try TemporaryFolder()
        _ = try CLI.run(["init", "game"], in: folder.url)
        let result = try CLI.run(["check", "--json", "--content", "game/Content"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "[]\n")
        let status = try CLI.run(["status", "--json", "--content", "game/Content"], in: folder.url)
        #expect(status.status == 0 && !status.stdout.contains("[\n\n") && !status.stdout.contains("{\n\n"), "\(status.stdout)")
    }
}
