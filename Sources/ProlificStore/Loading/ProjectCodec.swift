import ProlificCore

/// A project with all its rounds, snippets and ballots as compact bytes, for `ProjectCache`.
///
/// Every field is kept, the positions diagnostics point at included, so a decoded project is
/// equal (`==`) to the one that was read from the files. A file's path is not stored when it is
/// the one the reader gives that file (`layout.ballotFile(…)` and so on), which is nearly always:
/// it is worked out again on decoding. The files' positions are stored once per distinct set
/// (`PositionsTable`): files `submit` and `vote` write put their keys on the same lines, so a
/// project's snippets share one set and its ballots one per number of choices (each round.md has
/// its own), where decoding made a new array and new keys for each file (a third of decoding the
/// kept projects of a large rebuild, by `perf`). A ballot's choices, a round's winner and its
/// scores name the round's snippets by number (`write(_:_:_:)`). Identifiers are
/// validated again on decoding, and anything malformed or truncated decodes to nil (the project is
/// then read from its files).
struct ProjectCodec {
    let layout: ContentLayout

    /// The project's bytes on their own (`ProjectCache` appends them to its header instead).
    func encode(_ project: Project) -> [UInt8] {
        var w = BinaryWriter()
        encode(project, into: &w)
        return w.bytes
    }

    /// Appends the project's bytes to `w` (whose capacity the caller may have reserved).
    func encode(_ project: Project, into w: inout BinaryWriter) {
        var texts = BinaryWriter(capacity: project.rounds.reduce(0) { $0 + $1.submissions.reduce(0) { $0 + $1.body.utf8.count + 3 } })
        encode(project, into: &w, texts: &texts)
        w.raw(texts.bytes)
    }

    /// Appends everything but the snippets' texts and the seals' files to `w`, and those to
    /// `texts`: each snippet's text, then the seals' packed files as one more text (see
    /// `DeferredSeals`). `decode` with `Bodies.deferred` reads what `w` got alone, and
    /// `textRanges(from:count:)` what `texts` got, the snippets' count and one. `ProjectCache`
    /// keeps them as two parts of its entry, so that a rebuild reads only the first: the texts
    /// are most of a project's bytes (123 MB of entries on large, 20 MB without them and the
    /// seals' files).
    func encode(_ project: Project, into w: inout BinaryWriter, texts: inout BinaryWriter) {
        w.text(project.slug.rawValue)
        w.text(project.title)
        w.text(project.owner.rawValue)
        w.signed(project.created.secondsSinceEpoch)
        w.signed(Int64(project.roundLimit))
        w.signed(project.roundLength.seconds)
        w.varint(UInt64(project.tags.count))
        for tag in project.tags { w.text(tag) }
        w.text(project.status.rawValue)
        w.text(project.visibility.rawValue)
        w.text(project.starter)
        // The rest after the positions it names, which are known once it is written.
        var table = PositionsTable()
        var rest = BinaryWriter(capacity: Self.estimatedSize(of: project))
        writeOrigin(project.origin, isExpected: project.origin.path == layout.projectFile(project.slug), &rest, &table)
        rest.varint(UInt64(project.rounds.count))
        var seals = BinaryWriter()
        for round in project.rounds { encode(round, of: project.slug, &rest, &table, seals: &seals) }
        // How many texts there are, then the texts, apart, and the seals' files after them: a
        // kept project's are read again only when asked for (`Bodies.deferred`).
        rest.varint(UInt64(project.rounds.reduce(0) { $0 + $1.submissions.count }))
        for round in project.rounds {
            for submission in round.submissions { texts.text(submission.body) }
        }
        texts.varint(UInt64(seals.bytes.count))
        texts.raw(seals.bytes)
        table.write(into: &w)
        w.raw(rest.bytes)
    }

