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
                if baseProfiles == nil { baseProfiles = files.profiles(at: base) }
                profiles = baseProfiles ?? []
            }
            let trusted = ChangeRules.isMaintainer(email: email, forgeLogin: forgeLogin, maintainers: maintainers, profiles: profiles)
            decided[key] = trusted
            return trusted
        }

        /// Why `email` wasn't trusted though it is a maintainer's: the forge login isn't bound to
        /// it on the base revision. nil when it is trusted, or isn't a maintainer's at all.
        func unbound(_ email: String, trusted: Bool) -> String? {
            guard !trusted, let forgeLogin, maintainers.contains(email.lowercased()) else { return nil }
            return ChangeRules.unboundMaintainer(email: email, forgeLogin: forgeLogin)
        }
    }
}
