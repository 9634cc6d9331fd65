import Testing

@testable import ProlificCore

/// Following, the placeholder of `new submission`, and the candidates of `new ballot`.
@Suite struct ContributorRulesTests {
    let ann = Make.user("ann", follows: User.Follows(projects: [Make.slug("moon")], users: [Make.handle("bob")]))

    @Test func followingAddsLastAndIsIdempotent() throws {
        let follows = try Following.follow(.project(Make.slug("sun")), by: ann)
        #expect(follows?.projects == [Make.slug("moon"), Make.slug("sun")])
        #expect(follows?.users == [Make.handle("bob")])
        #expect(try Following.follow(.user(Make.handle("cat")), by: ann)?.users == [Make.handle("bob"), Make.handle("cat")])
        #expect(try Following.follow(.project(Make.slug("moon")), by: ann) == nil)
        #expect(try Following.follow(.user(Make.handle("bob")), by: ann) == nil)
    }

    @Test func nobodyFollowsThemselves() {
        #expect(
            refusal { () throws(RuleViolation) in try Following.follow(.user(Make.handle("ann")), by: ann) }
                == "@ann cannot follow themselves")
    }

    @Test func unfollowingRemovesOnlyWhatIsThere() {
        #expect(Following.unfollow(.project(Make.slug("moon")), by: ann)?.projects == [])
        #expect(Following.unfollow(.user(Make.handle("bob")), by: ann)?.users == [])
        #expect(Following.unfollow(.project(Make.slug("sun")), by: ann) == nil)
        #expect(Following.unfollow(.user(Make.handle("ann")), by: ann) == nil)
        #expect(Following.Target.project(Make.slug("moon")).description == "project 'moon'")
        #expect(Following.Target.user(Make.handle("bob")).description == "@bob")
    }

    @Test func placeholderIsAnErrorAtItsLine() {
        var snippet = Make.submission("bob", at: "2026-11-02T00:00:00Z")
        #expect(Placeholder.problems(of: snippet).isEmpty)
        snippet.body = Placeholder.snippet
        snippet.origin.positions["body"] = TextPosition(line: 6, column: 1)
        #expect(
            Placeholder.problems(of: snippet).map(\.description) == [
                "\(snippet.origin.path):6:1: error: the snippet is still the placeholder of 'prolific new submission'; "
                    + "replace the line 'TODO(prolific): …' with your snippet"
            ])
        snippet.body = "The door opened.\n\nTODO(prolific): finish this"
        #expect(Placeholder.problems(of: snippet).first?.position == TextPosition(line: 8, column: 1))
        #expect(Placeholder.line(in: "No marker here.") == nil)
    }

    @Test func placeholderFailsCheck() {
        var snippet = Make.submission("bob", at: "2026-11-02T00:00:00Z")
        snippet.body = Placeholder.snippet
        let round = Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", submissions: [snippet])
        let content = Make.content(users: [Make.user("ann"), Make.user("bob")], projects: [Make.project(rounds: [round])])
        #expect(ContentCheck.problems(in: content).contains { $0.message.contains("still the placeholder") })
    }

    @Test func candidatesAreWhatABallotMayName() throws {
        let bob = Make.submission("bob", at: "2026-11-02T00:00:00Z")
        let cat = Make.submission("cat", at: "2026-11-02T01:00:00Z")
        let round = Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", submissions: [bob, cat])
        let now = Make.time("2026-11-03T00:00:00Z")
        let forAnn = try Play.candidates(for: Make.user("ann"), in: round, of: Make.slug("moon"), now: now)
        #expect(Set(forAnn) == [bob.id, cat.id])
        #expect(forAnn == NeutralOrder.sorted([bob, cat], in: Make.slug("moon"), round: round.number).map(\.id))
        #expect(try Play.candidates(for: Make.user("bob"), in: round, of: Make.slug("moon"), now: now) == [cat.id])

        let alone = Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", submissions: [bob])
        #expect(
            refusal { () throws(RuleViolation) in try Play.candidates(for: Make.user("bob"), in: alone, of: Make.slug("moon"), now: now) }
                == "round 1 of 'moon' has no snippets @bob may vote for; one's own can't be chosen")
        let empty = Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z")
        #expect(
            refusal { () throws(RuleViolation) in try Play.candidates(for: Make.user("ann"), in: empty, of: Make.slug("moon"), now: now) }
                == "round 1 of 'moon' has no snippets to vote for yet")
        let late = Make.user("dee", joined: "2026-11-04T00:00:00Z")
        #expect(
            refusal { () throws(RuleViolation) in try Play.candidates(for: late, in: round, of: Make.slug("moon"), now: now) }
                == "@dee joined at 2026-11-04T00:00:00Z, after --now 2026-11-03T00:00:00Z")
    }

    /// The marker is found among the body's bytes, at its line, wherever it stands.
    @Test func thePlaceholderIsFoundByItsBytes() {
        let marker = Placeholder.marker
        #expect(Placeholder.line(in: marker) == 0)
        #expect(Placeholder.line(in: "Über\n\nsé \(marker)") == 2)
        #expect(Placeholder.line(in: "a\nb\nc\(marker)") == 2)
        #expect(Placeholder.line(in: "\(marker)\u{301} and more") == 0)
        #expect(Placeholder.line(in: "TODO(prolific") == nil)
        #expect(Placeholder.line(in: "TTODO(prolifi") == nil)
        #expect(Placeholder.line(in: "TODO(Prolific)") == nil)
        #expect(Placeholder.line(in: "") == nil)
        #expect(Placeholder.line(in: "x\n" + Placeholder.snippet) == 1)
    }
}