    /// What decoding makes of the snippets' texts and the seals' files.
    enum Bodies {
        /// Strings and files, at once.
        case eager
        /// Texts made when asked for (`DeferredTexts`), from what `texts` gives the snippets'
        /// ids, in order, once the rounds are decoded, and seals' files read when asked for
        /// (`DeferredSeals`), from what `seals` gives their places among the packed files and
        /// the snippets' count (the packed files are the text after theirs). Decoding stops
        /// before the texts: the bytes need not hold them (`encode(_:into:texts:)`).
        case deferred(
            texts: (_ ids: [SubmissionID]) -> DeferredTexts,
            seals: (_ places: [DeferredSeals.Place], _ textCount: Int) -> DeferredSeals)
    }

    /// A seal whose files are packed after the texts: its round's place in the project, its
    /// digest and where its files are.
    private struct PendingSeal {
        var round: Int
        var digest: String
        var place: DeferredSeals.Place
    }

    /// About as many bytes as `project` encodes to, so a buffer is allocated once.
    static func estimatedSize(of project: Project) -> Int {
        var size = 4096 + project.starter.utf8.count
        for round in project.rounds {
            size += 512 + 160 * (round.submissions.count + round.ballots.count)
            for submission in round.submissions { size += submission.body.utf8.count }
        }
        return size
    }

    /// A project from exactly `bytes`: nil if anything is left over.
    func decode(_ bytes: [UInt8], bodies: Bodies = .eager) -> Project? {
        var r = BinaryReader(bytes)
        guard let project = decode(from: &r, bodies: bodies), r.isAtEnd else { return nil }
        return project
    }

    /// Reads a project from where `r` is, leaving it just after.
    func decode(from r: inout BinaryReader, bodies: Bodies = .eager) -> Project? {
        guard let slug = r.text().flatMap(Slug.init), let title = r.text(), let owner = r.text().flatMap(Handle.init),
            let created = r.time(), let limit = r.signed(), let length = r.signed().flatMap(TimeSpan.init(seconds:)),
            let tagCount = r.shortCount()
        else { return nil }
        var tags: [String] = []
        for _ in 0..<tagCount {
            guard let tag = r.text() else { return nil }
            tags.append(tag)
        }
        guard let status = r.text().flatMap(Project.Status.init(rawValue:)),
            let visibility = r.text().flatMap(Project.Visibility.init(rawValue:)), let starter = r.text(),
            let table = PositionsTable.read(from: &r),
            let origin = readOrigin(&r, table, { Origin(folder: layout.projectFolder(slug), name: "project", suffix: ".md", positions: $0) }),
            let roundCount = r.shortCount()
        else { return nil }
        var project = Project(
            slug: slug, title: title, owner: owner, created: created, roundLimit: Int(limit),
            roundLength: length, tags: tags, status: status, visibility: visibility, starter: starter, origin: origin)
        project.rounds.reserveCapacity(roundCount)
        // Whether each snippet's text may need rewriting, in order, until the texts are read
        // (room for a few a round: grown a snippet at a time, it was copied over and over).
        var flags: [Bool] = []
        flags.reserveCapacity(8 * roundCount)
        var seals: [PendingSeal] = []
        var sealBytes = 0
        let roundsFolder = layout.roundsFolder(slug)
        for index in 0..<roundCount {
            guard
                let round = decodeRound(
                    in: roundsFolder, &r, table, flags: &flags, round: index, seals: &seals, sealBytes: &sealBytes)
            else { return nil }
            project.rounds.append(round)
        }
        // The count is checked against the snippets, not the bytes left: the texts may be elsewhere.
        guard let textCount = r.varint(), textCount == UInt64(flags.count) else { return nil }
        switch bodies {
        case .eager:
            for i in project.rounds.indices {
                for j in project.rounds[i].submissions.indices {
                    guard let body = r.text() else { return nil }
                    project.rounds[i].submissions[j].body = body
                }
            }
            guard let size = r.shortCount(), size == sealBytes, let packed = r.raw(size) else { return nil }
            for seal in seals {
                guard let files = Seal.PackedFiles(bytes: Array(packed[seal.place.bytes]), count: seal.place.count) else { return nil }
                project.rounds[seal.round].seal = Seal(digest: seal.digest, packed: files)
            }
        case .deferred(let make, let deferSeals):
            if !seals.isEmpty {
                let deferred = deferSeals(seals.map(\.place), flags.count)
                for (index, seal) in seals.enumerated() {
                    project.rounds[seal.round].seal = Seal(digest: seal.digest, deferred: deferred, at: index)
                }
            }
            // By index, in place: a copy of a round retains everything it holds.
            var ids: [SubmissionID] = []
            ids.reserveCapacity(flags.count)
            for i in project.rounds.indices {
                for j in project.rounds[i].submissions.indices { ids.append(project.rounds[i].submissions[j].id) }
            }
            let texts = make(ids)
            var index = 0
            for i in project.rounds.indices {
                for j in project.rounds[i].submissions.indices {
                    project.rounds[i].submissions[j].text = SnippetText(deferred: texts, at: index, mayNeedRewriting: flags[index])
                    index += 1
                }
            }
        }
        return project
    }

