import ProlificCore

extension Game {
    /// What `user remove` did.
    public struct Removed: Sendable {
        public var former: FormerUser
        /// The ballot files withdrawn from open rounds.
        public var withdrawn: [String]
        /// The profile's picture, when it was deleted with it.
        public var avatar: String?
    }

    /// `user remove HANDLE`: deletes the profile (and its picture), withdraws the player's ballots
    /// in open rounds and lists them under `former` in prolific.yml (see `Removal`).
    ///
    /// Everything is planned before anything is written. Then the ballots go first (harmless on
    /// their own), prolific.yml is the deciding write, the picture and the profile follow. If it is
    /// interrupted after the deciding write, `check` says so and running it again finishes.
    public func removeUser(_ handle: Handle) throws(Diagnostics) -> Removed {
        try locked { () throws(Diagnostics) in
            let config = try reader.loadConfig()
            let earlier = config.former.first { $0.handle == handle }
            let profile = layout.userFile(handle)
            guard FileSystem.exists(profile) else {
                if let earlier { throw Self.refuse("@\(handle) was already removed at \(earlier.removed)") }
                throw Self.refuse("unknown user '\(handle)': there is no \(profile)")
            }
            let user = try reader.loadUser(handle)
            let former: FormerUser
            if let earlier {
                former = earlier
            } else {
                do throws(RuleViolation) { former = try Removal.former(user, now: now) } catch { throw Self.refuse(error) }
            }
            let withdrawn = try openBallots(of: handle)
            var settings: String? = nil
            if earlier == nil {
                let text: String
                do throws(FileSystem.Failure) { text = try FileSystem.readText(layout.configFile) } catch {
                    throw Diagnostics([Diagnostic(path: error.path, message: error.message)])
                }
                settings = ConfigFile.replacingFormer(in: text, with: config.former + [former], path: layout.configFile)
                guard settings != nil else {
                    throw Diagnostics([
                        Diagnostic(
                            path: layout.configFile, position: config.origin.positions["former"],
                            message: "cannot add @\(handle) to 'former' without changing other settings; tidy the 'former' list and try again")
                    ])
                }
            }
            let avatar = Removal.avatarFile(of: user).map { "\(layout.usersFolder)/\($0)" }.flatMap {
                FileSystem.exists($0) && !FileSystem.isDirectory($0) ? $0 : nil
            }

            for path in withdrawn { try deleteFile(path) }
            if let settings { try write({ () throws(AtomicFile.Failure) in settings }, to: layout.configFile) }
            if let avatar { try deleteFile(avatar) }
            try deleteFile(profile)
            return Removed(former: former, withdrawn: withdrawn, avatar: avatar)
        }
    }

    /// The ballot files of `handle` in every project's open round. A project whose files can't be
    /// read is an error: its open round can't be known, so nothing is removed.
    private func openBallots(of handle: Handle) throws(Diagnostics) -> [String] {
        let entries: [FileSystem.Entry]
        do throws(FileSystem.Failure) { entries = try FileSystem.list(layout.projectsFolder) ?? [] } catch {
            throw Diagnostics([Diagnostic(path: error.path, message: error.message)])
        }
        var paths: [String] = []
        // A linked project folder is one whose files can't be read (links are not followed): an error.
        for entry in entries where entry.kind == .directory || entry.kind == .symlink {
            guard let slug = Slug(entry.name) else { continue }
            let (project, found) = reader.loadProject(slug, depth: .none)
            let errors = found.filter { $0.severity == .error }
            guard let project, errors.isEmpty else { throw Diagnostics(errors.sorted()) }
            guard let open = project.openRound else { continue }
            let path = layout.ballotFile(slug, open.number, handle)
            if FileSystem.exists(path) { paths.append(path) }
        }
        return paths
    }
}
