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
/// whose stories changed has the inputs it had; a changed story's feed and, for a listed one,
/// the site's and those of the players it credits are made by their own. When a story credits
/// other players, one who left it can't be named, and every feed goes by its own inputs. A
/// project whose files are as recorded credits the players it did, so its part is carried over
/// as recorded: only changed projects' players are hashed.
///
/// The moment is in no key: a feed with no story has it as its `updated` and goes by its own
/// inputs (`emptyPlayers`, and the site's with no listed story), and a real build's moment is
/// the clock's.
struct FeedsKeys {
    let key: [UInt8]
    /// What the site's feed records for the next build: `key`, then each built project's part.
    let records: [OutputFile.Record]
    /// The places in `site.built` of the projects whose files changed since the build that
    /// recorded the memory given (or that have no files' digest: no key, or a text with images,
    /// so their feeds have no inputs), or nil when every feed must go by its own inputs: no
    /// memory, `key` not the one recorded, a project not recorded (or its part not 16 bytes), or
    /// a changed one crediting other players than it did.
    let changed: Set<Int>?
    /// The places in `site.users` of players who started and wrote no listed story.
    let emptyPlayers: [Int]

    init(site: SiteModel, parts: AtomFeeds.Parts, memory: PageMemory?) {
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
        let key = PageFingerprint.of(template: "feeds", inputs: inputs, theme: [])
        let recorded = memory?.fingerprints[SitePath.feedsKey] == key ? memory : nil
        var records = [OutputFile.Record(path: SitePath.feedsKey, fingerprint: key)]
        records.reserveCapacity(1 + built.count)
        var changed: Set<Int>? = recorded == nil ? nil : []
        // Read in place, by index: a copy of a project would retain all it holds.
        for p in built.indices {
            let path = Self.path(built[p].slug)
            let files = parts.builtKeys[p].map(Self.digest(files:))
            let last = recorded?.fingerprints[path].flatMap { $0.count == 16 ? $0 : nil }
            // The same files credit the same players: their part is the one recorded.
            if let files, let last, last[..<8].elementsEqual(files) {
                records.append(OutputFile.Record(path: path, fingerprint: last))
                continue
            }
            let players = site.isListed(built[p].slug) ? Self.digest(players: site.participants(of: built[p])) : Self.none
            records.append(OutputFile.Record(path: path, fingerprint: (files ?? Self.none) + players))
            if let last, last[8...].elementsEqual(players) {
                changed?.insert(p)
            } else {
                changed = nil
            }
        }
        (self.key, self.records, self.changed, self.emptyPlayers) = (key, records, changed, emptyPlayers)
    }

    private static let none = [UInt8](repeating: 0, count: 8)

    /// Where a built project's part is recorded.
    static func path(_ slug: Slug) -> String { SitePath.feedsKey + slug.rawValue }

    /// 8 bytes of a digest of a project's files but its open round's ballots.
    private static func digest(files: String) -> [UInt8] {
        var inputs = PageInputs()
        inputs.add(files)
        return Array(PageFingerprint.of(template: "feed-files", inputs: inputs, theme: []).prefix(8))
    }

    /// 8 bytes of a digest of the players a listed project credits.
    private static func digest(players: [Handle]) -> [UInt8] {
        var inputs = PageInputs()
        inputs.list(players.count)
        for handle in players { inputs.add(handle.rawValue) }
        return Array(PageFingerprint.of(template: "feed-players", inputs: inputs, theme: []).prefix(8))
    }
}
