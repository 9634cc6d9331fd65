extension ContentCheck {
    /// Who wrote an entry at `time`: a user who had joined, or a former player before their removal.
    ///
    /// A removed player's snippets and closed rounds' ballots stay where `user remove` left them;
    /// `formerAllowed` is false where it withdrew their entries (ballots in open rounds), so a file
    /// there under their handle is a mistake. Returns the key to point at and the message.
    static func problem(
        of handle: Handle, as role: String, at time: Timestamp, timeKey: String, verb: String,
        users: [Handle: User], former: [Handle: FormerUser], formerAllowed: Bool = true
    ) -> (key: String, message: String)? {
        if let user = users[handle] {
            guard time < user.joined else { return nil }
            return (timeKey, "\(verb) at \(time), before @\(handle) joined at \(user.joined)")
        }
        guard let gone = former[handle] else { return (role, "\(role) '\(handle)' is not a user") }
        guard formerAllowed else {
            return (role, "\(role) '\(handle)' was removed at \(gone.removed); their ballots in open rounds were withdrawn")
        }
        if time < gone.joined { return (timeKey, "\(verb) at \(time), before @\(handle) joined at \(gone.joined)") }
        if time >= gone.removed { return (timeKey, "\(verb) at \(time), after @\(handle) was removed at \(gone.removed)") }
        return nil
    }

    /// prolific.yml's `former`: each handle once, and none that still has a profile.
    static func problemsOfFormer(in content: Content) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var seen: Set<Handle> = []
        let origin = content.config.origin
        for (i, gone) in content.config.former.enumerated() {
            let key = "former.\(i).handle"
            if !seen.insert(gone.handle).inserted {
                found.append(origin.error(at: key, "'\(gone.handle)' is listed twice under 'former'"))
            } else if content.users[gone.handle] != nil {
                found.append(
                    origin.error(
                        at: key,
                        "'\(gone.handle)' is a former player but users/\(gone.handle).md exists; a removed handle is not reused "
                            + "('prolific user remove \(gone.handle)' finishes an interrupted removal)"))
            }
            if gone.removed < gone.joined {
                found.append(origin.error(at: "former.\(i).removed", "removed at \(gone.removed), before joining at \(gone.joined)"))
            }
        }
        return found
    }

    /// A round's `hidden` entries name its own snippets, once each, and never its winner.
    static func problemsOfHidden(_ round: Round) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var seen: Set<SubmissionID> = []
        for (i, entry) in round.hidden.enumerated() {
            let key = "hidden.\(i).id"
            if round.submission(entry.id) == nil {
                found.append(round.origin.error(at: key, "hidden '\(entry.id)' is not a submission of round \(round.number)"))
            } else if entry.id == round.winner {
                found.append(round.origin.error(at: key, "the winner '\(entry.id)' is hidden; a winner is part of the story"))
            }
            if !seen.insert(entry.id).inserted {
                found.append(round.origin.error(at: key, "'\(entry.id)' is hidden twice"))
            }
        }
        return found
    }

    /// A ballot cast after a snippet it names was hidden (by hand or pull request: `vote` refuses
    /// it): not wrong, but that choice counts for nothing, which its voter may not know.
    static func warningsOfHiddenChoices(_ ballot: Ballot, in round: Round) -> [Diagnostic] {
        let withheld = Moderation.withheld(in: round)
        return ballot.choices.enumerated().compactMap { i, id in
            guard withheld.contains(id), let entry = round.hiding(id), entry.at <= ballot.cast else { return nil }
            return Diagnostic(
                severity: .warning, path: ballot.origin.path, position: ballot.position(of: "for.\(i)"),
                message: "'\(id)' was hidden at \(entry.at), before this ballot was cast; it counts for nothing")
        }
    }

    /// Each report names a known project and one of its snippets, in the round it gives.
    static func problems(of report: Report, in content: Content) -> [Diagnostic] {
        let origin = report.origin
        guard let project = content.project(report.project) else {
            return [origin.error(at: "project", "unknown project '\(report.project)'")]
        }
        guard let round = project.rounds.first(where: { $0.submission(report.snippet) != nil }) else {
            return [origin.error(at: "snippet", "'\(report.snippet)' is not a snippet of project '\(project.slug)'")]
        }
        if let number = report.round, number != round.number {
            return [origin.error(at: "round", "'\(report.snippet)' is a snippet of round \(round.number), not round \(number)")]
        }
        return []
    }
}
