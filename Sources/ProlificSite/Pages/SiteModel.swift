import ProlificCore

/// Everything the pages of one build share, worked out once: which projects are built and listed,
/// where every player stands, every closed round's tally with its explanations.
///
/// A class, immutable once made: each page kind (`UserPages`, `ProjectPages`, …) and every job's
/// closures hold the model, and as a struct of some thirty fields each copy retained every one
/// of them (tens of thousands of jobs a build).
final class SiteModel {
    /// The content as readers see it: hidden snippets left out (`Moderation.shown`).
    let content: Content
    let now: Timestamp
    /// Projects that get pages: every one but drafts, in slug order.
    let built: [Project]
    /// Projects shown in lists, feeds, the calendar, search and the sitemap: not unlisted.
    let listed: [Project]
    /// Where each listed project is in `listed`: profiles look up the projects players follow.
    private let listedIndex: [Slug: Int]
    let standing: Standing
    /// Each closed round's tally re-run with explanations.
    let replayed: ReplayedRounds
    /// Markdown to HTML (cmark), through `cache`.
    let render: (String) -> String
    /// Each text is rendered once, though the project page, its round page and two feeds show it.
    let cache: HTMLCache
    let media: Media
    /// Each player's snippets in listed projects, as indices into `listed` and its rounds and
    /// submissions, so a profile doesn't scan every project.
    let snippetsByAuthor: [Handle: [(project: Int, round: Int, submission: Int)]]
    /// Players in handle order.
    let users: [User]
    /// Each player's display name: pages ask for names and profiles by the hundred thousand,
    /// and a lookup in `content.users` copies a whole `User`.
    let names: [Handle: String]
    /// Who follows each player, in handle order.
    let followers: [Handle: [Handle]]
    /// The keys of tags that have a page: those of listed projects.
    let listedTagKeys: Set<String>
    /// What identifies each project's files, by slug: the same key in another build means the
    /// same files, so the project reads the same (its folder's inventory, hashed). A closed
    /// round's page is a function of it and of a few other things (`RoundPages.inputs`).
    let projectKeys: [Slug: String]
    /// The same, but for the ballots of its open round: a page or feed that shows none of them
    /// (they weigh only once the round closes) is a function of this key instead, and is kept
    /// while ballots come in. By default, `projectKeys`.
    let keysBesideBallots: [Slug: String]
    /// Built projects with a text (starter or snippet) that has images or `data:` links, whose
    /// addresses depend on media files outside the project: pages and feeds that show them
    /// can't be kept by their project's files alone.
    let withImages: Set<Slug>
    /// The players each built project's page and feed credit, by slug: its owner and the
    /// authors of its shown snippets, sorted (`participants(of:)`). Found in the same pass as
    /// `withImages`: a project's page and its feed each went through all its snippets for them,
    /// 250,000 on large, at every build.
    let participants: [Slug: [Handle]]
    /// Listed projects in progress, in the explore order of the home page (worked out once).
    let inProgress: [Project]
    /// Where each of them stands in the lists the explore order mixes: for a tag's page, which
    /// lists its stories in progress in their own explore order (`Explore.Ranking.order`).
    let exploreRanking: Explore.Ranking
    /// Listed completed stories, most recently finished first.
    let completed: [Project]
    /// The upcoming round deadlines, soonest first: the calendar's file and its page show them.
    let deadlines: [Deadline]

