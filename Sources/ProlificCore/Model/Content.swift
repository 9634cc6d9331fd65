/// Everything in a content directory, loaded: the whole game's state.
public struct Content: Equatable, Sendable {
    public var config: Config
    /// Users by handle.
    public var users: [Handle: User]
    /// Projects in slug order.
    public var projects: [Project]
    /// Images beside the content files (for Markdown and avatars), by their path inside the
    /// content directory, such as `users/ann.jpg`.
    public var media: Set<String>
    /// Readers' reports of snippets (`reports/`), in id order.
    public var reports: [Report]

    public init(config: Config, users: [Handle: User], projects: [Project], media: Set<String> = [], reports: [Report] = []) {
        self.config = config
        self.users = users
        self.projects = projects.sorted { $0.slug < $1.slug }
        self.media = media
        self.reports = reports.sorted { $0.id < $1.id }
    }

    /// Former players by handle (prolific.yml's `former`; the first entry wins if one is listed twice).
    public var former: [Handle: FormerUser] {
        Dictionary(config.former.map { ($0.handle, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func project(_ slug: Slug) -> Project? {
        projects.first { $0.slug == slug }
    }

    /// Users in handle order.
    public var sortedUsers: [User] { users.values.sorted { $0.handle < $1.handle } }
}

extension Content {
    /// The content as a build counts it: each closed, sealed round's ballots from its record
    /// (`Round.countsRecord`), where `check` read them from their files. `check` re-counts
    /// tallies from this, so that what it vouches for is what the site shows; `BallotRecordCheck`
    /// compares the record with the files.
    public func countingRecordedBallots() -> Content {
        var counted = self
        for p in counted.projects.indices {
            for r in counted.projects[p].rounds.indices { counted.projects[p].rounds[r].countRecordedBallots() }
        }
        return counted
    }
}
