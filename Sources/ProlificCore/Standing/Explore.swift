/// The order in which the home page lists stories in progress.
///
/// A deterministic mix of trending and discovery: trending is time-decayed activity, each snippet
/// and ballot weighted by its player's vote weight (so sockpuppets don't trend); every third place
/// is a discovery slot for the least-seen project — new, or with the fewest participants — so a
/// new project is always near the top.
public enum Explore {
    /// Activity loses half its weight every this many days.
    static let halfLifeDays = 7.0
    /// Places 2, 5, 8, … (from 1) are discovery slots.
    static let discoveryEvery = 3

    public static func order(_ projects: [Project], users: [Handle: User], karma: [Handle: Karma], now: Timestamp) -> [Project] {
        ranking(projects, users: users, karma: karma, now: now).order(projects)
    }

    /// Each project's place in the two lists the explore order mixes, trending and discovery.
    /// What each list sorts by (a project's trending score; its people and start) depends on the
    /// project's own snippets, ballots and players, with their karma and join dates, and on no
    /// other project, so any two projects come in the same order in any list that holds both:
    /// `Ranking.order` lists any of the projects, such as a tag's, as if only they were listed.
    /// Slugs are unique (a content directory's folder names).
    public static func ranking(_ projects: [Project], users: [Handle: User], karma: [Handle: Karma], now: Timestamp) -> Ranking {
        // Each player's join date, karma gate and a number of their own, found with one lookup
        // per snippet or ballot.
        var players: [Handle: (joined: Timestamp, gate: Double, id: Int)] = [:]
        players.reserveCapacity(users.count)
        // The numbers only tell players apart (in the dictionary's order, which varies by run).
        for (id, (handle, user)) in users.enumerated() {
            players[handle] = (user.joined, VoteWeight.karmaGate(karma[handle]?.total ?? 0), id)
        }
        /// The weight of a snippet or ballot by `handle` at `time`, and the player's number (nil
        /// without a profile).
        func weight(_ handle: Handle, at time: Timestamp) -> (Double, id: Int?) {
            // No profile: no account age.
            guard let player = players[handle] else {
                return (VoteWeight.karmaGate(karma[handle]?.total ?? 0) * VoteWeight.ageGate(days: 0), nil)
            }
            let days = Double(player.joined.seconds(until: time)) / 86_400
            return (player.gate * VoteWeight.ageGate(days: days), player.id)
        }
        func decay(_ time: Timestamp) -> Double {
            let age = max(0, Double(time.seconds(until: now)) / 86_400)
            return pow(0.5, age / halfLifeDays)
        }
        // Each project on its own, on every core: each sum is taken in the same order whatever
        // the number of cores, so the scores are the same. Rounds, snippets and ballots are read
        // in place, by index: copying each out of its array retained every string and list it
        // holds (a third of this loop's time in a large rebuild was `swift_retain`).
        //
        // Its participants are counted by the players' numbers, each marked in a bit set, and by
        // handle only for those without a profile: a set of handles, each hashed at every
        // snippet and ballot, was half of this loop's time, and sorting the numbers to count
        // them a fifth of what was left.
        let words = (players.count + 63) / 64
        let scored = Parallel.map(Array(projects.indices)) { p -> (score: Double, people: Int) in
            var score = 0.0
            var seen = [UInt64](repeating: 0, count: words)
            var distinct = 0
            var others: Set<Handle> = []
            func met(_ handle: Handle, _ id: Int?) {
                guard let id else {
                    others.insert(handle)
                    return
                }
                let bit: UInt64 = 1 << UInt64(id & 63)
                if seen[id >> 6] & bit == 0 {
                    seen[id >> 6] |= bit
                    distinct += 1
                }
            }
            met(projects[p].owner, players[projects[p].owner]?.id)
            let rounds = projects[p].rounds
            for r in rounds.indices {
                for s in rounds[r].submissions.indices where rounds[r].submissions[s].submitted <= now {
                    let (author, submitted) = (rounds[r].submissions[s].author, rounds[r].submissions[s].submitted)
                    let (weight, id) = weight(author, at: submitted)
                    score += weight * decay(submitted)
                    met(author, id)
                }
                // Voters and times alone: a kept round's ballots stay packed (`BallotList`).
                rounds[r].ballotList.forEachStamp { voter, cast in
                    guard cast <= now else { return }
                    let (weight, id) = weight(voter, at: cast)
                    score += 0.5 * weight * decay(cast)
                    met(voter, id)
                }
            }
            return (score, distinct + others.count)
        }
        // Ties go by a hash of the slug, not its spelling's place in the alphabet. Sorted by
        // place, each key worked out once: sorting the projects themselves moved whole `Project`
        // values and hashed two slugs at every comparison.
        let hashes = projects.map { NeutralOrder.fnv1a($0.slug.rawValue) }
        func tiebreak(_ a: Int, _ b: Int) -> Bool {
            hashes[a] != hashes[b] ? hashes[a] < hashes[b] : projects[a].slug < projects[b].slug
        }
        // Scores are compared rounded to 12 decimal places (sums of the same activity may differ
        // in their last bits), by a key each score has on its own: comparing two scores'
        // difference to 1e-12 made a ≈ b and b ≈ c without a ≈ c, an order the sort can't keep
        // and that a list of fewer projects could sort otherwise.
        let trend = scored.map { ($0.score * 1e12).rounded() }
        let byTrend = projects.indices.sorted { a, b in
            trend[a] != trend[b] ? trend[a] > trend[b] : tiebreak(a, b)
        }
        let byDiscovery = projects.indices.sorted { a, b in
            let (pa, pb) = (scored[a].people, scored[b].people)
            if pa != pb { return pa < pb }
            if projects[a].created != projects[b].created { return projects[a].created > projects[b].created }
            return tiebreak(a, b)
        }
        var ranking = Ranking()
        ranking.trend.reserveCapacity(projects.count)
        ranking.discovery.reserveCapacity(projects.count)
        for (place, p) in byTrend.enumerated() { ranking.trend[projects[p].slug] = place }
        for (place, p) in byDiscovery.enumerated() { ranking.discovery[projects[p].slug] = place }
        return ranking
    }