    /// Where each of the snippets' texts is in what `encode(_:into:texts:)` gave `texts`, read
    /// by `r` (places in its whole bytes), in order, without making them; nil if they are not
    /// `count` texts.
    static func textRanges(from r: inout BinaryReader, count: Int) -> [Range<Int>]? {
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(count)
        for _ in 0..<count {
            guard let length = r.shortCount(minimumSize: 1), let range = r.skip(length) else { return nil }
            ranges.append(range)
        }
        return ranges
    }

    // MARK: Rounds

    private func encode(
        _ round: Round, of slug: Slug, _ w: inout BinaryWriter, _ table: inout PositionsTable, seals: inout BinaryWriter
    ) {
        w.varint(UInt64(round.number.value))
        w.signed(round.opened.secondsSinceEpoch)
        w.signed(round.closes.secondsSinceEpoch)
        w.optional(round.closed) { $0.signed($1.secondsSinceEpoch) }
        w.varint(UInt64(round.extensions.count))
        for e in round.extensions {
            w.signed(e.at.secondsSinceEpoch)
            w.signed(e.from.secondsSinceEpoch)
        }
        w.varint(UInt64(round.hidden.count))
        for h in round.hidden {
            w.submissionID(h.id)
            w.text(h.by)
            w.signed(h.at.secondsSinceEpoch)
            w.text(h.reason)
        }
        w.optional(round.seal) { w, seal in
            w.text(seal.digest)
            // Packed (`Seal.PackedFiles`) when they can be, as they nearly always are: decoded
            // as one buffer, not two strings a file, and kept after the texts (`DeferredSeals`).
            if let packed = seal.packedFiles {
                w.flag(true)
                w.varint(UInt64(packed.count))
                w.varint(UInt64(packed.bytes.count))
                seals.raw(packed.bytes)
            } else {
                w.flag(false)
                w.varint(UInt64(seal.files.count))
                for file in seal.files {
                    w.text(file.path)
                    w.text(file.digest)
                }
            }
        }
        w.text(round.note)
        writeOrigin(round.origin, isExpected: round.origin.path == layout.roundFile(slug, round.number), &w, &table)
        let submissions = layout.submissionsFolder(slug, round.number)
        w.varint(UInt64(round.submissions.count))
        for s in round.submissions {
            w.submissionID(s.id)
            // The author is the id's, but for a file that says otherwise (which `check` reports).
            w.flag(s.author == s.id.author)
            if s.author != s.id.author { w.text(s.author.rawValue) }
            w.signed(s.submitted.secondsSinceEpoch)
            w.flag(s.ending)
            // The text itself comes after every round (`encode(_:into:)`).
            w.flag(s.text.mayNeedRewriting)
            let isExpected = Self.isPath(s.origin.path, in: submissions, s.id.author.rawValue, "-", s.id.time.compactDigits, ".md")
            writeOrigin(s.origin, isExpected: isExpected, &w, &table)
        }
        // After the snippets, which the winner and the scores name by number.
        let numbers = SnippetNumbers(round)
        w.optional(round.winner) { Self.write($1, numbers, &$0) }
        w.optional(round.tally) { w, tally in w.tallyRecord(tally) { Self.write($1, numbers, &$0) } }
        let votes = layout.votesFolder(slug, round.number)
        // A build takes a sealed round's ballots from its record (`ContentReader`): then they
        // are one list, each ballot with the round's origin, written once without origins.
        let recordIsBallots =
            round.recordedBallots == round.ballots
            && round.ballots.allSatisfy { $0.origin.isIdentical(to: round.origin) }
        w.varint(round.recordedBallots == nil ? 0 : recordIsBallots ? 1 : 2)
        encode(round.ballots, numbers, votes: votes, withOrigins: !recordIsBallots, &w, &table)
        if !recordIsBallots, let recorded = round.recordedBallots {
            encode(recorded, numbers, votes: votes, withOrigins: true, &w, &table)
        }
    }

