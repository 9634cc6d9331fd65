import ProlificCore
import Yams

/// prolific.yml's `former`: players `user remove` removed, each `{handle, joined, removed}`.
///
/// ```yaml
/// former:
/// - handle: bo
///   joined: 2026-01-01T00:00:00Z
///   removed: 2026-03-01T12:00:00Z
/// ```
///
/// prolific.yml belongs to the maintainers (comments, badges, their own order), so `user remove`
/// doesn't re-render it: `replacingFormer` swaps the `former` block's lines and keeps every other
/// line as it was.
extension ConfigFile {
    static func parseFormer(_ fields: inout YAMLFields) -> [FormerUser] {
        var former: [FormerUser] = []
        for (index, var entry) in (fields.mappings("former") ?? []).enumerated() {
            let handle = entry.handle("handle")
            let joined = entry.timestamp("joined")
            let removed = entry.timestamp("removed")
            entry.finish()
            fields.absorb(entry, prefix: "former.\(index)")
            if let handle, let joined, let removed { former.append(FormerUser(handle: handle, joined: joined, removed: removed)) }
        }
        return former
    }

    static func formerNode(_ former: [FormerUser]) -> Node {
        Node(
            former.map { gone in
                var yaml = YAMLWriter()
                yaml.text("handle", gone.handle.rawValue)
                yaml.plain("joined", gone.joined)
                yaml.plain("removed", gone.removed)
                return yaml.mapping
            })
    }

    /// `text` (prolific.yml) with its `former` list replaced by `former`; nil when the result
    /// doesn't read back as the same settings with exactly that list (an unusual layout), so the
    /// caller refuses rather than write something else.
    static func replacingFormer(in text: String, with former: [FormerUser], path: String) -> String? {
        var block = YAMLWriter()
        block.node("former", formerNode(former))
        guard let before = try? parse(text, path: path), let rendered = try? block.yaml() else { return nil }
        var lines = FrontMatter.normalize(text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let replacement = rendered.split(separator: "\n").map(String.init)
        if let start = lines.firstIndex(where: { $0.hasPrefix("former:") }) {
            var end = start + 1
            while end < lines.count, isInsideBlock(lines[end]) { end += 1 }
            while end > start + 1, lines[end - 1].allSatisfy({ $0 == " " || $0 == "\t" }) { end -= 1 }
            lines.replaceSubrange(start..<end, with: replacement)
        } else {
            lines += replacement
        }
        let result = lines.joined(separator: "\n") + "\n"
        guard let after = try? parse(result, path: path), after.former == former, after.title == before.title,
            after.baseURL == before.baseURL, after.roundLength == before.roundLength, after.rounds == before.rounds,
            after.maintainers == before.maintainers, after.badges == before.badges
        else { return nil }
        return result
    }

    /// A line that continues a top-level key's value: blank, indented, or a `- ` item at column 0.
    private static func isInsideBlock(_ line: String) -> Bool {
        guard let first = line.first else { return true }
        if first == " " || first == "\t" { return true }
        return line == "-" || line.hasPrefix("- ")
    }
}
