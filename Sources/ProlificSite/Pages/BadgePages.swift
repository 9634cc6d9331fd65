import ProlificCore

/// The badges page: each badge, its tiers and what earns them, and who holds each tier.
struct BadgePages {
    let site: SiteModel

    func job() -> PageJob {
        let context = PageContext(
            site: site.config, now: site.now, path: SitePath.badges, title: "Badges",
            description: "The badges players earn on \(site.config.title), their tiers and who holds them.",
            section: .badges)
        return PageJob("badges", context) { values() }
    }

    func values() -> [String: Any] {
        let users = site.users
        let badges = site.standing.badges.map { badge -> [String: Any] in
            var holders: [String: [User]] = [:]
            for user in users {
                let progress = badge.progress(count: site.standing.counts(of: user.handle).count(badge.measure))
                if let tier = progress.tier { holders[tier.name, default: []].append(user) }
            }
            let tiers = badge.tiers.reversed().map { tier -> [String: Any] in
                let people = (holders[tier.name] ?? []).map { user -> [String: Any] in
                    ["name": user.name, "handle": user.handle.rawValue, "url": SitePath.user(user.handle)]
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
