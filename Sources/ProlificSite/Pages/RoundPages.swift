import ProlificCore

/// Each closed round's page: its winner, every other snippet as an alternate take, and the tally
/// with every vote's weight explained.
struct RoundPages {
    let site: SiteModel

    /// A page per closed round of the projects at `projects` in `site.built`, project by
    /// project. Most of a big site's pages: `SiteBuilder.jobs` makes them a range of projects at
    /// a time, on every core. Each names its project and round by their places in `site.built`
    /// (a copy of each in every page's closures retained all they hold, twice).
    ///
    /// The projects in `kept` have their round pages kept together (`SiteBuilder.keptGroups`):
    /// they get no job.
    func jobs(skipping kept: Set<Slug>, of projects: Range<Int>) -> [PageJob] {
        let built = site.built
        return projects.flatMap { p -> [PageJob] in
            guard !kept.contains(built[p].slug) else { return [] }
            return built[p].rounds.indices.filter { !built[p].rounds[$0].isOpen }.map { r in
                PageJob("round", context(built[p].rounds[r].number, of: built[p]), inputs: { inputs(built[p].rounds[r], of: built[p]) }) {
                    page(built[p].rounds[r], of: built[p])
                }
            }
        }
    }

    /// The common values of the page of round `number` of `project`.
    func context(_ number: RoundNumber, of project: Project) -> PageContext {
        PageContext(
            site: site.config, now: site.now, path: SitePath.round(project.slug, number),
            title: "Round \(number) · \(project.title)",
            description: "Round \(number) of \(project.title): the winning snippet, the alternate takes and the tally.",
            noindex: project.visibility != .listed, section: .stories)
    }

    /// What `page(_:of:)` is a function of, apart from the page's context and the binary: its
    /// project's files but the open round's ballots (`SiteModel.keysBesideBallots`: the project,
    /// the round, its snippets, scores, seal and what is hidden), the replay's explanation of
    /// each ballot (weights depend on every round before; the round's bytes in a kept replay
    /// stand for it), the name of each player it may show or their having none, and libcmark's
    /// version. A closed round's page is most of a big site, and these cost a fraction of its
    /// values. nil (the page is then fingerprinted by its values) without a key for the
    /// project's files, or when a snippet has images or `data:` links: their addresses depend
    /// on media files outside the round.
    func inputs(_ round: Round, of project: Project) -> PageInputs? {
        guard let files = site.keysBesideBallots[project.slug],
            // A project without images (nearly all) has no snippet to scan again.
            // (`text.mayNeedRewriting`: a kept project's texts answer without being made.)
            !site.hasImages(project) || !round.submissions.contains(where: { $0.text.mayNeedRewriting })
        else { return nil }
        var inputs = PageInputs()
        inputs.add(files)
        inputs.add(round.number.value)
        inputs.add(Markdown.version)
        addReplay(of: round, in: project, to: &inputs)
        addShownPlayers(of: round, in: project, to: &inputs)
        return inputs
    }

    /// What every closed round's page of `project` is a function of, together: each page's
    /// inputs with its context, as each page's fingerprint takes them (`SiteBuilder`), in round
    /// order. While it is the same as in the last build, a rebuild keeps those pages without a
    /// job for any of them (`SiteBuilder.keptGroups`): a rebuild after a ballot made,
    /// fingerprinted and looked up the 20,000 round pages of the large benchmark one by one,
    /// though only one project had changed. nil when a page has no inputs (no key for the
    /// project's files, or a snippet with images or `data:` links).
    func groupInputs(of project: Project) -> PageInputs? {
        let closed = project.rounds.indices.filter { !project.rounds[$0].isOpen }
        var group = PageInputs()
        group.list(closed.count)
        for r in closed {
            guard var inputs = inputs(project.rounds[r], of: project) else { return nil }
            inputs.add(context(project.rounds[r].number, of: project))
            group.add(inputs.bytes[...])
        }
        return group
    }

