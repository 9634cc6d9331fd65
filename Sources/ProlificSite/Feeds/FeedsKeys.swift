import ProlificCore

/// What the feeds draw on, in parts a build records (on the site's feed, under paths that name
/// no file) so that the next can tell which feeds' inputs may have changed without working out
/// any feed's inputs (`AtomFeeds.files(memory:)`):
///
/// - `key` (`feed.xml/every/`): all that every feed's inputs (`AtomFeeds.inputs(_:)`) hold but
///   the stories' files and players: the site's title and address, libcmark's version, each
///   built project's slug and visibility in order (which feeds there are, what the site's and
///   the players' feeds list), and every player's handle and name (the feeds' titles and
///   credits, which players have a feed);
/// - one record per built project (`feed.xml/every/<slug>`): 8 bytes of a digest of its files
///   but its open round's ballots (`SiteModel.keysBesideBallots`: its title, owner, snippets,
///   winners and so its events) and, for a listed one, 8 of the players it credits
///   (`SiteModel.participants`): those whose feeds draw on it.
///
/// While `key` is the one recorded and each project credits the players it did, a feed none of
/// whose stories changed has the inputs it had; a changed story's feed, the site's and those of
/// the players it credits are made by their own. When a story credits other players, one who
/// left it can't be named, and every feed goes by its own inputs.
///
/// The moment is in no key: a feed with no story has it as its `updated` and goes by its own
/// inputs (`emptyPlayers`, and the site's with no listed story), and a real build's moment is
/// the clock's.
struct FeedsKeys {
    let key: [UInt8]
    /// Per built project, in `site.built`'s order: 8 bytes of its files' digest, nil without
    /// one (no key, or a text with images: its feeds have no inputs and it counts as changed),
    /// and 8 of its players' (zeros for an unlisted one: no player's feed draws on it).
    let projects: [(files: [UInt8]?, players: [UInt8])]
    /// The places in `site.users` of players who started and wrote no listed story.
    let emptyPlayers: [Int]

    init(site: SiteModel, parts: AtomFeeds.Parts) {
        var inputs = PageInputs()
        inputs.add(site.config.title)
        inputs.add(site.config.baseURL)
        inputs.add(Markdown.version)
        let built = site.built
        inputs.list(built.count)
        for p in built.indices {
            inputs.add(built[p].slug.rawValue)
            inputs.add(built[p].visibility.rawValue)
        }
        var emptyPlayers: [Int] = []
        inputs.list(site.users.count)
        for (place, user) in site.users.enumerated() {
            inputs.add(user.handle.rawValue)
            inputs.add(user.name)
            if parts.started[user.handle] == nil && site.snippetsByAuthor[user.handle] == nil { emptyPlayers.append(place) }
        }
        key = PageFingerprint.of(template: "feeds", inputs: inputs, theme: [])
        self.emptyPlayers = emptyPlayers
        // Read in place, by index: a copy of a project would retain all it holds.
        projects = built.indices.map { p in
            let files = parts.builtKeys[p].map { files -> [UInt8] in
                var inputs = PageInputs()
                inputs.add(files)
                return Array(PageFingerprint.of(template: "feed-files", inputs: inputs, theme: []).prefix(8))
            }
            guard site.isListed(built[p].slug) else { return (files, Self.none) }
            var players = PageInputs()
            let credited = site.participants(of: built[p])
            players.list(credited.count)
            for handle in credited { players.add(handle.rawValue) }
            return (files, Array(PageFingerprint.of(template: "feed-players", inputs: players, theme: []).prefix(8)))
        }
    }

    private static let none = [UInt8](repeating: 0, count: 8)

    /// Where a built project's part is recorded.
    static func path(_ slug: Slug) -> String { SitePath.feedsKey + slug.rawValue }

    /// The records the site's feed carries for the next build.
    func records(of built: [Project]) -> [OutputFile.Record] {
        var records = [OutputFile.Record(path: SitePath.feedsKey, fingerprint: key)]
        records.reserveCapacity(1 + built.count)
        for p in built.indices {
            records.append(OutputFile.Record(path: Self.path(built[p].slug), fingerprint: (projects[p].files ?? Self.none) + projects[p].players))
        }
        return records
    }

    /// The places in `built` of the projects whose files changed since the build that recorded
    /// `memory` (or that have no files' digest), or nil when every feed must go by its own
    /// inputs: `key` not the one recorded, a project not recorded, or one crediting other
    /// players.
    func changed(since memory: PageMemory, built: [Project]) -> Set<Int>? {
        guard memory.fingerprints[SitePath.feedsKey] == key else { return nil }
        var changed: Set<Int> = []
        for p in built.indices {
            guard let recorded = memory.fingerprints[Self.path(built[p].slug)], recorded.count == 16,
                recorded[8...].elementsEqual(projects[p].players)
            else { return nil }
            if let files = projects[p].files, recorded[..<8].elementsEqual(files) { continue }
            changed.insert(p)
        }
        return changed
    }
}
