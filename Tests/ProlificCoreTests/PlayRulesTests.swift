import Testing

@testable import ProlificCore

/// Runs a rule and returns its refusal's message, or nil if it accepted.
func refusal<T>(_ rule: () throws(RuleViolation) -> T) -> String? {
    do {
        _ = try rule()
        return nil
    } catch {
        return error.message
    }
}

@Suite struct AcceptingRoundTests {
    let open = Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z")

    @Test func acceptsInsideTheWindow() throws {
        let project = Make.project(rounds: [open])
        #expect(try Play.acceptingRound(of: project, now: Make.time("2026-11-01T00:00:00Z")) == open)
        #expect(try Play.acceptingRound(of: project, now: Make.time("2026-11-07T23:59:59Z")) == open)
    }

    @Test func refusesACompleteProject() {
        var marked = Make.project(rounds: [open])
        marked.status = .complete
        let message = "project 'moon' is complete; it takes no more snippets or ballots"
        #expect(refusal { () throws(RuleViolation) in try Play.acceptingRound(of: marked, now: Make.time("2026-11-02T00:00:00Z")) } == message)

        let closed = Make.closedRound(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-08T00:00:00Z",
            submissions: [Make.submission("bob", at: "2026-11-02T00:00:00Z", ending: true)])
        let ended = Make.project(rounds: [closed])
        #expect(refusal { () throws(RuleViolation) in try Play.acceptingRound(of: ended, now: Make.time("2026-11-09T00:00:00Z")) } == message)
    }

    @Test func refusesWithoutAnOpenRound() {
        let closed = Make.closedRound(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-08T00:00:00Z",
            submissions: [Make.submission("bob", at: "2026-11-02T00:00:00Z")])
        for project in [Make.project(), Make.project(rounds: [closed])] {
            #expect(
                refusal { () throws(RuleViolation) in try Play.acceptingRound(of: project, now: Make.time("2026-11-09T00:00:00Z")) }
                    == "project 'moon' has no open round")
        }
    }

    @Test func refusesBeforeTheRoundOpens() {
        let project = Make.project(rounds: [open])
        #expect(
            refusal { () throws(RuleViolation) in try Play.acceptingRound(of: project, now: Make.time("2026-10-31T23:59:59Z")) }
                == "round 1 of 'moon' opens at 2026-11-01T00:00:00Z, after --now 2026-10-31T23:59:59Z")
    }

    @Test(arguments: ["2026-11-08T00:00:00Z", "2026-11-08T00:00:01Z", "2027-01-01T00:00:00Z"])
    func refusesAtOrAfterTheDeadline(_ now: String) {
        let project = Make.project(rounds: [open])
        #expect(
            refusal { () throws(RuleViolation) in try Play.acceptingRound(of: project, now: Make.time(now)) }
                == "round 1 of 'moon' stopped taking entries at its deadline 2026-11-08T00:00:00Z; a maintainer closes it with 'prolific close --due'"
        )
    }
}

@Suite struct SubmissionRuleTests {
    let ann = Make.user("ann")
    let bobSnippet = Make.submission("bob", at: "2026-11-02T10:00:00Z")

    func round(_ submissions: [Submission] = []) -> Round {
        Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", submissions: submissions)
    }

    @Test func givesTheIDOfAuthorAndNow() throws {
        let now = Make.time("2026-11-03T04:05:06Z")
        let id = try Play.submissionID(by: ann, to: round([bobSnippet]), now: now)
        #expect(id == SubmissionID(author: ann.handle, time: now))
        #expect(id.rawValue == "ann-20261103040506")
    }

    @Test func aUserMaySubmitAtTheMomentTheyJoined() throws {
        let late = Make.user("ann", joined: "2026-11-03T00:00:00Z")
        #expect(try Play.submissionID(by: late, to: round(), now: Make.time("2026-11-03T00:00:00Z")).author == late.handle)
    }

