import Testing

@testable import ProlificCore

@Suite struct BadgeTests {
    let contributor = Badge.defaults[0]

    @Test func defaultsAreContributorBigHitWriterCreatorAndVoter() {
        #expect(Badge.defaults.map(\.name) == ["Contributor", "Big Hit Writer", "Creator", "Voter"])
        #expect(Badge.defaults.map(\.measure) == [.snippets, .wins, .projects, .ballots])
        #expect(Badge.defaults.allSatisfy { $0.tiers.map(\.name) == ["bronze", "silver", "gold"] })
    }

    @Test func progressTowardsTheNextTier() {
        let none = contributor.progress(count: 0)
        #expect(none.tier == nil && none.next?.name == "bronze" && none.toNext == 0)
        let bronze = contributor.progress(count: 1)
        #expect(bronze.tier?.name == "bronze" && bronze.next?.name == "silver" && bronze.toNext == 0)
        let halfway = contributor.progress(count: 30)  // silver at 10, gold at 50
        #expect(halfway.tier?.name == "silver" && halfway.next?.name == "gold" && halfway.toNext == 0.5)
        let gold = contributor.progress(count: 80)
        #expect(gold.tier?.name == "gold" && gold.next == nil && gold.toNext == 1)
    }
}

@Suite struct StandingAndExploreTests {
    let users = Make.users("ann", "bob", "cat", "dan")

    /// moon: round 1 closed (bob won over cat, ann and dan voted), round 2 open with cat's snippet.
    var moon: Project {
        let bob1 = Make.submission("bob", at: "2026-11-02T10:00:00Z")
        let cat1 = Make.submission("cat", at: "2026-11-02T11:00:00Z")
        var round1 = Make.round(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-08T00:00:00Z",
            submissions: [bob1, cat1],
            ballots: [
                Make.ballot("ann", at: "2026-11-03T00:00:00Z", for: [bob1.id]),
                Make.ballot("dan", at: "2026-11-03T00:00:00Z", for: [bob1.id, cat1.id]),
            ])
        round1.winner = bob1.id
        let cat2 = Make.submission("cat", at: "2026-11-09T00:00:00Z", round: 2)
        let round2 = Make.round(
            2, opened: "2026-11-08T00:00:00Z", closes: "2026-11-15T00:00:00Z", submissions: [cat2],
            ballots: [Make.ballot("ann", at: "2026-11-09T01:00:00Z", for: [cat2.id], round: 2)])
        return Make.project("moon", owner: "ann", rounds: [round1, round2])
    }

    @Test func countsAndKarma() {
        let standing = Standing(content: Make.content(users: Array(users.values), projects: [moon]))
        let bob = standing.counts(of: Make.handle("bob"))
        #expect(bob.snippets == 1 && bob.wins == 1 && bob.karma.total == 2 + 5)
        // Badges count the open round's snippet at once; karma waits for the round to close.
        let cat = standing.counts(of: Make.handle("cat"))
        #expect(cat.snippets == 2 && cat.karma.snippets == 1)
        let ann = standing.counts(of: Make.handle("ann"))
        #expect(ann.projects == 1 && ann.ballots == 2 && ann.karma == Karma(ballots: 1, projects: 1))
        #expect(ann.karma.breakdown == "4 (1 ballot, 1 project)")
        #expect(standing.leaderboard.first?.handle == Make.handle("bob"))
        #expect(standing.badges(of: Make.handle("bob")).first { $0.badge.measure == .wins }?.tier?.name == "bronze")
    }

