import ProlificCore

/// Each player's profile (karma with its breakdown, badges with progress, what they started,
/// wrote and follow) and the list of all players.
struct UserPages {
    let site: SiteModel

    /// A profile for each player.
    func profileJobs() -> [PageJob] {
        let users = site.users
        // Who started which listed project, found once rather than by a scan per profile.
        let started = Dictionary(grouping: site.listed.indices) { site.listed[$0].owner }
        return users.map { user in
            let context = PageContext(
                site: site.config, now: site.now, path: SitePath.user(user.handle), title: user.name,
                description: "\(user.name) (@\(user.handle)) on \(site.config.title): karma, badges and snippets.",
                section: .players)
            let mine = started[user.handle] ?? []
            return PageJob("user", context, inputs: { inputs(user, started: mine) }) { profile(user, started: mine) }
        }
    }

    /// The players' list: every player by handle, with their avatar, karma and counts, 100 a
    /// page (`users/`, `users/page-2.html`, …). A change to one player's karma makes their page
    /// again, not the whole list. Made among the first pages, while the other cores make the
    /// rest (`SiteBuilder.jobs`).
    func listJobs() -> [PageJob] {
        let users = site.users
        return Pagination.pages(of: users, size: Pagination<User>.pageSize).map { page in
            let context = PageContext(
                site: site.config, now: site.now, path: SitePath.users(page: page.number),
                title: page.number == 1 ? "Players" : "Players, page \(page.number)",
                description: "Everyone who writes and votes on \(site.config.title).", section: .players)
            let inputs = { () -> PageInputs? in
                var inputs = listInputs(Array(page.items))
                inputs.add(page.number)
                inputs.add(page.count)
                inputs.add(users.count)
                return inputs
            }
            return PageJob("users", context, inputs: inputs) {
                [
                    "countLabel": Display.count(users.count, "player"),
                    "users": page.items.map { user -> [String: Any] in
                        let counts = site.standing.counts(of: user.handle)
                        return [
                            "name": user.name, "handle": user.handle.rawValue, "url": SitePath.user(user.handle),
                            "avatar": Avatar.values(of: user, site: site),
                            "karma": counts.karma.total,
                            "summary": "\(Display.count(counts.snippets, "snippet")) · \(Display.count(counts.wins, "win"))",
                        ]
                    },
                    "pagination": page.values(previous: "← Previous", next: "Next →") { SitePath.users(page: $0) },
                ]
            }
        }
    }

    /// What the players' list shows of each player, without making its values: by its values,
    /// 5,000 players' avatars and summaries were made and fingerprinted at every build of large.
    /// The avatar follows from the name, handle and picture (`Avatar.values`), the summary from
    /// the counts.
    func listInputs(_ users: [User]) -> PageInputs {
        var inputs = PageInputs()
        inputs.list(users.count)
        for user in users {
            let counts = site.standing.counts(of: user.handle)
            inputs.add(user.name)
            inputs.add(user.handle.rawValue)
            inputs.add(Avatar.localImage(of: user, media: site.content.media))
            inputs.add(counts.karma.total)
            inputs.add(counts.snippets)
            inputs.add(counts.wins)
        }
        return inputs
    }

    /// One entry of the karma breakdown table.
    static func karmaRows(_ karma: Karma) -> [[String: Any]] {
        [
            ("Snippets in closed rounds", karma.snippets, Karma.pointsPerSnippet),
            ("Ballots in closed rounds", karma.ballots, Karma.pointsPerBallot),
            ("Rounds won", karma.wins, Karma.pointsPerWin),
            ("Projects started", karma.projects, Karma.pointsPerProject),
        ].map { label, count, points in
            ["label": label, "count": count, "points": points, "total": count * points]
        }
    }

    static func badgeValues(_ progress: Badge.Progress) -> [String: Any] {
        let next = progress.next.map { "\(progress.count) of \($0.threshold) for \($0.name)" } ?? "every tier reached"
        return [
            "id": progress.badge.id.rawValue,
            "name": progress.badge.name,
            "description": progress.badge.description,
            "hasTier": progress.tier != nil,
            "tier": progress.tier?.name ?? "",
            "count": progress.count,
            "nextLabel": next,
            "percent": percent(progress),
        ]
    }

    /// How far to the next tier, in whole percent, as a badge shows it.
    static func percent(_ progress: Badge.Progress) -> Int {
        Int((progress.toNext * 100).rounded(.down))
    }

