import ProlificCore

extension Game {
    /// Makes a new content directory at `root`: `prolific.yml`, `users/` and `projects/`.
    public static func initialize(root: String, config: Config) throws(Diagnostics) {
        let layout = ContentLayout(root: root)
        if FileSystem.exists(layout.configFile) {
            throw Diagnostics([Diagnostic(path: layout.configFile, message: "already exists; this is a content directory already")])
        }
        do {
            try FileSystem.makeDirectories(layout.usersFolder)
            try FileSystem.makeDirectories(layout.projectsFolder)
        } catch {
            throw Diagnostics([Diagnostic(path: error.path, message: error.message)])
        }
        let game = Game(content: root, now: Timestamp(secondsSinceEpoch: 0))
        try game.create(
            { () throws(AtomicFile.Failure) in try ConfigFile.render(config) }, at: layout.configFile, exists: "already exists")
    }

    /// Adds a player. Their profile is created, never overwritten.
    /// A picture for a new profile: its bytes and its file extension (`png`, `jpg`, …).
    public struct AvatarImage: Sendable {
        public var bytes: [UInt8]
        public var fileExtension: String

        public init(bytes: [UInt8], fileExtension: String) {
            self.bytes = bytes
            self.fileExtension = fileExtension.lowercased()
        }

        /// The image kinds a profile may use: those the site copies (SVG can carry script).
        public static let allowedExtensions = ["png", "jpg", "jpeg", "gif", "webp", "avif"]
    }

    public func addUser(_ handle: Handle, name: String, bio: String, avatar: AvatarImage? = nil) throws(Diagnostics) -> User {
        if let problem = TextRules.problem(withLine: name, named: "name", limit: TextRules.nameLimit) {
            throw Self.refuse(problem)
        }
        if let problem = TextRules.problem(withBody: bio, named: "bio", limit: TextRules.bioLimit, mayBeEmpty: true) {
            throw Self.refuse(problem)
        }
        if let avatar {
            guard AvatarImage.allowedExtensions.contains(avatar.fileExtension) else {
                throw Self.refuse("the avatar must be a PNG, JPEG, GIF, WebP or AVIF image, not '.\(avatar.fileExtension)'")
            }
            guard ImageSignature.matches(avatar.bytes, fileExtension: avatar.fileExtension) else {
                throw Self.refuse("the avatar is not \(ContentReader.kindName("x.\(avatar.fileExtension)")): its bytes say otherwise")
            }
            guard avatar.bytes.count <= ContentReader.maximumMediaSize else {
                throw Self.refuse("the avatar is \(ContentReader.mebibytes(avatar.bytes.count)) MiB; images may be at most \(ContentReader.maximumMediaSize >> 20) MiB")
            }
        }
        return try locked { () throws(Diagnostics) in
            try reader.requireRealFolders(layout.usersFolder)
            let path = layout.userFile(handle)
            guard !FileSystem.exists(path) else { throw Diagnostics([Diagnostic(path: path, message: "user '\(handle)' already exists")]) }
            let former = try reader.loadConfig().former
            do throws(RuleViolation) { try Removal.checkNewHandle(handle, former: former) } catch { throw Self.refuse(error) }
            var user = User(handle: handle, name: name, joined: now, bio: bio, origin: Origin(path: path))
            if let avatar {
                // The picture first: the profile is the deciding write, and a picture alone is harmless.
                let file = "\(handle).\(avatar.fileExtension)"
                let picture = "\(layout.usersFolder)/\(file)"
                do throws(AtomicFile.Failure) {
                    try AtomicFile.write(bytes: avatar.bytes, to: picture)
                } catch { throw Self.diagnostics(error, path: picture) }
                changes.record(picture)
                user.avatar = file
            }
            try create({ () throws(AtomicFile.Failure) in try UserFile.render(user) }, at: path, exists: "user '\(handle)' already exists")
            return user
        }
    }

    /// What `project new` asks for.
    public struct ProjectRequest: Sendable {
        public var slug: Slug
        public var title: String
        public var owner: Handle
        public var rounds: Int?
        public var roundLength: TimeSpan?
        public var tags: [String]
        public var starter: String

        public init(
            slug: Slug, title: String, owner: Handle, rounds: Int? = nil, roundLength: TimeSpan? = nil,
            tags: [String] = [], starter: String
        ) {
            self.slug = slug
            self.title = title
            self.owner = owner
            self.rounds = rounds
            self.roundLength = roundLength
            self.tags = tags
            self.starter = starter
        }
    }

    /// Starts a project with its starter text and opens round 1 now.
    public func newProject(_ request: ProjectRequest) throws(Diagnostics) -> Project {
        var problems = [
            TextRules.problem(withLine: request.title, named: "title", limit: TextRules.titleLimit),
            TextRules.problem(withBody: request.starter, named: "starter text", limit: TextRules.starterLimit),
        ]
        for tag in request.tags { problems.append(TextRules.problem(withTag: tag)) }
        problems.append(TextRules.problem(withTagCount: Set(request.tags).count))
        if let rounds = request.rounds, !Config.roundLimitRange.contains(rounds) {
            problems.append("--rounds must be from 1 to \(RoundNumber.maximum), found \(rounds)")
        }
        if let problem = problems.compactMap({ $0 }).first { throw Self.refuse(problem) }
        return try locked { () throws(Diagnostics) in
            let config = try reader.loadConfig()
            let owner = try reader.loadUser(request.owner)
            guard owner.joined <= now else {
                throw Self.refuse("@\(owner.handle) joined at \(owner.joined), after --now \(now)")
            }
            try reader.requireRealFolders(layout.projectsFolder)
            let path = layout.projectFile(request.slug)
            if FileSystem.exists(layout.projectFolder(request.slug)) {
                throw Diagnostics([Diagnostic(path: layout.projectFolder(request.slug), message: "project '\(request.slug)' already exists")])
            }
            var tags: [String] = []
            for tag in request.tags where !tags.contains(tag) { tags.append(tag) }
            let project = Project(
                slug: request.slug, title: request.title, owner: request.owner, created: now,
                roundLimit: request.rounds ?? config.rounds, roundLength: request.roundLength ?? config.roundLength,
                tags: tags, status: .open, starter: request.starter, origin: Origin(path: path))
            try create({ () throws(AtomicFile.Failure) in try ProjectFile.render(project) }, at: path, exists: "project '\(request.slug)' already exists")
            return try settle(project)
        }
    }
}
