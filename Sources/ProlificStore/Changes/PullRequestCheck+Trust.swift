import ProlificCore

extension PullRequestCheck {
    /// Who counts as a maintainer for a range of commits, decided once per email.
    struct Trust {
        /// The revision the range starts from: its prolific.yml and profiles are what a pull
        /// request can't have changed.
        let base: String
        let forgeLogin: String?
        /// Lowercased maintainer emails.
        var maintainers: Set<String> = []
        private var decided: [String: Bool] = [:]
        /// The profiles at `base`, read only when a forge login must be matched.
        private var baseProfiles: [User]? = nil

        init(base: String, forgeLogin: String?) {
            self.base = base
            self.forgeLogin = forgeLogin
        }

        mutating func isMaintainer(_ email: String, files: inout RevisionFiles) -> Bool {
            let key = email.lowercased()
            if let known = decided[key] { return known }
            var profiles: [User] = []
            if forgeLogin != nil, maintainers.contains(key) {
                if baseProfiles == nil { baseProfiles = Self.profiles(at: base, files: &files) }
                profiles = baseProfiles ?? []
            }
            let trusted = ChangeRules.isMaintainer(email: email, forgeLogin: forgeLogin, maintainers: maintainers, profiles: profiles)
            decided[key] = trusted
            return trusted
        }

        /// Every profile that parses at `revision`.
        static func profiles(at revision: String, files: inout RevisionFiles) -> [User] {
            let names = files.git.names(in: "\(files.prefix)users", at: revision) ?? []
            let handles = names.compactMap { name in name.hasSuffix(".md") ? Handle(name.dropLast(3)) : nil }
            _ = files.prefetch(handles.compactMap { ContentLayout.relativePath(of: .profile($0)).map { (revision, $0) } })
            return handles.compactMap { files.profile($0, at: revision) }
        }
    }
}
