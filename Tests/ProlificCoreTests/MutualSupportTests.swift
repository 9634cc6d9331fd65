import Testing

@testable import ProlificCore

@Suite struct MutualSupportTests {
    func groups(_ history: VotingHistory) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: MutualSupport.groups(in: history).map { ($0.key.rawValue, $0.value) })
    }

    func habitual(_ history: VotingHistory, _ voter: String, _ author: String) -> Bool {
        VoteWeight.isHabitual(history.record(voter: Make.handle(voter), author: Make.handle(author)))
    }

    @Test func anEmptyHistoryHasNoGroups() {
        #expect(MutualSupport.groups(in: VotingHistory()).isEmpty)
    }

    @Test func aReciprocalPairIsAGroupAndAOneWayHabitIsNot() {
        // ann and bob back each other in each of 3 rounds; cat always backs dan, who never votes.
        let history = Make.history(
            rounds: 3, authors: ["ann", "bob", "dan"], votes: ["ann": ["bob"], "bob": ["ann"], "cat": ["dan"]])
        #expect(habitual(history, "ann", "bob"))
        #expect(habitual(history, "bob", "ann"))
        #expect(habitual(history, "cat", "dan"))
        #expect(!habitual(history, "dan", "cat"))
        #expect(groups(history) == ["ann": 0, "bob": 0])
    }

    @Test func tooFewRoundsOfBackingAreNotYetAHabit() {
        let votes = ["ann": ["bob"], "bob": ["ann"], "cat": ["dan"]]
        let early = Make.history(rounds: VoteWeight.habitMinimumBacks - 1, authors: ["ann", "bob", "dan"], votes: votes)
        #expect(early.record(voter: Make.handle("ann"), author: Make.handle("bob")).backs == VoteWeight.habitMinimumBacks - 1)
        #expect(!habitual(early, "ann", "bob"))
        #expect(groups(early).isEmpty)
    }

    @Test func aThreeCycleIsOneGroup() {
        // ann → bob → cat → ann, each every round; nobody backs the other way round.
        let history = Make.history(
            rounds: 3, authors: ["ann", "bob", "cat", "dan"],
            votes: ["ann": ["bob"], "bob": ["cat"], "cat": ["ann"]])
        #expect(habitual(history, "ann", "bob") && habitual(history, "bob", "cat") && habitual(history, "cat", "ann"))
        #expect(!habitual(history, "bob", "ann") && !habitual(history, "cat", "bob") && !habitual(history, "ann", "cat"))
        let found = groups(history)
        #expect(found.keys.sorted() == ["ann", "bob", "cat"])
        #expect(Set(found.values).count == 1)
        // dan wrote in every round but backs and is backed by nobody.
        #expect(found["dan"] == nil)
    }

    @Test func aChainThatIsNoCycleIsNoGroup() {
        // ann → bob → cat, but cat backs dan: no edge leads back.
        let history = Make.history(
            rounds: 3, authors: ["ann", "bob", "cat", "dan"],
            votes: ["ann": ["bob"], "bob": ["cat"], "cat": ["dan"]])
        #expect(habitual(history, "cat", "dan"))
        #expect(groups(history).isEmpty)
    }

    @Test func numberingIsDeterministic() {
        let authors = ["ann", "bob", "cat", "dan"]
        let votes = ["ann": ["bob"], "bob": ["ann"], "cat": ["dan"], "dan": ["cat"]]
        let forward = Make.history(rounds: 4, authors: authors, votes: votes)
        var backward = VotingHistory()
        for index in (0..<4).reversed() { backward.record(Make.pastRound(index, authors: authors, votes: votes)) }
        let expected = ["ann": 0, "bob": 0, "cat": 1, "dan": 1]
        #expect(groups(forward) == expected)
        #expect(groups(backward) == expected)
        for _ in 0..<5 { #expect(groups(forward) == expected) }
    }

    @Test func usersOutsideAnyGroupAreAbsent() {
        // A pair inside a wider crowd: everybody always backs cat, eve and fay only cat: taste, not habit.
        let history = Make.history(
            rounds: 5, authors: ["ann", "bob", "cat"],
            votes: ["ann": ["bob", "cat"], "bob": ["ann", "cat"], "eve": ["cat"], "fay": ["cat"]])
        #expect(!habitual(history, "eve", "cat") && !habitual(history, "fay", "cat"))
        let found = groups(history)
        #expect(found.keys.sorted() == ["ann", "bob"])
        #expect(found["ann"] == found["bob"])
    }
}
