/// One round of a project: `rounds/NNNN/round.md` with its submissions and ballots.
///
/// A round is open until `close` records `closed`, `winner` and `tally` in its file.
public struct Round: Hashable, Sendable {
    public var number: RoundNumber
    public var opened: Timestamp
    /// The deadline: snippets and ballots are accepted before it; `close --due` closes after it.
    public var closes: Timestamp
    public var closed: Timestamp?
    public var winner: SubmissionID?
    public var tally: TallyRecord?
    /// Deadlines this round had before it was extended for lack of submissions.
    public var extensions: [Extension]
    /// Snippets a maintainer hid, with who, when and why (see `Moderation`).
    public var hidden: [Hidden]
    /// The SHA-256 of every file in the round's folder, recorded at close (see `Seal`); nil while
    /// open, and for rounds closed before seals existed.
    public var seal: Seal?
    /// A maintainer's note for the round, the body of round.md.
    public var note: String
    public var submissions: [Submission]
    /// The ballots, as a list or packed (`BallotList`): what reads only each ballot's voter and
    /// time reads them here, leaving a kept round's ballots unmade.
    public var ballotList: BallotList
    /// `recordedBallots`, as `ballotList` holds the ballots: a kept closed round's record is its
    /// ballots, one packed list.
    public var recordedList: BallotList?
    public var origin: Origin

    public var ballots: [Ballot] {
        get { ballotList.ballots }
        set { ballotList = BallotList(newValue) }
        // Appended to in place: the list is let go of while it changes.
        _modify {
            var ballots = ballotList.ballots
            ballotList = BallotList()
            defer { ballotList = BallotList(ballots) }
            yield &ballots
        }
    }

    /// Every ballot file the round held when `close` tallied it, as round.md's `votes` records
    /// them beside the seal; nil while open, and for rounds closed before records existed. A
    /// build counts a closed, sealed round's record (`countsRecord`) instead of reading its
    /// `votes/` files (most of the content's files); `check` reads the files and compares them
    /// with this (`BallotRecordCheck`).
    public var recordedBallots: [Ballot]? {
        get { recordedList?.ballots }
        set { recordedList = newValue.map { BallotList($0) } }
    }

    public init(
        number: RoundNumber, opened: Timestamp, closes: Timestamp, closed: Timestamp? = nil,
        winner: SubmissionID? = nil, tally: TallyRecord? = nil, extensions: [Extension] = [], note: String = "",
        submissions: [Submission] = [], ballots: [Ballot] = [], hidden: [Hidden] = [], seal: Seal? = nil,
        recordedBallots: [Ballot]? = nil, origin: Origin
    ) {
        self.number = number
        self.opened = opened
        self.closes = closes
        self.closed = closed
        self.winner = winner
        self.tally = tally
        self.extensions = extensions
        self.hidden = hidden
        self.seal = seal
        self.note = note
        self.submissions = submissions
        self.ballotList = BallotList(ballots)
        self.recordedList = recordedBallots.map { BallotList($0) }
        self.origin = origin
    }

    public var isOpen: Bool { closed == nil }

    /// Whether a build counts `recordedBallots` instead of the round's ballot files: only a
    /// closed, sealed round's record stands for them.
    public var countsRecord: Bool { closed != nil && seal != nil && recordedList != nil }

    /// Takes the record as the round's ballots where it counts (`countsRecord`); whether it did.
    @discardableResult
    public mutating func countRecordedBallots() -> Bool {
        guard countsRecord, let recordedList else { return false }
        ballotList = recordedList
        return true
    }

    public func submission(_ id: SubmissionID) -> Submission? {
        place(of: id).map { submissions[$0] }
    }

    /// Whether a snippet of this round has `id`.
    public func hasSubmission(_ id: SubmissionID) -> Bool {
        place(of: id) != nil
    }

    /// Where the snippet with `id` is in `submissions`. By index: `first(where:)` copied each
    /// snippet it passed, retaining its strings.
    private func place(of id: SubmissionID) -> Int? {
        for s in submissions.indices where submissions[s].id == id { return s }
        return nil
    }

    public var winningSubmission: Submission? {
        winner.flatMap(submission)
    }

    /// The winning snippet's author, read in place: `winningSubmission` copies the snippet,
    /// retaining its body and origin, and standings, feeds and lists ask for every closed round.
    /// Inlinable: called from another module on `rounds[r]`, an opaque getter had the round
    /// copied out of its array first.
    @inlinable public var winnerAuthor: Handle? {
        guard let winner else { return nil }
        for s in submissions.indices where submissions[s].id == winner { return submissions[s].author }
        return nil
    }

    /// Whether the winning snippet is an ending, read in place as `winnerAuthor` is.
    @inlinable public var winnerIsEnding: Bool {
        guard let winner else { return false }
        for s in submissions.indices where submissions[s].id == winner { return submissions[s].ending }
        return false
    }

    /// A record that a due round without submissions got more time.
    public struct Extension: Hashable, Sendable {
        /// When the extension was made.
        public var at: Timestamp
        /// The deadline before the extension.
        public var from: Timestamp

        public init(at: Timestamp, from: Timestamp) {
            self.at = at
            self.from = from
        }
    }
}

/// The result of a tally as recorded in a closed round's file.
public struct TallyRecord: Hashable, Sendable {
    /// The method and its version, so a later `check` knows how the round was decided.
    public var method: String
    /// How many ballots were counted.
    public var ballots: Int
    /// Each snippet's score, highest first, in the order that decided the winner.
    public var scores: [Score]

    public init(method: String, ballots: Int, scores: [Score]) {
        self.method = method
        self.ballots = ballots
        self.scores = scores
    }

    public struct Score: Hashable, Sendable {
        public var id: SubmissionID
        public var score: Double

        public init(id: SubmissionID, score: Double) {
            self.id = id
            self.score = score
        }
    }
}