    /// `replay` re-runs every closed round's tally of `recorded` (or gives what an earlier run of
    /// it gave for the same files: `SiteBuilder.Replay`); by default, `TallyTimeline` does.
    /// `standings` counts the standings (`SiteBuilder.Standings`); by default, `Standing` does.
    init(
        content recorded: Content, now: Timestamp, evidence: IdentityEvidence, html: @escaping (String) -> String,
        projectKeys: [Slug: String] = [:], keysBesideBallots: [Slug: String]? = nil, replay: SiteBuilder.Replay? = nil,
        standings: SiteBuilder.Standings? = nil
    ) {
        self.projectKeys = projectKeys
        self.keysBesideBallots = keysBesideBallots ?? projectKeys
        self.now = now
        self.render = html
        let cache = HTMLCache()
        self.cache = cache
        // The replay of every tally can't be split (each round's weights depend on the rounds
        // before it) and needs nothing else of the model: it runs on a thread aside from the
        // start, while this one works out the rest, then counts the standings on every core.
        // Started after the rest, it left a core idle while the lists were made on one (30 ms
        // of a large rebuild after a ballot). Until the replay ends, this thread renders the
        // snippets the pages will show (a full build renders them all anyway; a rebuild, whose
        // replay is kept and loaded in a fraction of a second, stops at once).
        let replayDone = HTMLCache.Flag()
        let (replayed, derived) = Parallel.beside(
            {
                defer { replayDone.raise() }
                return replay?() ?? ReplayedRounds(TallyTimeline(content: recorded, evidence: evidence).replayExplained())
            },
            { Derived(recorded, now: now, standings: standings, cache: cache, html: html, until: replayDone) })
        // Nothing else uses the cache now; pages and feeds read what it holds without a lock.
        cache.settle()
        self.replayed = replayed
        (content, media, built, listed) = (derived.content, derived.media, derived.built, derived.listed)
        let lists = derived.lists
        (listedIndex, snippetsByAuthor, users, names, followers) = (lists.listedIndex, lists.snippetsByAuthor, lists.users, lists.names, lists.followers)
        (listedTagKeys, completed, deadlines) = (lists.listedTagKeys, lists.completed, lists.deadlines)
        (withImages, participants) = (derived.withImages, derived.participants)
        (standing, inProgress, exploreRanking) = (derived.standing, derived.inProgress, derived.exploreRanking)
    }

    var config: Config { content.config }

    /// The Markdown texts pages render, in the order pages are rendered: each project's starter
    /// and snippets, project by project. Lazily, project by project: a rebuild, whose replay is
    /// kept, stops at the first text, and gathering all 120,000 of the large benchmark first
    /// kept one core busy alone for 20 ms. A kept project's snippets, made only when asked for
    /// (`SnippetText`), are left out: their pages are mostly kept, and making them to render
    /// them ahead would read every such project's cache entry again while a replay runs.
    static func texts(of built: [Project]) -> some Sequence<String> {
        built.lazy.flatMap { project in
            [project.starter] + project.rounds.flatMap { $0.submissions.lazy.filter { !$0.text.isDeferred }.map(\.body) }
        }
    }

    /// Markdown to HTML, images left as they are written (for text and for the EPUB).
    func html(_ markdown: String) -> String {
        cache.html(markdown, render: render)
    }

    /// Markdown written in `folder` (inside the content directory) as HTML for a page whose way
    /// back to the site's root is `root`, its images pointing at their copies in the site.
    /// `folder` and `root` are worked out only for a text that has images.
    func html(_ markdown: String, folder: @autoclosure () -> String, root: @autoclosure () -> String) -> String {
        // Without images or `data:` links the page doesn't matter: one rendering serves all.
        guard cache.needsRewriting(markdown) else { return html(markdown) }
        let (folder, root) = (folder(), root())
        return Markdown.html(markdown) { media.image($0, folder: folder, root: root) }
    }

    /// A player's display name; "a former contributor" when they have no profile (any more).
    func name(_ handle: Handle) -> String {
        names[handle] ?? FormerUser.displayName
    }

    /// Whether `handle` has a profile page: a removed player's work links nowhere.
    func hasPage(_ handle: Handle) -> Bool {
        names[handle] != nil
    }

    /// The places in `listed` of the projects `handle` wrote in, each once, ascending (their
    /// snippets' places come in project order).
    func projectsWritten(by handle: Handle) -> [Int] {
        var written: [Int] = []
        for place in snippetsByAuthor[handle] ?? [] where place.project != written.last { written.append(place.project) }
        return written
    }

