import Foundation
import ProlificCore
import Testing
@testable import ProlificSite

@Suite struct ThemeTests {
    /// The defaults compiled into the binary are exactly the repository's Templates/ (run `make templates`).
    @Test func builtInThemeMatchesTheTemplatesFolder() throws {
        let folder = SiteFixtures.repository.appendingPathComponent("Templates").path
        var onDisk: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: folder)
        while let relative = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: "\(folder)/\(relative)", isDirectory: &isDirectory)
            if !isDirectory.boolValue {
                onDisk[relative] = try String(contentsOfFile: "\(folder)/\(relative)", encoding: .utf8)
            }
        }
        let embedded = Dictionary(uniqueKeysWithValues: Theme.defaultFiles.map { ($0.path, $0.contents) })
        #expect(embedded == onDisk, "Templates/ changed: run `make templates`")
    }

    func theme(_ files: [String: String]) throws -> Theme {
        var all = Dictionary(uniqueKeysWithValues: Theme.defaultFiles.map { ($0.path, $0.contents) })
        for (path, text) in files { all[path] = text }
        return try Theme(files: all.sorted { $0.key < $1.key }.map { ($0.key, Array($0.value.utf8)) }, folder: "Templates")
    }

    @Test func aTemplateErrorNamesTheFileLineAndColumn() throws {
        do {
            _ = try theme(["index.mustache": "<p>\n{{#list}}\n{{/other}}\n"])
            Issue.record("expected an error")
        } catch let error as Diagnostics {
            #expect(error.all.map(\.description) == [
                "Templates/index.mustache:3:4: error: a section is closed with a different name than it was opened with"
            ])
        }
    }

    @Test func aMissingTemplateIsAnError() throws {
        var files = Theme.defaultFiles.filter { $0.path != "project.mustache" }.map { ($0.path, Array($0.contents.utf8)) }
        files.sort { $0.0 < $1.0 }
        #expect(throws: Diagnostics.self) { try Theme(files: files, folder: "Templates") }
    }

    @Test func anUnknownVariableIsAnErrorNotEmptyOutput() throws {
        let custom = try theme(["index.mustache": "{{<base}}{{$main}}<p>{{site.title}} {{titel}}</p>{{/main}}{{/base}}"])
        let content = Content(config: .defaults(), users: [:], projects: [])
        do {
            _ = try SiteBuilder(content: content, theme: custom, now: Timestamp(secondsSinceEpoch: 0)).build()
            Issue.record("expected an error")
        } catch {
            #expect(error.all.first?.description.contains("Templates/index.mustache") == true)
            #expect(error.all.first?.message.contains("unknown variable 'titel'") == true)
        }
    }
}
