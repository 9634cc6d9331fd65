import ProlificCore

/// `users/<handle>/card.svg`: a player's name, karma and badge tiers as a small image to embed in
/// a README or a forum signature. Self-contained (no fonts or images from elsewhere, no script);
/// every text escaped.
struct BadgeCard {
    let site: SiteModel
    let user: User

    static let tierColours = ["bronze": "#a0643c", "silver": "#7d848e", "gold": "#b8860b"]
    static let width = 420

    func file() -> OutputFile {
        OutputFile(path: SitePath.userCard(user.handle), text: svg)
    }

    /// The card's file, or the previous site's when its inputs are those the last build
    /// recorded and that file is intact: 5,000 cards were made at every rebuild of a large game
    /// to be told apart by their bytes.
    func file(memory: PageMemory?) -> OutputFile {
        let fingerprint = PageFingerprint.of(template: "card", inputs: inputs, theme: [])
        if let kept = memory?.kept(SitePath.userCard(user.handle), fingerprint) { return kept }
        var card = file()
        card.fingerprint = fingerprint
        return card
    }

    /// All `svg` reads: the site's title, the player's name and handle, karma, and each badge's
    /// name and tier.
    var inputs: PageInputs {
        var inputs = PageInputs()
        inputs.add(site.config.title)
        inputs.add(user.name)
        inputs.add(user.handle.rawValue)
        inputs.add(site.standing.counts(of: user.handle).karma.total)
        let badges = site.standing.badges(of: user.handle)
        inputs.list(badges.count)
        for progress in badges {
            inputs.add(progress.badge.name)
            inputs.add(progress.tier?.name)
        }
        return inputs
    }

    var svg: String {
        let counts = site.standing.counts(of: user.handle)
        let badges = site.standing.badges(of: user.handle)
        let rows = (badges.count + 1) / 2
        let height = 74 + rows * 30
        let name = Self.clip(user.name, 34)
        let label = "\(user.name) on \(site.config.title): \(counts.karma.total) karma"
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.width)" height="\(height)" viewBox="0 0 \(Self.width) \(height)" role="img" aria-label="\(XML.escape(label))">
            <title>\(XML.escape(label))</title>
            <rect x="0.5" y="0.5" width="\(Self.width - 1)" height="\(height - 1)" rx="10" fill="#fbf8f3" stroke="#e4dcd1"/>
            <text x="16" y="30" font-family="Georgia, serif" font-size="19" font-weight="600" fill="#23201c">\(XML.escape(name))</text>
            <text x="16" y="52" font-family="system-ui, sans-serif" font-size="12" fill="#6a6157">@\(XML.escape(user.handle.rawValue)) · \(XML.escape(Self.clip(site.config.title, 30)))</text>
            <text x="\(Self.width - 16)" y="30" text-anchor="end" font-family="system-ui, sans-serif" font-size="19" font-weight="700" fill="#8a3b12">\(counts.karma.total)</text>
            <text x="\(Self.width - 16)" y="52" text-anchor="end" font-family="system-ui, sans-serif" font-size="12" fill="#6a6157">karma</text>

            """
        for (index, progress) in badges.enumerated() {
            let x = 16 + (index % 2) * 198
            let y = 66 + (index / 2) * 30
            let colour = progress.tier.flatMap { Self.tierColours[$0.name] } ?? "#c9c0b4"
            let text = "\(Self.clip(progress.badge.name, 16)) · \(progress.tier?.name ?? "not yet")"
            out += """
                <rect x="\(x)" y="\(y)" width="190" height="24" rx="12" fill="\(colour)"/>
                <text x="\(x + 95)" y="\(y + 16)" text-anchor="middle" font-family="system-ui, sans-serif" font-size="12" fill="#ffffff">\(XML.escape(text))</text>

                """
        }
        return out + "</svg>\n"
    }

    /// Cuts long text with an ellipsis so it stays inside the card.
    static func clip(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
