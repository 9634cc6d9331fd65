import Foundation
import ProlificCore

/// `search.json`: what the search page's script looks through, one entry per listed story and
/// per player: title, address, tags, authors and the start of the text.
///
/// The text is plain (tags stripped from the rendered Markdown) and cut at `textLimit`
/// characters, so the index stays small enough to fetch on a phone.
struct SearchIndex {
    let site: SiteModel
    static let textLimit = 600

    struct Entry: Encodable {
        var kind: String
        var title: String
        var url: String
        var tags: [String]
        var authors: [String]
        var text: String
    }

    func entries() -> [Entry] {
        var entries: [Entry] = []
        for project in site.listed {
            let story = Story(project)
            var authors: [String] = []
            for chapter in story.chapters where !authors.contains(site.name(chapter.author)) {
                authors.append(site.name(chapter.author))
            }
            entries.append(
                Entry(
                    kind: site.isComplete(project) ? "Completed story" : "Story in progress", title: project.title,
                    url: SitePath.project(project.slug), tags: project.tags, authors: authors,
                    text: Self.plain(story.chapters.map { site.html($0.markdown) }.joined(separator: " "))))
        }
        for user in site.users {
            entries.append(
                Entry(
                    kind: "Player", title: user.name, url: SitePath.user(user.handle), tags: [],
                    authors: ["@" + user.handle.rawValue], text: Self.plain(site.html(user.bio))))
        }
        return entries
    }

    func file() -> OutputFile {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(entries())) ?? Data("[]".utf8)
        return OutputFile(path: SitePath.searchIndex, contents: Array(data))
    }

    /// Rendered HTML as plain text: tags dropped, the entities cmark writes decoded, spaces
    /// collapsed, cut at a word boundary near `textLimit`.
    static func plain(_ html: String) -> String {
        var text = ""
        var inTag = false
        for c in html {
            if c == "<" { inTag = true; continue }
            if c == ">" { inTag = false; text.append(" "); continue }
            if !inTag { text.append(c) }
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        var out = ""
        for word in words {
            if out.count + word.count + 1 > textLimit { return out + "…" }
            if !out.isEmpty { out += " " }
            out += word
        }
        return out
    }
}
