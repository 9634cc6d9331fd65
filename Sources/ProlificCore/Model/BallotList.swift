import Synchronization

/// A round's ballots as the model holds them: a list, or, for a closed round a rebuild keeps
/// from the project cache, each ballot's voter and time with its choices packed as numbers,
/// made into `Ballot`s only when something asks for them (`PackedBallots`).
///
/// A rebuild reads of a kept project's closed rounds only each ballot's voter and time (the
/// explore order, the activity charts): their replay, standings and pages are kept. Making
/// 180,000 ballots, each with a list of its choices and a copy of its round's origin, was a
/// third of decoding the kept projects of the large benchmark (docs/performance-log.md). Equality
/// and hashing are the ballots', so a packed list equals the same ballots made at once.
public struct BallotList: Hashable, Sendable {
    @usableFromInline enum Storage: Sendable {
        case list([Ballot])
        case packed(PackedBallots)
    }

    @usableFromInline var storage: Storage

    public init(_ ballots: [Ballot] = []) { storage = .list(ballots) }

    public init(packed: PackedBallots) { storage = .packed(packed) }

    /// The ballots, made from the packed ones the first time they are asked for.
    public var ballots: [Ballot] {
        switch storage {
        case .list(let ballots): ballots
        case .packed(let packed): packed.ballots
        }
    }

    public var count: Int {
        switch storage {
        case .list(let ballots): ballots.count
        case .packed(let packed): packed.stamps.count
        }
    }

    /// Calls `body` with each ballot's voter and time, in order, without making the ballots:
    /// the explore order and the activity charts read every ballot of every round this way.
    /// Inlinable, so that the charts, in another module, loop over the ballots without a call for each.
    @inlinable public func forEachStamp(_ body: (Handle, Timestamp) throws -> Void) rethrows {
        switch storage {
        case .list(let ballots): for b in ballots.indices { try body(ballots[b].voter, ballots[b].cast) }
        case .packed(let packed): for stamp in packed.stamps { try body(stamp.voter, stamp.cast) }
        }
    }

    /// Whether the ballots are packed and not made yet (what tests look at).
    public var isPacked: Bool {
        if case .packed(let packed) = storage { return !packed.isMade }
        return false
    }

    public static func == (a: BallotList, b: BallotList) -> Bool {
        if case .packed(let x) = a.storage, case .packed(let y) = b.storage, x === y { return true }
        return a.ballots == b.ballots
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(ballots) }
}

/// A closed round's ballots as its record holds them (round.md's `votes`, each ballot with the
/// round's origin): each one's voter and time, and its choices as numbers into `ids`, the
/// round's snippets' ids first. Made into `Ballot`s once, when first asked for; safe to ask
/// from any thread.
public final class PackedBallots: Sendable {
    public struct Stamp: Sendable {
        public var voter: Handle
        public var cast: Timestamp

        public init(voter: Handle, cast: Timestamp) { (self.voter, self.cast) = (voter, cast) }
    }

    @usableFromInline let stamps: [Stamp]
    /// Where each ballot's choices start in `choices`, then where the last one's end.
    private let starts: [Int32]
    private let choices: [Int32]
    private let ids: [SubmissionID]
    private let origin: Origin
    private let made = Mutex<[Ballot]?>(nil)

    /// Nil unless `starts` has one more number than `stamps`, from 0 up to the count of
    /// `choices`, never going down, and every choice is a place in `ids`: a ballot is then
    /// always made without a trap.
    public init?(stamps: [Stamp], starts: [Int32], choices: [Int32], ids: [SubmissionID], origin: Origin) {
        guard starts.count == stamps.count + 1, starts.first == 0, starts.last.map(Int.init) == choices.count,
            zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }),
            choices.allSatisfy({ $0 >= 0 && Int($0) < ids.count })
        else { return nil }
        (self.stamps, self.starts, self.choices, self.ids, self.origin) = (stamps, starts, choices, ids, origin)
    }

    var isMade: Bool { made.withLock { $0 != nil } }

    var ballots: [Ballot] {
        made.withLock { made in
            if let made { return made }
            var ballots: [Ballot] = []
            ballots.reserveCapacity(stamps.count)
            for b in stamps.indices {
                let choices = (Int(starts[b])..<Int(starts[b + 1])).map { ids[Int(self.choices[$0])] }
                ballots.append(Ballot(voter: stamps[b].voter, cast: stamps[b].cast, choices: choices, origin: origin))
            }
            made = ballots
            return ballots
        }
    }
}
