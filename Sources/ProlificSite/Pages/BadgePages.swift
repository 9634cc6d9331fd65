import ProlificCore

/// The badges page: each badge, its tiers and what earns them, and who holds each tier.
struct BadgePages {
    let site: SiteModel

    func job() -> PageJob {
        let context = PageContext(
            site: site.config, now: site.now, path: SitePath.badges, title: "Badges",
            description: "The badges players earn on \(site.config.title), their tiers and who holds them.",
            section: .badges)
        return PageJob("badges", context, inputs: { inputs() }) { values() }
    }

    /// What `values` shows, without its 5,000 players' dictionaries: each badge and its tiers,
    /// each player's tier of each badge, and the players' handles and names in their order.
    func inputs() -> PageInputs {
        var inputs = PageInputs()
        let users = site.users
        let counts = users.map { site.standing.counts(of: $0.handle) }
        let badges = site.standing.badges
        inputs.list(badges.count)
        for badge in badges {
            inputs.add(badge.id.rawValue)
            inputs.add(badge.name)
            inputs.add(badge.description)
            inputs.list(badge.tiers.count)
            for tier in badge.tiers {
                inputs.add(tier.name)
                inputs.add(tier.threshold)
            }
            inputs.list(users.count)
            for place in users.indices { inputs.add(badge.progress(count: counts[place].count(badge.measure)).tier?.name) }
        }
        inputs.list(users.count)
        for user in users {
            inputs.add(user.handle.rawValue)
            inputs.add(user.name)
        }
        return inputs
    }

    func values() -> [String: Any] {
        // Each player's counts looked up once, not once a badge; players by their places.
        let users = site.users
        let counts = users.map { site.standing.counts(of: $0.handle) }
        let badges = site.standing.badges.map { badge -> [String: Any] in
            var holders: [String: [Int]] = [:]
            for place in users.indices {
                if let tier = badge.progress(count: counts[place].count(badge.measure)).tier { holders[tier.name, default: []].append(place) }
            }
            let tiers = badge.tiers.reversed().map { tier -> [String: Any] in
                let people = (holders[tier.name] ?? []).map { place -> [String: Any] in
                    ["name": users[place].name, "handle": users[place].handle.rawValue, "url": SitePath.user(users[place].handle)]
                }
                return [
                    "name": tier.name, "threshold": tier.threshold,
                    "criterion": "\(badge.description): \(tier.threshold) or more",
                    "hasHolders": !people.isEmpty, "holders": people,
                    "holdersLabel": Display.count(people.count, "holder"),
                ]
            }
            return [
                "id": badge.id.rawValue, "name": badge.name, "description": badge.description,
                "tiers": tiers,
            ]
        }
        return ["badges": badges]
    }
}