    /// The address of `handle`'s profile page, or "" when there is none (see `hasPage`).
    func userURL(_ handle: Handle) -> String {
        hasPage(handle) ? SitePath.user(handle) : ""
    }

    /// `content` without hidden snippets, for pages, feeds and standings.
    static func shown(_ content: Content) -> Content {
        var shown = content
        for p in shown.projects.indices where shown.projects[p].rounds.contains(where: { !$0.hidden.isEmpty }) {
            shown.projects[p].rounds = shown.projects[p].rounds.map(Moderation.shown)
        }
        return shown
    }

    /// The listed project `slug`, if there is one.
    func listedProject(_ slug: Slug) -> Project? {
        listedIndex[slug].map { listed[$0] }
    }

    /// The players `project`'s page and feed credit: its owner and its snippets' authors, each
    /// once, sorted. Worked out once for every built project (`participants`).
    func participants(of project: Project) -> [Handle] {
        if let known = participants[project.slug] { return known }
        var people: Set<Handle> = [project.owner]
        for r in project.rounds.indices {
            for s in project.rounds[r].submissions.indices { people.insert(project.rounds[r].submissions[s].author) }
        }
        return people.sorted()
    }

    /// Whether a text of `project` has images or `data:` links (`withImages`).
    func hasImages(_ project: Project) -> Bool {
        withImages.contains(project.slug)
    }

    func isComplete(_ project: Project) -> Bool {
        Self.isComplete(project)
    }

    static func isComplete(_ project: Project) -> Bool {
        project.status == .complete || Closing.isComplete(project)
    }

    func isListed(_ slug: Slug) -> Bool {
        listedIndex[slug] != nil
    }

    /// The fair tally's explanation of `round` of `project`, as the replay found it.
    func explained(_ project: Project, _ round: RoundNumber) -> FairTally.Outcome? {
        replayed.explained(project.slug, round)
    }

    /// Projects in progress, in the explore order of the home page, with their ranking.
    static func exploreOrder(
        of listed: [Project], content: Content, standing: Standing, now: Timestamp
    ) -> (order: [Project], ranking: Explore.Ranking) {
        let inProgress = listed.filter { !isComplete($0) }
        let ranking = Explore.ranking(inProgress, users: content.users, karma: standing.counts.mapValues(\.karma), now: now)
        return (ranking.order(inProgress), ranking)
    }

    /// Completed stories, most recently finished first.
    static func orderCompleted(_ listed: [Project]) -> [Project] {
        listed.filter(isComplete).sorted { a, b in
            let (x, y) = (finished(a), finished(b))
            return x != y ? x > y : a.slug < b.slug
        }
    }

    /// When a story's last round closed (its creation if it has none).
    static func finished(_ project: Project) -> Timestamp {
        project.lastClosing ?? project.created
    }
}

/// What the model works out of the content besides the replay, on the thread that builds it
/// while the replay runs aside (`SiteModel.init`).
private struct Derived {
    let content: Content
    let media: Media
    let built: [Project]
    let listed: [Project]
    let lists: Lists
    let withImages: Set<Slug>
    let participants: [Slug: [Handle]]
    let standing: Standing
    let inProgress: [Project]
    let exploreRanking: Explore.Ranking