    /// An id of `round`'s snippets, written as the number of the snippet it names, counted from
    /// 1, or 0 and the id when it names none (a ballot `check` reports): a rebuild decodes the
    /// 217,000 choices of the large benchmark's recorded ballots, and spelling each out again
    /// made a string of its author and checked it.
    private static func write(_ id: SubmissionID, _ numbers: SnippetNumbers, _ w: inout BinaryWriter) {
        if let index = numbers.index(of: id) {
            w.varint(UInt64(index + 1))
        } else {
            w.varint(0)
            w.submissionID(id)
        }
    }

    /// Where each of a round's snippets is in its list, the first of any id listed twice: looked
    /// for in the list while it is short, through a dictionary past that, so that a hostile round
    /// of 10,000 snippets and as many ballots is written in linear time.
    private struct SnippetNumbers {
        let submissions: [Submission]
        let indices: [SubmissionID: Int]?

        init(_ round: Round) {
            submissions = round.submissions
            indices =
                submissions.count > 16
                ? Dictionary(zip(submissions.map(\.id), submissions.indices), uniquingKeysWith: { first, _ in first }) : nil
        }

        func index(of id: SubmissionID) -> Int? {
            if let indices { return indices[id] }
            return submissions.firstIndex { $0.id == id }
        }
    }

    /// What `write(_:_:_:)` wrote, once the round's snippets are read.
    static func readID(_ r: inout BinaryReader, of round: Round) -> SubmissionID? {
        switch readChoice(&r, snippets: round.submissions.count) {
        case .snippet(let place): round.submissions[place].id
        case .other(let id): id
        case nil: nil
        }
    }

    /// What `write(_:_:_:)` wrote of an id: one of a round's `snippets` snippets, by its place
    /// among them, or an id that names none of them.
    enum Choice {
        case snippet(Int)
        case other(SubmissionID)
    }

    /// The choice `write(_:_:_:)` wrote for a round of `snippets` snippets; nil for a number past them.
    static func readChoice(_ r: inout BinaryReader, snippets: Int) -> Choice? {
        guard let number = r.varint() else { return nil }
        if number == 0 { return r.submissionID().map { .other($0) } }
        guard number <= UInt64(snippets) else { return nil }
        return .snippet(Int(number) - 1)
    }

    private func encode(
        _ ballots: [Ballot], _ numbers: SnippetNumbers, votes: String, withOrigins: Bool, _ w: inout BinaryWriter,
        _ table: inout PositionsTable
    ) {
        w.varint(UInt64(ballots.count))
        for b in ballots {
            w.text(b.voter.rawValue)
            w.signed(b.cast.secondsSinceEpoch)
            w.varint(UInt64(b.choices.count))
            for choice in b.choices { Self.write(choice, numbers, &w) }
            if withOrigins {
                writeOrigin(b.origin, isExpected: Self.isPath(b.origin.path, in: votes, b.voter.rawValue, ".yml"), &w, &table)
            }
        }
    }

