/// A player: a profile file `users/<handle>.md` with a Markdown bio.
public struct User: Hashable, Sendable {
    public var handle: Handle
    public var name: String
    public var joined: Timestamp
    public var follows: Follows
    /// A path to an image beside the profile, or an URL.
    public var avatar: String?
    public var links: [Link]
    /// The git identities (emails) whose commits may change this player's files: pull-request
    /// checks (`check --since`) accept a player's snippet, ballot or profile only from them.
    public var emails: [String]
    /// The player's login on the forge (GitHub, GitLab…), matched when the check is told who
    /// opened the pull request: unlike an email, the forge vouches for it.
    public var forge: String?
    /// The profile's Markdown body.
    public var bio: String
    public var origin: Origin

    public init(
        handle: Handle, name: String, joined: Timestamp, follows: Follows = Follows(), avatar: String? = nil,
        links: [Link] = [], emails: [String] = [], forge: String? = nil, bio: String = "", origin: Origin
    ) {
        self.handle = handle
        self.name = name
        self.joined = joined
        self.follows = follows
        self.avatar = avatar
        self.links = links
        self.emails = emails
        self.forge = forge
        self.bio = bio
        self.origin = origin
    }

    /// The projects and people a user follows: their "favorites".
    public struct Follows: Hashable, Sendable {
        public var projects: [Slug]
        public var users: [Handle]

        public init(projects: [Slug] = [], users: [Handle] = []) {
            self.projects = projects
            self.users = users
        }

        public var isEmpty: Bool { projects.isEmpty && users.isEmpty }
    }

    /// A labelled link on a profile.
    public struct Link: Hashable, Sendable {
        public var title: String
        public var url: String

        public init(title: String, url: String) {
            self.title = title
            self.url = url
        }
    }
}