    /// Many projects are counted in parts on every core: the sums are those of one pass, and
    /// each of the 300 copies of `moon` counts once.
    @Test func countsOfManyProjectsAddUp() {
        let projects = (0..<300).map { i -> Project in
            var project = moon
            project.slug = Make.slug("moon-\(i)")
            return project
        }
        let one = Standing(content: Make.content(users: Array(users.values), projects: [moon]))
        let many = Standing(content: Make.content(users: Array(users.values), projects: projects))
        #expect(Set(many.counts.keys) == Set(one.counts.keys))
        for (handle, counts) in one.counts {
            let sum = many.counts(of: handle)
            #expect(sum.snippets == 300 * counts.snippets && sum.wins == 300 * counts.wins)
            #expect(sum.projects == 300 * counts.projects && sum.ballots == 300 * counts.ballots)
            #expect(sum.karma.total == 300 * counts.karma.total)
            #expect(
                sum.karma
                    == Karma(
                        snippets: 300 * counts.karma.snippets, ballots: 300 * counts.karma.ballots,
                        wins: 300 * counts.karma.wins, projects: 300 * counts.karma.projects))
        }
    }

    /// The standings are the sum of each project's part (what `StandingCache` keeps), and a part
    /// comes out of a sum exactly; one that can't have been added (a count would go below zero,
    /// or past the integers) leaves the sum as it was.
    @Test func partsAddUpToTheStandingsAndComeOutAgain() throws {
        var sun = moon
        sun.slug = Make.slug("sun")
        let content = Make.content(users: Array(users.values), projects: [moon, sun])
        var total: [Handle: Standing.Counts] = [:]
        for project in content.projects {
            for (handle, counts) in Standing.part(of: project) { total[handle, default: Standing.Counts()].add(counts) }
        }
        let whole = Standing(content: content)
        #expect(Standing(total: total, players: content.users.keys).counts == whole.counts)
        var left = total
        for (handle, counts) in Standing.part(of: sun) {
            var counted = try #require(left[handle])
            let removed = counted.remove(counts)
            #expect(removed)
            left[handle] = counted.isZero ? nil : counted
        }
        let onlyMoon = Standing(content: Make.content(users: Array(users.values), projects: [moon]))
        #expect(Standing(total: left, players: content.users.keys).counts == onlyMoon.counts)
        var small = Standing.Counts(snippets: 1, ballots: 2)
        let tooMany = small.remove(Standing.Counts(snippets: 2))
        let pastTheIntegers = small.remove(Standing.Counts(wins: Int.min))
        #expect(!tooMany && !pastTheIntegers)
        #expect(small == Standing.Counts(snippets: 1, ballots: 2))
        let all = small.remove(Standing.Counts(snippets: 1, ballots: 2))
        #expect(all && small.isZero)
    }

    @Test func aNewProjectTakesTheFirstDiscoverySlot() {
        // Four busy projects and a brand-new one with nobody but its owner.
        var projects: [Project] = []
        for (i, slug) in ["aa", "bb", "cc", "dd"].enumerated() {
            var project = moon
            project.slug = Make.slug(slug)
            project.created = Make.time("2026-11-0\(i + 1)T00:00:00Z")
            projects.append(project)
        }
        let fresh = Make.project("zz", owner: "dan", created: "2026-11-10T00:00:00Z")
        projects.append(fresh)
        let karma = Standing(content: Make.content(users: Array(users.values), projects: projects)).counts.mapValues(\.karma)
        let order = Explore.order(projects, users: users, karma: karma, now: Make.time("2026-11-12T00:00:00Z"))
        #expect(order.count == 5)
        #expect(order[1].slug == Make.slug("zz"), "\(order.map(\.slug.rawValue))")
        #expect(Set(order.map(\.slug)) == Set(projects.map(\.slug)))
        // The same input in another order gives the same order.
        let again = Explore.order(projects.reversed(), users: users, karma: karma, now: Make.time("2026-11-12T00:00:00Z"))
        #expect(again.map(\.slug) == order.map(\.slug))
    }

    /// A ranking orders any of its projects as `order` orders them alone: what the trending and
    /// discovery lists sort by depends on each project's own activity only.
    @Test func aRankingOrdersAnyOfItsProjectsAsIfListedAlone() {
        var projects: [Project] = []
        for (i, slug) in ["aa", "bb", "cc", "dd", "ee", "ff"].enumerated() {
            var project = moon
            project.slug = Make.slug(slug)
            project.created = Make.time("2026-11-0\(i % 4 + 1)T00:00:00Z")
            if i % 2 == 0 { project.rounds[1].ballots.removeAll() }
            if i == 3 { project.rounds = [] }
            projects.append(project)
        }
        let now = Make.time("2026-11-12T00:00:00Z")
        let karma = Standing(content: Make.content(users: Array(users.values), projects: projects)).counts.mapValues(\.karma)
        let ranking = Explore.ranking(projects, users: users, karma: karma, now: now)
        // A ranking made from the projects in another order orders them the same.
        let reversed = Explore.ranking(projects.reversed(), users: users, karma: karma, now: now)
        #expect(reversed.order(projects).map(\.slug) == ranking.order(projects).map(\.slug))
        // Every subset, in either order.
        for mask in 1..<(1 << projects.count) {
            let subset = projects.indices.filter { mask & (1 << $0) != 0 }.map { projects[$0] }
            let alone = Explore.order(subset, users: users, karma: karma, now: now).map(\.slug)
            #expect(ranking.order(subset).map(\.slug) == alone)
            #expect(ranking.order(subset.reversed()).map(\.slug) == alone)
        }
        // A project the ranking doesn't know comes last.
        var stranger = moon
        stranger.slug = Make.slug("zz")
        #expect(ranking.order([stranger] + projects.prefix(3)).last?.slug == Make.slug("zz"))
    }

    /// The discovery slot goes to the project with the fewest people: each counted once however
    /// often they wrote or voted, a player without a profile among them.
    @Test func discoveryCountsEachParticipantOnce() {
        func project(_ slug: String, _ authors: [String], _ voters: [String], busy: Bool = false) -> Project {
            let submissions = authors.enumerated().map { Make.submission($1, at: "2026-11-02T1\($0):00:00Z") }
            var ballots = voters.map { Make.ballot($0, at: "2026-11-03T00:00:00Z", for: [submissions[0].id]) }
            if busy { ballots += ["bob", "cat", "dan"].map { Make.ballot($0, at: "2026-11-11T00:00:00Z", for: [submissions[0].id]) } }
            let round = Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-15T00:00:00Z", submissions: submissions, ballots: ballots)
            var made = Make.project(slug, owner: "ann", rounds: [round])
            made.created = Make.time("2026-11-01T00:00:00Z")
            return made
        }
        // ann, ghost (no profile) and bob: 3, written or voted 1 + 3 + 3 times. crowd: 4.
        let repeated = project("repeat", ["ghost", "ghost", "ghost"], ["bob", "bob", "bob"])
        let crowd = project("crowd", ["bob", "cat"], ["dan"])
        let trend = project("trend", ["bob", "cat", "dan"], ["ann"], busy: true)
        let order = Explore.order([crowd, repeated, trend], users: users, karma: [:], now: Make.time("2026-11-12T00:00:00Z"))
        #expect(order.map(\.slug.rawValue) == ["trend", "repeat", "crowd"])
    }

    /// A player without a profile has no account age: their snippets weigh what a brand-new
    /// player's do, a tenth of an established one's.
    @Test func aPlayerWithoutAProfileTrendsAsABrandNewOne() {
        func project(_ slug: String, _ authors: [String]) -> Project {
            let submissions = authors.enumerated().map { Make.submission($1, at: "2026-11-10T1\($0):00:00Z") }
            var made = Make.project(
                slug, owner: "ann", rounds: [Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-15T00:00:00Z", submissions: submissions)])
            made.created = Make.time("2026-11-01T00:00:00Z")
            return made
        }
        // Three snippets by a player without a profile against one by bob, a player of six weeks.
        let ghosts = project("ghosts", ["ghost", "ghost", "ghost"]), bob = project("bob", ["bob"])
        let order = Explore.order([ghosts, bob], users: users, karma: [:], now: Make.time("2026-11-12T00:00:00Z"))
        #expect(order.first?.slug == Make.slug("bob"))
    }

    @Test func recentActivityTrends() {
        var quiet = moon
        quiet.slug = Make.slug("quiet")
        var busy = moon
        busy.slug = Make.slug("busy")
        busy.rounds[1].ballots.append(Make.ballot("bob", at: "2026-11-11T00:00:00Z", for: [busy.rounds[1].submissions[0].id], round: 2))
        busy.rounds[1].ballots.append(Make.ballot("dan", at: "2026-11-11T00:00:00Z", for: [busy.rounds[1].submissions[0].id], round: 2))
        let order = Explore.order([quiet, busy], users: users, karma: [:], now: Make.time("2026-11-12T00:00:00Z"))
        #expect(order.first?.slug == Make.slug("busy"))
    }
}
