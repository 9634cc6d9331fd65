import ProlificCore

/// `users/<handle>.md`: a profile. Front matter `name`, `joined`, and optionally `follows`,
/// `avatar`, `links`, `emails`, `forge`; the body is the bio.
enum UserFile {
    static func parse(_ text: String, path: String, handle: Handle) throws(Diagnostics) -> User {
        var (fields, document) = try FrontMatter.fields(of: text, path: path)
        let name = fields.string("name")
        let joined = fields.timestamp("joined")
        var follows = User.Follows()
        if var nested = fields.mapping("follows") {
            follows.projects = nested.list("projects", expected: "a project slug") { Slug($0) } ?? []
            follows.users = nested.list("users", expected: "a user's handle") { Handle($0) } ?? []
            nested.finish()
            fields.absorb(nested, prefix: "follows")
        }
        let avatar = fields.string("avatar", required: false)
        var links: [User.Link] = []
        for (index, var entry) in (fields.mappings("links") ?? []).enumerated() {
            if let title = entry.string("title"), let url = entry.string("url") {
                links.append(User.Link(title: title, url: url))
            }
            entry.finish()
            fields.absorb(entry, prefix: "links.\(index)")
        }
        let emails = fields.list("emails", expected: GitIdentity.emailRule) { GitIdentity.isEmail($0) ? $0 : nil } ?? []
        let forge = fields.string("forge", required: false)
        if let forge, !GitIdentity.isLogin(forge) {
            fields.report("'forge' must be \(GitIdentity.loginRule), found '\(forge)'", at: "forge")
        }
        fields.finish()
        if let name, name.trimmingCharacters(in: " \t").isEmpty {
            fields.report("'name' must not be empty", at: "name")
        } else if let name, let problem = TextRules.problem(withLine: name, named: "name", limit: TextRules.nameLimit) {
            // The limits `user add` keeps, for profiles written by hand: a name is on every page
            // that lists the player, so one long name would swamp the whole site.
            fields.report(problem, at: "name")
        }
        if let problem = TextRules.problem(withBody: document.body, named: "bio", limit: TextRules.bioLimit, mayBeEmpty: true) {
            fields.report(problem, atLine: document.bodyFirstLine)
        }
        guard fields.isValid, let name, let joined else { throw Diagnostics(fields.diagnostics) }
        return User(
            handle: handle, name: name, joined: joined, follows: follows, avatar: avatar, links: links,
            emails: emails, forge: forge, bio: document.body, origin: fields.origin)
    }

    static func render(_ user: User) throws(AtomicFile.Failure) -> String {
        var yaml = YAMLWriter()
        yaml.text("name", user.name)
        yaml.plain("joined", user.joined)
        if !user.follows.isEmpty {
            var follows = YAMLWriter()
            if !user.follows.projects.isEmpty { follows.texts("projects", user.follows.projects.map(\.rawValue), flow: true) }
            if !user.follows.users.isEmpty { follows.texts("users", user.follows.users.map(\.rawValue), flow: true) }
            yaml.node("follows", follows.mapping)
        }
        if let avatar = user.avatar { yaml.text("avatar", avatar) }
        if !user.links.isEmpty {
            yaml.node(
                "links",
                .init(
                    user.links.map { link in
                        var entry = YAMLWriter()
                        entry.text("title", link.title)
                        entry.text("url", link.url)
                        return entry.mapping
                    }))
        }
        if !user.emails.isEmpty { yaml.texts("emails", user.emails, flow: true) }
        if let forge = user.forge { yaml.text("forge", forge) }
        return FrontMatter.join(yaml: try yaml.yaml(), body: user.bio)
    }
}

extension String {
    func trimmingCharacters(in set: String) -> Substring {
        var s = self[...]
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return s
    }
}