    /// What `profile(_:started:)` is a function of, apart from the page's context and the
    /// binary: the profile's fields, whether its avatar is a picture in the site, the player's
    /// counts and badges, the projects they started, the files of each project they wrote in
    /// (`SiteModel.keysBesideBallots`: their snippets' places and outcomes come from there), the
    /// projects they follow, the players they follow and who follow them, with names, and
    /// libcmark's version. nil when the bio has images or `data:` links, or a project they
    /// wrote in has no key.
    func inputs(_ user: User, started: [Int]) -> PageInputs? {
        guard !site.cache.needsRewriting(user.bio) else { return nil }
        var inputs = PageInputs()
        inputs.add(Markdown.version)
        inputs.add(user.name)
        inputs.add(user.handle.rawValue)
        inputs.add(Int(user.joined.secondsSinceEpoch))
        inputs.add(user.bio)
        inputs.list(user.links.count)
        for link in user.links {
            inputs.add(link.title)
            inputs.add(link.url)
        }
        inputs.add(Avatar.localImage(of: user, media: site.content.media))
        let counts = site.standing.counts(of: user.handle)
        inputs.add(counts.snippets)
        inputs.add(counts.wins)
        inputs.add(counts.projects)
        inputs.add(counts.ballots)
        inputs.add(counts.karma.snippets)
        inputs.add(counts.karma.ballots)
        inputs.add(counts.karma.wins)
        inputs.add(counts.karma.projects)
        let badges = site.standing.badges(of: user.handle)
        inputs.list(badges.count)
        // What `badgeValues` shows of each, without making its dictionary (5,000 players' pages
        // made 20,000 of them at every build, a fifth of the inputs' time).
        for progress in badges {
            inputs.add(progress.badge.id.rawValue)
            inputs.add(progress.badge.name)
            inputs.add(progress.badge.description)
            inputs.add(progress.tier?.name)
            inputs.add(progress.next?.name)
            inputs.add(progress.next?.threshold ?? -1)
            inputs.add(progress.count)
            inputs.add(Self.percent(progress))
        }
        inputs.list(started.count)
        for index in started {
            inputs.add(site.listed[index].slug.rawValue)
            inputs.add(site.listed[index].title)
        }
        let written = site.projectsWritten(by: user.handle)
        inputs.list(written.count)
        for index in written {
            guard let files = site.keysBesideBallots[site.listed[index].slug] else { return nil }
            inputs.add(files)
        }
        inputs.list(user.follows.projects.count)
        for slug in user.follows.projects {
            inputs.add(slug.rawValue)
            inputs.add(site.listedProject(slug)?.title)
        }
        for people in [user.follows.users, site.followers[user.handle] ?? []] {
            inputs.list(people.count)
            for handle in people {
                inputs.add(handle.rawValue)
                inputs.add(site.names[handle])
            }
        }
        return inputs
    }

    /// `started` holds the indices in `site.listed` of the projects `user` started. What this
    /// reads must be in `inputs(_:started:)`, or a rebuild keeps a stale page.
    func profile(_ user: User, started: [Int]) -> [String: Any] {
        let counts = site.standing.counts(of: user.handle)
        let started = started.map { index -> [String: Any] in
            ["title": site.listed[index].title, "url": SitePath.project(site.listed[index].slug)]
        }
        var written: [(Timestamp, [String: Any])] = []
        for place in site.snippetsByAuthor[user.handle] ?? [] {
            // Read in place: copying the project and the round retained all they hold.
            let (p, r) = (place.project, place.round)
            let slug = site.listed[p].slug
            let (number, isOpen) = (site.listed[p].rounds[r].number, site.listed[p].rounds[r].isOpen)
            let (id, submitted) = (
                site.listed[p].rounds[r].submissions[place.submission].id,
                site.listed[p].rounds[r].submissions[place.submission].submitted
            )
            let won = site.listed[p].rounds[r].winner == id
            let status = isOpen ? "in the open round" : won ? "won" : "an alternate take"
            written.append((submitted, [
                "projectTitle": site.listed[p].title, "round": number.value,
                "url": isOpen
                    ? SitePath.project(slug) + "#" + id.rawValue
                    : SitePath.round(slug, number) + (won ? "" : "#" + id.rawValue),
                "won": won, "status": status, "submittedISO": submitted.iso8601,
                "submittedDisplay": Display.date(submitted),
            ]))
        }
        let snippets = written.enumerated().sorted { a, b in
            a.element.0 != b.element.0 ? a.element.0 > b.element.0 : a.offset < b.offset
        }.map(\.element.1)
        let favorites = user.follows.projects.compactMap(site.listedProject)
            .map { ["title": $0.title, "url": SitePath.project($0.slug)] }
        let following = user.follows.users.compactMap { site.content.users[$0] }.map(personLink)
        let followers = (site.followers[user.handle] ?? []).compactMap { site.content.users[$0] }.map(personLink)
        let cardPath = SitePath.userCard(user.handle)
        return [
            "name": user.name,
            "handle": user.handle.rawValue,
            "avatar": Avatar.values(of: user, site: site),
            "joinedISO": user.joined.iso8601,
            "joinedDisplay": Display.date(user.joined),
            "bioHTML": site.html(user.bio, folder: Media.usersFolder, root: SitePath.root(of: SitePath.user(user.handle))),
            "hasBio": !Self.isBlank(user.bio),
            "links": user.links.map { link -> [String: Any] in
                let safe = SafeURL.isExternal(link.url)
                return ["title": link.title, "url": safe ? link.url : "", "isSafe": safe, "text": link.url]
            },
            "hasLinks": !user.links.isEmpty,
            "karma": counts.karma.total,
            "karmaRows": Self.karmaRows(counts.karma),
            "badges": site.standing.badges(of: user.handle).map(Self.badgeValues),
            "hasStarted": !started.isEmpty, "started": started,
            "hasSnippets": !snippets.isEmpty, "snippets": snippets,
            "snippetsLabel": Display.count(snippets.count, "snippet"),
            "hasFavorites": !favorites.isEmpty, "favorites": favorites,
            "hasFollowing": !following.isEmpty, "following": following,
            "hasFollowers": !followers.isEmpty, "followers": followers,
            "feedURL": SitePath.userFeed(user.handle),
            "cardURL": cardPath,
            "cardEmbed": "![\(user.name) on \(site.config.title)](\(site.config.baseURL)\(cardPath))",
        ]
    }

    /// Whether `text` is only white space, as `trimmingCharacters(in: .whitespacesAndNewlines)`
    /// finds it on Linux (Unicode's White_Space, and U+200B, which CoreFoundation counts as
    /// space), without a trip through `NSString` for every profile.
    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0 == "\u{200B}" }
    }

    func personLink(_ user: User) -> [String: Any] {
        ["name": user.name, "handle": user.handle.rawValue, "url": SitePath.user(user.handle)]
    }
}