    /// The replay of `round`: by its bytes when the replay came with them (a kept replay is not
    /// decoded for pages it keeps), else each explained ballot whole (its explanation is a
    /// function of it).
    func addReplay(of round: Round, in project: Project, to inputs: inout PageInputs) {
        if let encoded = site.replayed.encoded(project.slug, round.number) {
            inputs.add(encoded)
        } else {
            let ballots = site.explained(project, round.number)?.ballots ?? []
            inputs.list(ballots.count)
            for ballot in ballots { inputs.add(ballot) }
        }
    }

    /// Each player whose name the page of `round` may show, with that name or none: its
    /// authors, and the voters of a round the fair tally counted (it lists its counted ballots,
    /// some of the round's). Read in place.
    func addShownPlayers(of round: Round, in project: Project, to inputs: inout PageInputs) {
        let showsVoters = site.replayed.hasExplanation(project.slug, round.number)
        let scores = round.tally?.scores.count ?? 0
        inputs.list(round.submissions.count + scores + (showsVoters ? round.ballotList.count : 0))
        func add(_ handle: Handle) {
            inputs.add(handle.rawValue)
            inputs.add(site.names[handle])
        }
        for s in round.submissions.indices { add(round.submissions[s].author) }
        if let tally = round.tally { for s in tally.scores.indices { add(tally.scores[s].id.author) } }
        if showsVoters { round.ballotList.forEachStamp { voter, _ in add(voter) } }
    }

    /// What this reads must be in `inputs(_:of:)`, or a rebuild keeps a stale page.
    func page(_ round: Round, of project: Project) -> [String: Any] {
        let pages = ProjectPages(site: site)
        let path = SitePath.round(project.slug, round.number)
        let snippet = { (s: Submission) in pages.snippet(s, of: project, in: round.number, on: path) }
        // A snippet hidden after the close keeps its recorded score, but its row is not shown.
        let scores = (round.tally?.scores ?? []).filter { round.hasSubmission($0.id) }
        let order = scores.map(\.id)
        let ranked = round.submissions.sorted { a, b in
            (order.firstIndex(of: a.id) ?? Int.max, a.id) < (order.firstIndex(of: b.id) ?? Int.max, b.id)
        }
        let winner: Any = round.winningSubmission.map(snippet) ?? false
        let alternates = ranked.filter { $0.id != round.winner }.map(snippet)
        let votes = (site.explained(project, round.number)?.ballots ?? []).map { ballot -> [String: Any] in
            let known = site.hasPage(ballot.voter)
            return [
                "voter": known ? ballot.voter.rawValue : FormerUser.displayName, "voterURL": site.userURL(ballot.voter),
                "hasVoterPage": known, "explanation": ballot.explanation,
            ]
        }
        let method = round.tally?.method ?? FairTally.method
        let closed = round.closed ?? round.closes
        return [
            "projectTitle": project.title,
            "projectURL": SitePath.project(project.slug),
            "number": round.number.value,
            "closedISO": closed.iso8601,
            "closedDisplay": Display.time(closed),
            "snippetsLabel": Display.count(round.submissions.count, "snippet"),
            "ballotsLabel": Display.count(round.tally?.ballots ?? round.ballotList.count, "counted ballot"),
            "winner": winner,
            "hasAlternates": !alternates.isEmpty,
            "alternates": alternates,
            "methodNote": method == Tally.method
                ? "Counted plainly (\(method)): every ballot weighs 1, split equally over the snippets it names."
                : "Counted with the fair tally (\(method)): each vote weighs by its voter’s karma and account age, split over the snippets it names, and damped for habits and groups that back each other.",
            "scores": scores.map { score -> [String: Any] in
                [
                    "id": score.id.rawValue, "authorName": site.name(score.id.author),
                    "score": Tally.format(score.score), "isWinner": score.id == round.winner,
                ]
            },
            "hasVotes": !votes.isEmpty,
            "votes": votes,
            "seal": round.seal.map { seal -> [String: Any] in
                ["digest": seal.digest, "filesLabel": Display.count(seal.fileCount, "file")]
            } ?? false,
        ]
    }
}