    /// Counts the standings (on every core) and orders the stories in progress while the
    /// look-ups and lists are made aside (`Lists`), then renders the texts the pages will show
    /// into `cache` until `replayDone` is raised.
    init(
        _ recorded: Content, now: Timestamp, standings: SiteBuilder.Standings?, cache: HTMLCache, html: (String) -> String,
        until replayDone: HTMLCache.Flag
    ) {
        // Pages show what readers may see; the tallies are re-run on the record, hidden snippets
        // included, as `check` re-runs them.
        let content = SiteModel.shown(recorded)
        self.content = content
        media = Media(files: content.media)
        let built = content.projects.filter { $0.visibility != .draft }.sorted { $0.slug < $1.slug }
        let listed = built.filter { $0.visibility == .listed }
        (self.built, self.listed) = (built, listed)
        // The look-ups and lists pages share are made on a thread aside while this one finds
        // each project's people, counts the standings and orders the stories: made one after
        // the other on this thread, they left the other core idle for much of the model stage
        // of a large rebuild, whose replay, kept, ends early.
        let (lists, (scanned, standing, explore)) = Parallel.beside(
            { Lists(listed: listed, content: content, now: now) },
            { () -> ([(images: Bool, participants: [Handle])], Standing, (order: [Project], ranking: Explore.Ranking)) in
                let scanned = Self.scan(built)
                let standing = standings?(content) ?? Standing(content: content, badges: content.config.badges)
                return (scanned, standing, SiteModel.exploreOrder(of: listed, content: content, standing: standing, now: now))
            })
        self.lists = lists
        withImages = Set(built.indices.lazy.filter { scanned[$0].images }.map { built[$0].slug })
        participants = Dictionary(
            zip(built.lazy.map(\.slug), scanned.lazy.map(\.participants)), uniquingKeysWith: { first, _ in first })
        (self.standing, inProgress, exploreRanking) = (standing, explore.order, explore.ranking)
        cache.warm(SiteModel.texts(of: built), render: html, until: replayDone)
    }

    /// Whether each project's texts have images or `data:` links, and its people (owner and
    /// authors), sorted, on every core. Each project's people gathered, sorted and told apart
    /// in a row: a set of handles, each hashed at every snippet, then sorted, took twice as
    /// long (30 ms of CPU in a large rebuild).
    private static func scan(_ built: [Project]) -> [(images: Bool, participants: [Handle])] {
        Parallel.map(built) { project -> (images: Bool, participants: [Handle]) in
            var people: [Handle] = [project.owner]
            var images = MarkdownScan.mayNeedRewriting(project.starter)
            // By index: a copy of each round and snippet retained all it holds.
            for r in project.rounds.indices {
                for s in project.rounds[r].submissions.indices {
                    people.append(project.rounds[r].submissions[s].author)
                    // A kept project's texts answer without being made (`SnippetText`).
                    if !images, project.rounds[r].submissions[s].text.mayNeedRewriting { images = true }
                }
            }
            people.sort()
            var distinct = 0
            for person in people.indices where person == 0 || people[person] != people[person - 1] {
                people[distinct] = people[person]
                distinct += 1
            }
            people.removeLast(people.count - distinct)
            return (images, people)
        }
    }

    /// The look-ups and lists the model makes of the players and the listed projects alone.
    struct Lists {
        let listedIndex: [Slug: Int]
        let snippetsByAuthor: [Handle: [(project: Int, round: Int, submission: Int)]]
        let users: [User]
        let names: [Handle: String]
        let followers: [Handle: [Handle]]
        let listedTagKeys: Set<String>
        let completed: [Project]
        let deadlines: [Deadline]

        init(listed: [Project], content: Content, now: Timestamp) {
            listedIndex = Dictionary(listed.enumerated().map { ($1.slug, $0) }, uniquingKeysWith: { first, _ in first })
            var snippets: [Handle: [(project: Int, round: Int, submission: Int)]] = [:]
            // By index: copying each project, round and snippet out of its array retained all it holds.
            for p in listed.indices {
                for r in listed[p].rounds.indices {
                    for s in listed[p].rounds[r].submissions.indices {
                        snippets[listed[p].rounds[r].submissions[s].author, default: []].append((p, r, s))
                    }
                }
            }
            snippetsByAuthor = snippets
            users = content.sortedUsers
            names = content.users.mapValues(\.name)
            var followers: [Handle: [Handle]] = [:]
            for user in users {
                for followed in Set(user.follows.users) { followers[followed, default: []].append(user.handle) }
            }
            self.followers = followers
            listedTagKeys = Set(listed.flatMap(\.tags).map(TagPages.key))
            completed = SiteModel.orderCompleted(listed)
            deadlines = Deadline.upcoming(in: listed, now: now)
        }
    }
}
