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
        // Each player's join date and karma gate, found with one lookup per snippet or ballot.
        var players: [Handle: (joined: Timestamp, gate: Double)] = [:]
        players.reserveCapacity(users.count)
        for (handle, user) in users { players[handle] = (user.joined, VoteWeight.karmaGate(karma[handle]?.total ?? 0)) }
        func weight(_ handle: Handle, at time: Timestamp) -> Double {
            // No profile: no account age.
            let player = players[handle] ?? (time, VoteWeight.karmaGate(karma[handle]?.total ?? 0))
            let days = Double(player.joined.seconds(until: time)) / 86_400
            return player.gate * VoteWeight.ageGate(days: days)
        }
        func decay(_ time: Timestamp) -> Double {
            let age = max(0, Double(time.seconds(until: now)) / 86_400)
            return pow(0.5, age / halfLifeDays)
        }
        // Each project on its own, on every core: each sum is taken in the same order whatever
        // the number of cores, so the scores are the same. Rounds, snippets and ballots are read
        // in place, by index: copying each out of its array retained every string and list it
        // holds (a third of this loop's time in a large rebuild was `swift_retain`).
        let scored = Parallel.map(Array(projects.indices)) { p -> (score: Double, people: Int) in
            var score = 0.0
            var people: Set<Handle> = [projects[p].owner]
            let rounds = projects[p].rounds
            for r in rounds.indices {
                for s in rounds[r].submissions.indices where rounds[r].submissions[s].submitted <= now {
                    let (author, submitted) = (rounds[r].submissions[s].author, rounds[r].submissions[s].submitted)
                    score += weight(author, at: submitted) * decay(submitted)
                    people.insert(author)
                }
                for b in rounds[r].ballots.indices where rounds[r].ballots[b].cast <= now {
                    let (voter, cast) = (rounds[r].ballots[b].voter, rounds[r].ballots[b].cast)
                    score += 0.5 * weight(voter, at: cast) * decay(cast)
                    people.insert(voter)
                }
            }
            return (score, people.count)
        }
        var trending: [Slug: Double] = [:]
        var participants: [Slug: Int] = [:]
        for (project, scores) in zip(projects, scored) {
            trending[project.slug] = scores.score
            participants[project.slug] = scores.people
        }
        let byTrend = projects.sorted { a, b in
            let ta = trending[a.slug] ?? 0, tb = trending[b.slug] ?? 0
            return abs(ta - tb) > 1e-12 ? ta > tb : tiebreak(a, b)
        }
        let byDiscovery = projects.sorted { a, b in
            let pa = participants[a.slug] ?? 0, pb = participants[b.slug] ?? 0
            if pa != pb { return pa < pb }
            if a.created != b.created { return a.created > b.created }
            return tiebreak(a, b)
        }
        // Each list is read from a cursor that skips projects already placed: the lists are never
        // copied or shortened, so placing n projects costs O(n).
        var result: [Project] = []
        result.reserveCapacity(projects.count)
        var placed: Set<Slug> = []
        var trendCursor = 0, discoveryCursor = 0
        while result.count < projects.count {
            let discovery = (result.count + 1) % discoveryEvery == 2
            let source = discovery ? byDiscovery : byTrend
            var cursor = discovery ? discoveryCursor : trendCursor
            while cursor < source.count, placed.contains(source[cursor].slug) { cursor += 1 }
            guard cursor < source.count else { break }
            result.append(source[cursor])
            placed.insert(source[cursor].slug)
            if discovery { discoveryCursor = cursor } else { trendCursor = cursor }
        }
        return result
    }

    /// Ties go by a hash of the slug, not its spelling's place in the alphabet.
    static func tiebreak(_ a: Project, _ b: Project) -> Bool {
        let ha = NeutralOrder.fnv1a(a.slug.rawValue), hb = NeutralOrder.fnv1a(b.slug.rawValue)
        return ha != hb ? ha < hb : a.slug < b.slug
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