    /// Round `index` of the project; a seal whose files are packed after the texts is left out,
    /// noted in `seals`, its files placed at `sealBytes`, which it moves past them.
    private func decodeRound(
        in roundsFolder: String, _ r: inout BinaryReader, _ table: PositionsTable.Read, flags: inout [Bool], round index: Int,
        seals: inout [PendingSeal], sealBytes: inout Int
    ) -> Round? {
        guard let number = r.varint().flatMap({ RoundNumber(Int(clamping: $0)) }), let opened = r.time(),
            let closes = r.time(), let closed = r.optional({ $0.time() }),
            let extensionCount = r.shortCount(minimumSize: 2)
        else { return nil }
        var extensions: [Round.Extension] = []
        for _ in 0..<extensionCount {
            guard let at = r.time(), let from = r.time() else { return nil }
            extensions.append(Round.Extension(at: at, from: from))
        }
        guard let hiddenCount = r.shortCount(minimumSize: 4) else { return nil }
        var hidden: [Round.Hidden] = []
        for _ in 0..<hiddenCount {
            guard let id = r.submissionID(), let by = r.text(), let at = r.time(), let reason = r.text() else { return nil }
            hidden.append(Round.Hidden(id: id, by: by, at: at, reason: reason))
        }
        // A packed seal's files come after the texts: what is read here is noted once the
        // round's number is known.
        var packedSeal: (digest: String, count: Int, size: Int)?
        guard
            let seal = r.optional({ r -> Seal? in
                guard let digest = r.text(), let packed = r.flag() else { return nil }
                if packed {
                    // Each file takes at least 33 bytes: its path's length and its digest.
                    guard let count = r.varint(), let size = r.varint(), size <= 1 << 30, count <= size / 33 else { return nil }
                    packedSeal = (digest, Int(count), Int(size))
                    return Seal(digest: digest, files: [])
                }
                guard let count = r.shortCount(minimumSize: 2) else { return nil }
                var files: [Seal.File] = []
                files.reserveCapacity(count)
                for _ in 0..<count {
                    guard let path = r.text(), let digest = r.text() else { return nil }
                    files.append(Seal.File(path: path, digest: digest))
                }
                return Seal(digest: digest, files: files)
            }),
            let note = r.text(), case let roundFolder = ContentLayout.roundFolder(in: roundsFolder, number),
            let origin = readOrigin(&r, table, { Origin(folder: roundFolder, name: "round", suffix: ".md", positions: $0) }),
            let submissionCount = r.shortCount(minimumSize: 6)
        else { return nil }
        var round = Round(
            number: number, opened: opened, closes: closes,
            closed: closed, winner: nil, tally: nil, extensions: extensions, note: note, hidden: hidden,
            seal: packedSeal == nil ? seal : nil, origin: origin)
        if let packedSeal {
            let place = DeferredSeals.Place(round: number, bytes: sealBytes..<(sealBytes + packedSeal.size), count: packedSeal.count)
            seals.append(PendingSeal(round: index, digest: packedSeal.digest, place: place))
            sealBytes += packedSeal.size
        }
        let submissions = roundFolder + "/submissions"
        round.submissions.reserveCapacity(submissionCount)
        for _ in 0..<submissionCount {
            guard let id = r.submissionID(), let authorIsTheIDs = r.flag(),
                let author = authorIsTheIDs ? id.author : r.text().flatMap(Handle.init), let submitted = r.time(),
                let ending = r.flag(), let mayNeedRewriting = r.flag(),
                let origin = readOrigin(&r, table, { Origin(folder: submissions, snippet: id, positions: $0) })
            else { return nil }
            flags.append(mayNeedRewriting)
            // The text is read after every round (`decode(from:bodies:)`).
            round.submissions.append(
                Submission(id: id, author: author, submitted: submitted, ending: ending, body: "", origin: origin))
        }
        guard let winner = r.optional({ Self.readID(&$0, of: round) }),
            let tally = r.optional({ $0.tallyRecord { Self.readID(&$0, of: round) } })
        else { return nil }
        (round.winner, round.tally) = (winner, tally)
        guard let record = r.varint(), record <= 2 else { return nil }
        if record == 1 {
            // The record is the ballots, each with the round's origin: packed, one list for both.
            guard let packed = Self.decodePackedBallots(&r, of: round) else { return nil }
            round.ballotList = BallotList(packed: packed)
            round.recordedList = round.ballotList
            return round
        }
        let votes = roundFolder + "/votes"
        guard let ballots = decodeBallots(&r, table, of: round, votes: votes) else { return nil }
        round.ballots = ballots
        if record == 2 {
            guard let recorded = decodeBallots(&r, table, of: round, votes: votes) else { return nil }
            round.recordedBallots = recorded
        }
        return round
    }

