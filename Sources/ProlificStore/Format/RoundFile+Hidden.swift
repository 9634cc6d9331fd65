import ProlificCore
import Yams

/// round.md's `hidden`: the snippets `moderate hide` hid, each `{id, by, at, reason}`.
///
/// ```yaml
/// hidden:
/// - id: bo-20261102101500
///   by: keeper
///   at: 2026-11-03T09:00:00Z
///   reason: Copied from a published novel.
/// ```
extension RoundFile {
    static func parseHidden(_ fields: inout YAMLFields) -> [Round.Hidden] {
        var hidden: [Round.Hidden] = []
        for (index, var entry) in (fields.mappings("hidden") ?? []).enumerated() {
            let id = entry.submissionID("id")
            let by = entry.string("by")
            let at = entry.timestamp("at")
            let reason = entry.string("reason")
            for (key, text) in [("by", by), ("reason", reason)] {
                if let text, text.trimmingCharacters(in: " \t").isEmpty { entry.report("'\(key)' must not be empty", at: key) }
            }
            entry.finish()
            fields.absorb(entry, prefix: "hidden.\(index)")
            if let id, let by, let at, let reason { hidden.append(Round.Hidden(id: id, by: by, at: at, reason: reason)) }
        }
        return hidden
    }

    static func hiddenNode(_ hidden: [Round.Hidden]) -> Node {
        Node(
            hidden.map { entry in
                var yaml = YAMLWriter()
                yaml.text("id", entry.id.rawValue)
                yaml.text("by", entry.by)
                yaml.plain("at", entry.at)
                yaml.text("reason", entry.reason)
                return yaml.mapping
            })
    }
}
