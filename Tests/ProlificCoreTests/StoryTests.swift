import Testing

@testable import ProlificCore

@Suite struct StoryTests {
    @Test func starterThenEachClosedRoundsWinnerInOrder() {
        let bob = Make.submission("bob", at: "2026-11-02T10:00:00Z")
        let cat = Make.submission("cat", at: "2026-11-02T11:00:00Z", round: 1)
        let ann = Make.submission("ann", at: "2026-11-09T10:00:00Z", round: 2)
        let dan = Make.submission("dan", at: "2026-11-16T10:00:00Z", round: 3)
        let round1 = Make.closedRound(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-08T00:00:00Z",
            submissions: [bob, cat], ballots: [Make.ballot("ann", at: "2026-11-03T00:00:00Z", for: [cat.id])])
        let round2 = Make.closedRound(
            2, opened: "2026-11-08T00:00:00Z", closes: "2026-11-15T00:00:00Z", closed: "2026-11-15T00:00:00Z",
            submissions: [ann])
        // The open round's snippets are not part of the story yet.
        let round3 = Make.round(3, opened: "2026-11-15T00:00:00Z", closes: "2026-11-22T00:00:00Z", submissions: [dan])
        let story = Story(Make.project(owner: "ann", rounds: [round1, round2, round3]))

        #expect(story.chapters.map(\.round) == [nil, Make.number(1), Make.number(2)])
        #expect(story.chapters.map(\.author.rawValue) == ["ann", "cat", "ann"])
        #expect(story.chapters.map(\.markdown) == ["Once upon a time.", "Text by cat.", "Text by ann."])
        #expect(story.chapters.map(\.submission) == [nil, cat.id, ann.id])
    }

    @Test func aNewProjectIsJustItsStarter() {
        let story = Story(Make.project(owner: "bob"))
        #expect(story.chapters.count == 1)
        #expect(story.chapters.first?.author == Make.handle("bob"))
        #expect(story.chapters.first?.markdown == "Once upon a time.")
    }
}

@Suite struct NeutralOrderTests {
    let submissions = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"].enumerated().map { i, name in
        Make.submission(name, at: "2026-11-02T10:00:0\(i)Z")
    }

    @Test func isIndependentOfInputOrder() {
        let slug = Make.slug("moon"), round = Make.number(3)
        let expected = NeutralOrder.sorted(submissions, in: slug, round: round).map(\.id)
        #expect(Set(expected) == Set(submissions.map(\.id)))
        #expect(expected.count == submissions.count)
        var rotated = submissions
        for _ in submissions.indices {
            rotated.append(rotated.removeFirst())
            #expect(NeutralOrder.sorted(rotated, in: slug, round: round).map(\.id) == expected)
        }
        #expect(NeutralOrder.sorted(submissions.reversed(), in: slug, round: round).map(\.id) == expected)
    }

    @Test func isNeitherSubmissionOrderNorIDOrder() {
        let order = NeutralOrder.sorted(submissions, in: Make.slug("moon"), round: Make.number(3)).map(\.id)
        #expect(order != submissions.map(\.id))
        #expect(order != submissions.map(\.id).sorted())
    }

    @Test func isDeterministicAndDependsOnTheRound() {
        let a = NeutralOrder.sorted(submissions, in: Make.slug("moon"), round: Make.number(1)).map(\.id)
        let again = NeutralOrder.sorted(submissions, in: Make.slug("moon"), round: Make.number(1)).map(\.id)
        #expect(a == again)
        let elsewhere = (1...5).map { n in NeutralOrder.sorted(submissions, in: Make.slug("moon"), round: Make.number(n)).map(\.id) }
        #expect(Set(elsewhere.map { $0.map(\.rawValue).joined(separator: ",") }).count > 1)
    }

    @Test func usesStableFNV1a() {
        // Published FNV-1a 64-bit test vectors: stable across runs and platforms.
        #expect(NeutralOrder.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(NeutralOrder.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(NeutralOrder.fnv1a("foobar") == 0x8594_4171_f739_67e8)
        #expect(
            NeutralOrder.key(submissions[0], Make.slug("moon"), Make.number(3))
                == NeutralOrder.fnv1a("moon/0003/ann-20261102100000"))
    }
}
