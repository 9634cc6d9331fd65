import Foundation

/// Markdown rendered once per text, whichever pages and feeds show it. Safe to share between
/// workers.
final class HTMLCache: @unchecked Sendable {
    private let lock = NSLock()
    private var rendered: [String: String] = [:]

    func html(_ markdown: String, render: (String) -> String) -> String {
        if let hit = lock.withLock({ rendered[markdown] }) { return hit }
        let html = render(markdown)
        lock.withLock { rendered[markdown] = html }
        return html
    }
}