    /// A recorded round's ballots as `encode` wrote them without origins (each has the round's),
    /// packed (`PackedBallots`): their choices are numbers, made into ids only when the ballots
    /// are asked for, which a rebuild seldom does of a kept project's closed rounds.
    static func decodePackedBallots(_ r: inout BinaryReader, of round: Round) -> PackedBallots? {
        guard let ballotCount = r.shortCount(minimumSize: 4) else { return nil }
        var stamps: [PackedBallots.Stamp] = []
        stamps.reserveCapacity(ballotCount)
        var starts: [Int32] = [0]
        starts.reserveCapacity(ballotCount + 1)
        var choices: [Int32] = []
        choices.reserveCapacity(ballotCount)
        // The round's snippets by number, then any id a ballot names that is none of them.
        var ids = round.submissions.map(\.id)
        let snippets = ids.count
        for _ in 0..<ballotCount {
            guard let voter = r.text().flatMap(Handle.init), let cast = r.time(), let choiceCount = r.shortCount(minimumSize: 1)
            else { return nil }
            for _ in 0..<choiceCount {
                switch Self.readChoice(&r, snippets: snippets) {
                case .snippet(let place):
                    guard let place = Int32(exactly: place) else { return nil }
                    choices.append(place)
                case .other(let id):
                    guard let place = Int32(exactly: ids.count) else { return nil }
                    choices.append(place)
                    ids.append(id)
                case nil:
                    return nil
                }
            }
            guard let end = Int32(exactly: choices.count) else { return nil }
            stamps.append(PackedBallots.Stamp(voter: voter, cast: cast))
            starts.append(end)
        }
        return PackedBallots(stamps: stamps, starts: starts, choices: choices, ids: ids, origin: round.origin)
    }

    /// A list of ballots of `round`, whose snippets are read, each with its own origin.
    private func decodeBallots(
        _ r: inout BinaryReader, _ table: PositionsTable.Read, of round: Round, votes: String
    ) -> [Ballot]? {
        guard let ballotCount = r.shortCount(minimumSize: 4) else { return nil }
        var ballots: [Ballot] = []
        ballots.reserveCapacity(ballotCount)
        for _ in 0..<ballotCount {
            guard let voter = r.text().flatMap(Handle.init), let cast = r.time(), let choiceCount = r.shortCount(minimumSize: 1)
            else { return nil }
            var choices: [SubmissionID] = []
            choices.reserveCapacity(choiceCount)
            for _ in 0..<choiceCount {
                guard let id = Self.readID(&r, of: round) else { return nil }
                choices.append(id)
            }
            guard let origin = readOrigin(&r, table, { Origin(folder: votes, name: voter.rawValue, suffix: ".yml", positions: $0) })
            else { return nil }
            ballots.append(Ballot(voter: voter, cast: cast, choices: choices, origin: origin))
        }
        return ballots
    }

    // MARK: Parts

    /// Whether `path` is `folder/` followed by `parts`, without building it (every ballot and
    /// snippet asks).
    static func isPath(_ path: String, in folder: String, _ parts: String...) -> Bool {
        var path = path
        return path.withUTF8 { whole in
            var offset = 0
            func consume(_ part: String) -> Bool {
                var part = part
                return part.withUTF8 { bytes in
                    guard offset + bytes.count <= whole.count,
                        UnsafeBufferPointer(rebasing: whole[offset..<(offset + bytes.count)]).elementsEqual(bytes)
                    else { return false }
                    offset += bytes.count
                    return true
                }
            }
            guard consume(folder), consume("/") else { return false }
            for part in parts where !consume(part) { return false }
            return offset == whole.count
        }
    }

    /// The path only when it is not the expected one, then the number of its positions in
    /// `table`.
    private func writeOrigin(_ origin: Origin, isExpected: Bool, _ w: inout BinaryWriter, _ table: inout PositionsTable) {
        if isExpected {
            w.flag(false)
        } else {
            w.flag(true)
            w.text(origin.path)
        }
        w.varint(UInt64(table.number(of: origin.positions)))
    }