    @Test func refusesAUserWhoJoinedAfterNow() {
        let late = Make.user("ann", joined: "2026-11-04T00:00:00Z")
        #expect(
            refusal { () throws(RuleViolation) in try Play.submissionID(by: late, to: round(), now: Make.time("2026-11-03T00:00:00Z")) }
                == "@ann joined at 2026-11-04T00:00:00Z, after --now 2026-11-03T00:00:00Z")
    }

    @Test func refusesASecondSnippetBySameAuthor() {
        let first = Make.submission("ann", at: "2026-11-02T09:00:00Z")
        #expect(
            refusal { () throws(RuleViolation) in try Play.submissionID(by: ann, to: round([bobSnippet, first]), now: Make.time("2026-11-03T00:00:00Z")) }
                == "@ann already submitted 'ann-20261102090000' to round 1; one snippet per round")
    }

    @Test func refusesAnIDThatExists() {
        // Inconsistent content: a file named ann-… whose author is someone else.
        var clash = Make.submission("ann", at: "2026-11-03T00:00:00Z")
        clash.author = Make.handle("bob")
        #expect(
            refusal { () throws(RuleViolation) in try Play.submissionID(by: ann, to: round([clash]), now: Make.time("2026-11-03T00:00:00Z")) }
                == "a submission 'ann-20261103000000' already exists")
    }
}

@Suite struct BallotRuleTests {
    let cat = Make.user("cat")
    let ann = Make.submission("ann", at: "2026-11-02T10:00:00Z")
    let bob = Make.submission("bob", at: "2026-11-02T11:00:00Z")
    let catSnippet = Make.submission("cat", at: "2026-11-02T12:00:00Z")
    let now = Make.time("2026-11-03T00:00:00Z")

    var round: Round {
        Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", submissions: [ann, bob, catSnippet])
    }

    func ballotRefusal(_ choices: [String], voter: User? = nil) -> String? {
        refusal { () throws(RuleViolation) in try Play.ballot(by: voter ?? cat, choosing: choices, in: round, now: now) }
    }

    @Test func returnsTheChoicesInOrder() throws {
        #expect(try Play.ballot(by: cat, choosing: [bob.id.rawValue, ann.id.rawValue], in: round, now: now) == [bob.id, ann.id])
        #expect(try Play.ballot(by: cat, choosing: [ann.id.rawValue], in: round, now: now) == [ann.id])
    }

    @Test func refusesAnEmptyBallot() {
        #expect(ballotRefusal([]) == "a ballot names at least one submission")
    }

    @Test func refusesAVoterWhoJoinedAfterNow() {
        #expect(
            ballotRefusal([ann.id.rawValue], voter: Make.user("cat", joined: "2026-11-03T00:00:01Z"))
                == "@cat joined at 2026-11-03T00:00:01Z, after --now 2026-11-03T00:00:00Z")
    }

    @Test(arguments: ["nonsense", "ann", "ann-2026", "Ann-20261102100000", "ann-20261302100000", ""])
    func refusesAMalformedID(_ text: String) {
        #expect(
            ballotRefusal([ann.id.rawValue, text])
                == "'\(text)' is not a submission id (expected '<author>-<yyyymmddhhmmss>', the author's handle and the submission time in UTC)"
        )
    }

    @Test func refusesAnIDNotInTheRound() {
        #expect(ballotRefusal(["dan-20261102100000"]) == "'dan-20261102100000' is not a submission of round 1")
        // Right author, wrong second.
        #expect(ballotRefusal(["ann-20261102100001"]) == "'ann-20261102100001' is not a submission of round 1")
    }

    @Test func refusesTheVotersOwnSnippet() {
        #expect(ballotRefusal([ann.id.rawValue, catSnippet.id.rawValue]) == "@cat cannot vote for their own snippet 'cat-20261102120000'")
    }

    @Test func refusesAChoiceNamedTwice() {
        #expect(
            ballotRefusal([ann.id.rawValue, bob.id.rawValue, ann.id.rawValue])
                == "'ann-20261102100000' is named twice")
    }
}