    /// Where each project stands in the trending list and in the discovery list, by slug.
    public struct Ranking: Sendable {
        var trend: [Slug: Int] = [:]
        var discovery: [Slug: Int] = [:]

        public init() {}

        /// `projects` in the explore order, as if they were the only ones listed: the trending
        /// and discovery lists of these projects alone, mixed. A tag's page lists its stories so:
        /// cut from the home page's order instead, every tag's list changed its mix (and its
        /// pages) whenever a story of another tag completed or started. Projects the ranking
        /// doesn't know come after those it does, by slug.
        public func order(_ projects: [Project]) -> [Project] {
            func byPlace(in places: [Slug: Int]) -> [Int] {
                let place = projects.map { places[$0.slug] ?? Int.max }
                return projects.indices.sorted { a, b in
                    place[a] != place[b] ? place[a] < place[b] : projects[a].slug < projects[b].slug
                }
            }
            let byTrend = byPlace(in: trend), byDiscovery = byPlace(in: discovery)
            // Each list is read from a cursor that skips projects already placed: the lists are
            // never copied or shortened, so placing n projects costs O(n).
            var result: [Project] = []
            result.reserveCapacity(projects.count)
            var placed = [Bool](repeating: false, count: projects.count)
            var trendCursor = 0, discoveryCursor = 0
            while result.count < projects.count {
                let discovery = (result.count + 1) % discoveryEvery == 2
                let source = discovery ? byDiscovery : byTrend
                var cursor = discovery ? discoveryCursor : trendCursor
                while cursor < source.count, placed[source[cursor]] { cursor += 1 }
                guard cursor < source.count else { break }
                result.append(projects[source[cursor]])
                placed[source[cursor]] = true
                if discovery { discoveryCursor = cursor } else { trendCursor = cursor }
            }
            return result
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