    /// An origin whose path is written only when it is not the expected one: `expected` makes
    /// that one, with its path in parts (`Origin`), from the positions read.
    private func readOrigin(_ r: inout BinaryReader, _ table: PositionsTable.Read, _ expected: (Positions) -> Origin) -> Origin? {
        guard let explicit = r.flag() else { return nil }
        var path: String?
        if explicit {
            guard let text = r.text() else { return nil }
            path = text
        }
        guard let number = r.varint(), number < table.sets.count else { return nil }
        let positions = table.sets[Int(number)]
        return path.map { Origin(path: $0, positions: positions) } ?? expected(positions)
    }
}

/// The distinct sets of positions of a project's files, each written once, in the order first
/// met; an origin names its set by number. Sets are told apart by their bytes, keys in order,
/// so a decoded set iterates as the one read did.
struct PositionsTable {
    /// Each set's number by the bytes of its entries (they fix the count written before them),
    /// hashed in one pass (`PathKey`): an `[UInt8]` key is hashed a byte at a time, and looking
    /// up every origin's set that way was 1.7 % of a large full build's `perf` samples (264; 149
    /// hashed in one pass).
    private var numbers: [PathKey: Int] = [:]
    private var sets: [[UInt8]] = []
    /// Where a set's entries are written to be looked up: one buffer for every origin (most
    /// sets are known already). A buffer and an array made for each origin were a quarter of
    /// writing the project caches in a full build (97 of 404 `perf` samples).
    private var entries = BinaryWriter(capacity: 256)

    /// The number of `positions`' set, which is added if it is new.
    mutating func number(of positions: Positions) -> Int {
        entries.removeAll()
        // Iterated once: a set kept encoded is decoded at each read (a kept profile's, when the
        // profiles' cache is written again).
        var count = 0
        for (key, position) in positions {
            entries.text(key)
            entries.signed(Int64(position.line))
            entries.signed(Int64(position.column))
            count += 1
        }
        if let known = numbers[PathKey(entries.bytes)] { return known }
        var set = BinaryWriter(capacity: entries.bytes.count + 10)
        set.varint(UInt64(count))
        set.raw(entries.bytes)
        // The key gets a buffer of its own; the next set is written into this one.
        numbers[PathKey(Array(entries.bytes[...]))] = sets.count
        sets.append(set.bytes)
        return sets.count - 1
    }

    func write(into w: inout BinaryWriter) {
        w.varint(UInt64(sets.count))
        for set in sets { w.raw(set) }
    }

    /// A table as decoded.
    struct Read {
        var sets: [Positions]
    }

    /// The table `r` is at, each set checked here and kept encoded (`EncodedPositions`) in a
    /// copy of the table's bytes, which the sets share: its keys are made into strings only if
    /// a diagnostic asks for one. nil when a set isn't whole.
    static func read(from r: inout BinaryReader) -> Read? {
        guard let count = r.shortCount() else { return nil }
        let start = r.position
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(count)
        for _ in 0..<count {
            guard let size = r.shortCount(minimumSize: 3) else { return nil }
            let first = r.position
            for _ in 0..<size {
                guard r.skipText(), r.signed() != nil, r.signed() != nil else { return nil }
            }
            ranges.append((first - start)..<(r.position - start))
        }
        let end = r.position
        let table = r.withAll { Array($0[start..<end]) }
        return Read(sets: EncodedPositions(bytes: table, ranges: ranges, decode: decode).sets)
    }

    /// The positions `range` of `table` holds, as `read` checked them, each set in turn.
    private static func decode(_ table: [UInt8], _ range: Range<Int>) -> Positions {
        var r = BinaryReader(table, range: range)
        var positions = Positions()
        while !r.isAtEnd, let key = r.text(), let line = r.signed(), let column = r.signed() {
            positions[key] = TextPosition(line: Int(line), column: Int(column))
        }
        return positions
    }
}
