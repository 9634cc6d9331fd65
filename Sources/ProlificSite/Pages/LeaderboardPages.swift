import ProlificCore

/// The leaderboard: karma overall, and the most wins and snippets. Each project's page shows its
/// own top contributors (`topContributors`).
struct LeaderboardPages {
    let site: SiteModel
    /// How many players each board shows.
    static let size = 50

    func job() -> PageJob {
        let context = PageContext(
            site: site.config, now: site.now, path: SitePath.leaderboard, title: "Leaderboard",
            description: "Who has written, won and voted most on \(site.config.title).", section: .leaderboard)
        return PageJob("leaderboard", context, inputs: { inputs() }) { values() }
    }

    /// What the boards are made of, without sorting them: every player's handle, name and the
    /// counts the boards rank and show, in the players' order (which breaks ties).
    func inputs() -> PageInputs {
        var inputs = PageInputs()
        inputs.list(site.users.count)
        for user in site.users {
            let counts = site.standing.counts(of: user.handle)
            inputs.add(user.handle.rawValue)
            inputs.add(site.name(user.handle))
            // Karma's four parts: its total and breakdown are worked out from them.
            inputs.add(counts.karma.snippets)
            inputs.add(counts.karma.ballots)
            inputs.add(counts.karma.wins)
            inputs.add(counts.karma.projects)
            inputs.add(counts.wins)
            inputs.add(counts.snippets)
        }
        return inputs
    }

    func values() -> [String: Any] {
        // Players are in handle order (`SiteModel.users`): ties keep it, and the boards sort each
        // player's place and score, worked out once (sorting the players with their counts
        // moved 80 bytes and worked the score out twice at each of 60,000 comparisons).
        let users = site.users
        let counts = users.map { site.standing.counts(of: $0.handle) }
        func board(_ score: (Standing.Counts) -> Int, _ detail: (Standing.Counts) -> String) -> [[String: Any]] {
            let ranked = counts.indices.compactMap { i -> (score: Int, place: Int)? in
                let value = score(counts[i])
                return value > 0 ? (value, i) : nil
            }.sorted { a, b in a.score != b.score ? a.score > b.score : a.place < b.place }
            return Self.ranks(ranked.map(\.score)).enumerated().prefix(Self.size).map { index, rank in
                let (value, place) = ranked[index]
                let handle = users[place].handle
                return [
                    "rank": rank, "name": site.name(handle), "handle": handle.rawValue, "url": SitePath.user(handle),
                    "score": value, "detail": detail(counts[place]),
                ]
            }
        }
        let karma = board({ $0.karma.total }) { $0.karma.breakdown }
        let wins = board({ $0.wins }) { Display.count($0.snippets, "snippet") + " written" }
        let snippets = board({ $0.snippets }) { Display.count($0.wins, "win") }
        return [
            "karma": karma, "hasKarma": !karma.isEmpty,
            "wins": wins, "hasWins": !wins.isEmpty,
            "snippets": snippets, "hasSnippets": !snippets.isEmpty,
        ]
    }

    /// Standard competition ranks: equal scores share a rank, the next rank skips (1, 2, 2, 4).
    static func ranks(_ scores: [Int]) -> [Int] {
        var ranks: [Int] = []
        for (i, score) in scores.enumerated() {
            ranks.append(i > 0 && scores[i - 1] == score ? ranks[i - 1] : i + 1)
        }
        return ranks
    }

    /// A project's top contributors: by rounds won, then snippets written, then handle.
    static func topContributors(of project: Project, site: SiteModel, limit: Int = 5) -> [[String: Any]] {
        var wins: [Handle: Int] = [:]
        var snippets: [Handle: Int] = [:]
        for round in project.rounds {
            for s in round.submissions { snippets[s.author, default: 0] += 1 }
            if let winner = round.winningSubmission { wins[winner.author, default: 0] += 1 }
        }
        // Counts looked up once per player, not twice per comparison.
        let ranked = snippets.map { (handle: $0.key, wins: wins[$0.key] ?? 0, snippets: $0.value) }.sorted { a, b in
            (a.wins, a.snippets) != (b.wins, b.snippets) ? (a.wins, a.snippets) > (b.wins, b.snippets) : a.handle < b.handle
        }.map(\.handle)
        return ranked.prefix(limit).map { handle in
            [
                "name": site.name(handle), "handle": handle.rawValue, "url": site.userURL(handle), "hasPage": site.hasPage(handle),
                "detail": "\(Display.count(wins[handle] ?? 0, "win")) · \(Display.count(snippets[handle] ?? 0, "snippet"))",
            ]
        }
    }
}
