/// The cross-file rules `prolific check` enforces once every file has parsed.
///
/// Every reference resolves (owner, authors, voters, ballot choices within the same round); round
/// numbers are contiguous; at most one open round per project, and it is the last; closed rounds
/// name an existing winner that the tally agrees with; nobody votes for their own snippet; entries
/// fall inside their round's window. Removed players, hidden snippets and reports are checked in
/// `ContentCheck+Moderation`.
public enum ContentCheck {
    /// Every cross-file problem; each closed round's result is re-run with its recorded method
    /// against the history it had (and git `evidence`, when there is some).
    public static func problems(in content: Content, evidence: IdentityEvidence = IdentityEvidence()) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for user in content.sortedUsers {
            found += problems(of: user, in: content)
        }
        found += problemsOfFormer(in: content)
        for report in content.reports { found += problems(of: report, in: content) }
        var recounts: [String: Tally.Outcome] = [:]
        for result in TallyTimeline(content: content, evidence: evidence).replay() {
            recounts[IdentityEvidence.key(result.slug, result.round.number)] = result.outcome
        }
        // Projects on every core: on the large benchmark, one by one they kept a core idle for
        // about 0.7 s of `check` (most of it looking for placeholders in 100,000 snippets).
        let (users, former) = (content.users, content.former)
        for part in Parallel.map(content.projects, { problems(of: $0, users: users, former: former, recounts: recounts) }) {
            found += part
        }
        return found.sorted()
    }

    static func problems(of user: User, in content: Content) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for (i, slug) in user.follows.projects.enumerated() where content.project(slug) == nil {
            found.append(user.origin.error(at: "follows.projects.\(i)", "follows unknown project '\(slug)'"))
        }
        for (i, handle) in user.follows.users.enumerated()
        where content.users[handle] == nil && !content.config.former.contains(where: { $0.handle == handle }) {
            found.append(user.origin.error(at: "follows.users.\(i)", "follows unknown user '\(handle)'"))
        }
        return found
    }

    static func problems(
        of project: Project, users: [Handle: User], former: [Handle: FormerUser] = [:], recounts: [String: Tally.Outcome] = [:]
    ) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let origin = project.origin
        if users[project.owner] == nil && former[project.owner] == nil {
            found.append(origin.error(at: "owner", "owner '\(project.owner)' is not a user"))
        }
        for (index, round) in project.rounds.enumerated() {
            if round.number.value != index + 1 {
                let message =
                    index == 0
                    ? "the first round is numbered \(round.number); round numbers start at 1"
                    : "round \(round.number) follows round \(project.rounds[index - 1].number); round numbers must be contiguous"
                found.append(round.origin.error(at: "", message))
            }
            if round.isOpen && index != project.rounds.count - 1 {
                found.append(
                    round.origin.error(at: "", "round \(round.number) is open but a later round exists; only the last round may be open"))
            }
            found += problems(
                of: round, in: project, users: users, former: former, recount: recounts[IdentityEvidence.key(project.slug, round.number)])
        }
        let complete = Closing.isComplete(project)
        if project.status == .complete && !complete {
            found.append(
                origin.error(
                    at: "status", "status is 'complete' but no ending has won and only \(project.closedRounds.count) of \(project.roundLimit) rounds have closed"))
        }
        if complete, let open = project.openRound {
            found.append(open.origin.error(at: "", "round \(open.number) is open but the project is already complete"))
        }
        if project.openRound == nil, Closing.nextStep(for: project) != nil {
            found.append(
                Diagnostic(
                    severity: .warning, path: origin.path, position: origin.position(of: "status"),
                    message: complete
                        ? "the project is complete but its status says 'open'; the next command on it records 'complete'"
                        : "the project has no open round; the next command on it opens one"))
        }
        return found
    }

    static func problems(
        of round: Round, in project: Project, users: [Handle: User], former: [Handle: FormerUser] = [:], recount: Tally.Outcome? = nil
    ) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let origin = round.origin
        if round.closes <= round.opened {
            found.append(origin.error(at: "closes", "the deadline \(round.closes) is not after the opening \(round.opened)"))
        }
        if let closed = round.closed, closed < round.opened {
            found.append(origin.error(at: "closed", "closed at \(closed), before the round opened at \(round.opened)"))
        }
        if round.isOpen {
            if round.winner != nil { found.append(origin.error(at: "winner", "an open round has no winner; add 'closed' or remove 'winner'")) }
            if round.tally != nil { found.append(origin.error(at: "tally", "an open round has no tally; add 'closed' or remove 'tally'")) }
        } else if round.closed.map({ $0 >= round.opened }) == true {
            // (A round closed before it opened is reported above; its result can't be judged.)
            found += problemsOfResult(round, recount: recount)
        }
        var authors: [Handle: Submission] = [:]
        for submission in round.submissions {
            let o = submission.origin
            found += Placeholder.problems(of: submission)
            if let problem = problem(
                of: submission.author, as: "author", at: submission.submitted, timeKey: "submitted", verb: "submitted",
                users: users, former: former)
            {
                found.append(o.error(at: problem.key, problem.message))
            }
            if submission.submitted < round.opened || submission.submitted >= round.closes {
                found.append(
                    o.error(at: "submitted", "submitted at \(submission.submitted), outside round \(round.number)'s window (from \(round.opened), before \(round.closes))"))
            }
            if let earlier = authors[submission.author] {
                found.append(
                    Diagnostic(
                        path: o.path, position: o.position(of: "author"),
                        message: "@\(submission.author) submitted twice to round \(round.number); one snippet per round",
                        notes: [.init(path: earlier.origin.path, position: .start, message: "the other snippet")]))
            } else {
                authors[submission.author] = submission
            }
        }
        found += problemsOfHidden(round)
        for ballot in round.ballots {
            found += problems(of: ballot, in: round, users: users, former: former)
            found += warningsOfHiddenChoices(ballot, in: round)
            if let closed = round.closed, ballot.cast >= closed, ballot.cast < round.closes {
                found.append(
                    Diagnostic(
                        severity: .warning, path: ballot.origin.path, position: ballot.position(of: "cast"),
                        message: "cast at \(ballot.cast), not before the round closed at \(closed); it was not counted"))
            }
        }
        return found
    }

    /// A closed round names its winner and tally, and re-running the tally gives the same.
    static func problemsOfResult(_ round: Round, recount: Tally.Outcome?) -> [Diagnostic] {
        let origin = round.origin
        guard let winner = round.winner else {
            return [origin.error(at: "closed", "a closed round names its 'winner'")]
        }
        guard round.submission(winner) != nil else {
            return [origin.error(at: "winner", "winner '\(winner)' is not a submission of round \(round.number)")]
        }
        guard let tally = round.tally else {
            return [origin.error(at: "closed", "a closed round records its 'tally'")]
        }
        guard tally.method == Tally.method || tally.method == FairTally.method else {
            return [origin.error(at: "tally.method", "unknown tally method '\(tally.method)'; expected '\(FairTally.method)' or '\(Tally.method)'")]
        }
        guard let recount else { return [] }
        if tally.ballots != recount.record.ballots {
            return [
                origin.error(
                    at: "tally.ballots", "recorded \(tally.ballots) counted ballots, but the tally counts \(recount.record.ballots)")
            ]
        }
        let recorded = Set(tally.scores.map(\.id)), counted = Set(recount.record.scores.map(\.id))
        if recorded != counted {
            let missing = counted.subtracting(recorded).sorted().map(\.rawValue)
            let extra = recorded.subtracting(counted).sorted().map(\.rawValue)
            let what = (missing.isEmpty ? [] : ["no score for \(missing.joined(separator: ", "))"])
                + (extra.isEmpty ? [] : ["a score for \(extra.joined(separator: ", ")), not a snippet of the round"])
            return [origin.error(at: "tally.scores", "the recorded scores have \(what.joined(separator: " and "))")]
        }
        if recount.winner != winner {
            return [
                origin.error(
                    at: "winner", "recorded winner '\(winner)' differs from the tally, which gives '\(recount.winner.map(\.rawValue) ?? "none")'")
            ]
        }
        for score in tally.scores {
            let again = recount.record.scores.first { $0.id == score.id }?.score
            if let again, abs(again - score.score) <= 0.0001 { continue }
            do {
                return [
                    origin.error(
                        at: "tally.scores.\(score.id)",
                        "recorded score \(score.score) of '\(score.id)' differs from the tally, which gives \(again.map { String($0) } ?? "nothing")")
                ]
            }
        }
        return []
    }

    static func problems(of ballot: Ballot, in round: Round, users: [Handle: User], former: [Handle: FormerUser] = [:]) -> [Diagnostic] {
        var found: [Diagnostic] = []
        if let problem = problem(
            of: ballot.voter, as: "voter", at: ballot.cast, timeKey: "cast", verb: "cast", users: users, former: former,
            formerAllowed: !round.isOpen)
        {
            found.append(ballot.error(at: problem.key, problem.message))
        }
        if ballot.cast < round.opened || ballot.cast >= round.closes {
            found.append(ballot.error(at: "cast", "cast at \(ballot.cast), outside round \(round.number)'s window (from \(round.opened), before \(round.closes))"))
        }
        if ballot.choices.isEmpty {
            found.append(ballot.error(at: "for", "a ballot names at least one submission"))
        }
        var seen: Set<SubmissionID> = []
        for (i, id) in ballot.choices.enumerated() {
            let key = "for.\(i)"
            if round.submission(id) == nil {
                found.append(ballot.error(at: key, "'\(id)' is not a submission of round \(round.number)"))
            } else if id.author == ballot.voter {
                found.append(ballot.error(at: key, "@\(ballot.voter) votes for their own snippet '\(id)'"))
            }
            if !seen.insert(id).inserted {
                found.append(ballot.error(at: key, "'\(id)' is named twice"))
            }
        }
        return found
    }
}
